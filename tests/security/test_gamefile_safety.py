"""The game file loader refuses what could hang or crash it: YAML anchors and aliases (billion
laughs), non-JSON values anywhere, files that are not regular files, and oversized files.
Each refusal is one line (CorruptGameError, exit 5, or UsageError, exit 2) naming the place,
through the library and the CLI alike."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.errors import CorruptGameError, ExitCode, UsageError
from pbem.store import gamefile
from tests.pbem.test_gamefile import sample_game

runner = CliRunner()


@pytest.fixture
def text() -> str:
    return gamefile.dump_text(sample_game(5))


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stderr.strip()


LAUGHS = "".join(f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n" for n in range(1, 12))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("  mode: open", "  mode: &m open\n  again: *m", 1),
         r"^game file: line \d+ has a YAML anchor or alias \(&name or \*name\); a game file "
         r"holds neither$"),
        (lambda t: t.replace("  mode: open", "  mode: &m open", 1), "has a YAML anchor or alias"),
        (lambda t: t.replace("state:\n", "state:\n  l0: &l0 [lol, lol]\n  "
                             + LAUGHS.replace("\n", "\n  ").rstrip(" "), 1),
         "has a YAML anchor or alias"),
    ],
)
def test_anchors_and_aliases_are_refused(text: str, edit: Callable[[str], str], message: str) -> None:
    with pytest.raises(CorruptGameError, match=message):
        gamefile.load_text(edit(text))


@pytest.mark.parametrize(
    ("value", "named"),
    [
        ("!!set {a: null}", "holds a YAML !!set"),
        ("!!binary aGVsbG8=", "holds a YAML !!binary"),
        ("2024-01-01", "holds a YAML !!timestamp"),
        ("2024-01-01 10:00:00", "holds a YAML !!timestamp"),
        ("!!int x", "holds a YAML !!int that does not parse"),
        ("!!float x", "holds a YAML !!float that does not parse"),
        ("!!bool maybe", "holds a YAML !!bool that does not parse"),
        ("!!omap [a: 1]", "holds a YAML !!omap"),
        ("{null: 1}", "has a key None that is not a string"),
        ("{1: one}", "has a key 1 that is not a string"),
        ("{true: yes}", "has a key True that is not a string"),
        ("{2024-01-01: x}", "has a key !!timestamp that is not a string"),
        (".nan", "is nan, not a finite number"),
        ("-.inf", "is -inf, not a finite number"),
    ],
)
def test_non_json_values_are_refused_naming_the_key(text: str, value: str, named: str) -> None:
    damaged = text.replace("  mode: open", f"  mode: open\n  deep:\n  - x: {value}", 1)
    with pytest.raises(CorruptGameError) as error:
        gamefile.load_text(damaged)
    assert str(error.value).startswith("game file: 'randomness.deep[0].x' ")
    assert named in str(error.value)
    assert error.value.exit_code == ExitCode.CORRUPT


def test_a_bad_id_is_named_even_in_the_game_header(text: str) -> None:
    with pytest.raises(CorruptGameError, match=r"^game file: 'game\.id' holds a YAML !!int"):
        gamefile.load_text(text.replace("  id: gf", "  id: !!int x", 1))


def test_a_non_json_value_in_the_log_tail_is_named(tmp_path: Path, text: str) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(text.replace("  kind: setup", "  kind: setup\n  when: 2024-01-01", 1))
    with pytest.raises(CorruptGameError, match=r"^game file: 'log\[-1\]\.when' holds a YAML !!timestamp"):
        gamefile.load_head(path)
    with pytest.raises(CorruptGameError, match=r"^game file: 'log\[0\]\.when' holds"):
        gamefile.load(path)


def test_plain_game_files_still_load_with_ampersands_in_strings(text: str) -> None:
    gf = sample_game(5)
    gf.roster["players"][0]["name"] = "Smith & Co *2"
    assert gamefile.load_text(gamefile.dump_text(gf)).roster["players"][0]["name"] == "Smith & Co *2"
    assert gamefile.load_text(text).to_data() == sample_game(5).to_data()


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "g.yaml"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match=r"g\.yaml is not a regular file"):
        gamefile.load(fifo)
    with pytest.raises(UsageError, match="is not a regular file"):
        gamefile.load_head(fifo)
    code, err = cli("status", str(fifo))
    assert (code, err.endswith("is not a regular file; give the path of a game file")) == (2, True)


def test_a_symlink_to_dev_zero_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "g.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(UsageError, match="is not a regular file"):
        gamefile.load(link)
    assert cli("verify", str(link))[0] == ExitCode.USAGE


def test_a_symlink_to_a_real_game_file_is_read(tmp_path: Path, text: str) -> None:
    (tmp_path / "real.yaml").write_text(text)
    (tmp_path / "g.yaml").symlink_to(tmp_path / "real.yaml")
    assert gamefile.load(tmp_path / "g.yaml").game_id == "gf"


def test_an_oversized_file_is_refused_before_it_is_parsed(tmp_path: Path, text: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(text + "#" * (len(text) + 10) + "\n")
    monkeypatch.setattr(gamefile, "MAX_FILE_BYTES", 2 * len(text))  # small cap, same code path
    monkeypatch.setattr(gamefile.yaml, "load", None)  # parsing would fail loudly
    cap = 2 * len(text)
    with pytest.raises(CorruptGameError, match=rf"^game file g\.yaml is over {cap} bytes \(.* MB\), "
                                               "the most pbem reads$"):
        gamefile.load(path)
    with pytest.raises(CorruptGameError, match=rf"^game file is over {cap} bytes"):
        gamefile.load_text(path.read_text())


def test_a_file_that_is_not_utf8_is_corrupt(tmp_path: Path, text: str) -> None:
    path = tmp_path / "g.yaml"
    path.write_bytes(text.encode() + b"\xff\xfe\n")
    with pytest.raises(CorruptGameError, match=r"^game file g\.yaml is not UTF-8 text \(byte \d+\)$"):
        gamefile.load(path)
    assert cli("status", str(path))[0] == ExitCode.CORRUPT
