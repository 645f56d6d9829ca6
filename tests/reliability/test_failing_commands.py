"""A failing command changes nothing and says only what is true (issue 20 §2): each case
below exits with its documented code, never 0 and never 70, prints one error line, and leaves
every file in the game's folder byte-identical."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from tests.pbem.test_mail_helpers import acting, block_for, first_move, make_game

runner = CliRunner()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def fails(game: Path, args: list[str], code: int, words: str, *, stdin: bytes | None = None,
          env: dict[str, str] | None = None) -> None:
    before = snapshot(game.parent)
    result = runner.invoke(app, args, input=stdin, env=env)
    assert result.exit_code == code, (args, result.exit_code, result.stderr)
    assert words in result.stderr, (args, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert snapshot(game.parent) == before, f"{args} wrote before failing"


def test_roster_timezones_are_all_checked_before_any_is_written(game: Path) -> None:
    player = acting(game)
    fails(game, ["roster", str(game), "--timezone", f"{player}=Europe/Lisbon",
                 "--timezone", "nobody=Europe/Paris"], 2, "unknown player 'nobody'")
    fails(game, ["roster", str(game), "--timezone", f"{player}=Europe/Lisbon",
                 "--timezone", f"{player}=Mars/Olympus"], 2, "unknown timezone 'Mars/Olympus'")
    fails(game, ["roster", str(game), "--timezone", f"{player}=America/Argentina"], 2,
          "unknown timezone")  # a folder of the zone database
    fails(game, ["roster", str(game), "--timezone", f"{player}={'X' * 300}"], 2,
          "unknown timezone")


def test_deadline_settings_are_checked_before_they_are_written(game: Path) -> None:
    for args, words in ((["--for", "nobody"], "unknown player 'nobody'"),
                        (["--now", "yesterday"], "'yesterday' is not a time"),
                        (["--now", "9999-12-31T23:00:00Z"], "is not a time between"),
                        (["--now", "0001-01-01T00:00:00+14:00"], "is not a time between")):
        fails(game, ["deadlines", str(game), "--set", "default=72h", *args], 2, words)
    fails(game, ["deadlines", str(game), "--set", "default=3651d"], 2, "longer than ten years")


def test_mail_settings_are_checked_before_a_block_is_applied(game: Path, tmp_path: Path) -> None:
    orders = tmp_path / "block.txt"
    orders.write_text(block_for(game, first_move(game)))
    fails(game, ["apply", str(game), str(orders), "--mail"], 2, "no From address",
          env={"PBEM_MAIL_FROM": ""})
    fails(game, ["apply", str(game), str(orders), "--mail", "--mail-config",
                 str(tmp_path / "missing.toml")], 2, "cannot read mail settings")


def test_names_that_are_not_in_the_game_are_errors(game: Path, tmp_path: Path) -> None:
    env = {"PBEM_MAIL_FROM": "host@example.org"}
    fails(game, ["send", str(game), "--to", "nobody", "--outbox", str(tmp_path / "o")], 2,
          "unknown reader 'nobody'", env=env)
    fails(game, ["timeout", str(game), "--force", "--player", "nobody"], 2,
          "unknown player 'nobody'")
    fails(game, ["verify", str(game), "--secrets", str(tmp_path / "missing.seed")], 2,
          "no seed or secrets file")
    fails(game, ["replace-player", str(game), acting(game), "--key", str(tmp_path / "max.key"),
                 "--email", "not an address"], 2, "is not one e-mail address")
    fails(game, ["replace-player", str(game), acting(game), "--key", str(tmp_path / "max.key"),
                 "--email", "cy@example.org, eve@evil.example"], 2, "is not one e-mail address")


def test_machine_faults_have_their_own_exit_code(game: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    fails(game, ["post", str(game), "--out", str(tmp_path / "no-such-folder" / "post.txt")], 74,
          "cannot write post.txt")
    orders = tmp_path / "block.txt"
    orders.write_text(block_for(game, first_move(game)))

    def too_big(*_: object) -> None:
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    monkeypatch.setattr(os, "replace", too_big)  # the game file's rename: the commit point
    fails(game, ["apply", str(game), str(orders)], 74, "File too large")


def test_bytes_that_are_not_utf8_on_standard_input_are_not_a_crash(game: Path) -> None:
    fails(game, ["apply", str(game), "-"], 3, "no order block found", stdin=b"\xff\xfe junk\n")


def test_sign_with_bytes_that_are_not_utf8_on_standard_input_is_not_a_crash(game: Path) -> None:
    fails(game, ["sign", "-", "--key", str(game.parent / "ada.key")], 2, "header",
          stdin=b"\xff\xfe junk\n")


def test_a_scenario_file_of_the_wrong_shape_is_bad_and_the_batch_goes_on(tmp_path: Path) -> None:
    """Wrong types and values (issue 20 §2) are BAD (exit 2), and the next file still runs."""
    good = sorted((Path(__file__).parents[1] / "scenarios" / "ops").glob("*.yaml"))[0]
    shapes = ["players: 0\n", "given: {players: 3, colour: red}\n", "given: {players: 3, "
              "patch: {7: 1}}\n", "given: 'a string'\n", "orders: {player: x}\n"]
    paths = []
    for number, shape in enumerate(shapes):
        paths.append(tmp_path / f"bad{number}.yaml")
        paths[-1].write_text(f"id: bad{number}\nruleset: pax\n{shape}")
    result = runner.invoke(app, ["scenario", *map(str, paths), str(good)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert result.output.count("BAD") == len(shapes), result.output
    assert "scenarios: 1 ok, 0 failed, 5 bad" in result.output, result.output  # it went on
