"""The game file's reader with and without its fast path (pbem.store.plain_yaml) on every
fixture and on damaged copies of them (bytes flipped, text cut short, tabs, anchors, tags,
comments and indentation put in; 50 copies of each fixture, 100 under `make test-long`,
tests/scale.py): the same data, or the same one-line error with the same exit code. The fast
path may only ever step aside; it never answers differently."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.errors import PbemError
from pbem.store import gamefile, plain_yaml
from tests import scale
from tests.pbem.test_plain_yaml import same

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PATHS = sorted(FIXTURES.rglob("*.yaml"))
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# What damage puts in: YAML's indicators, a tab, line breaks YAML knows and Python splits on,
# a BOM, a non-breaking space, quotes and escapes.
NOISE = ["\t", "&a ", "*a", "!!str ", "!x ", "# c", " #", ":", ": ", "- ", "? ", "|", "|-", "|+",
         "|2", ">", "'", "''", '"', "\\", "\\x4", "\\u00e9", "{", "}", "[", "]", ",", "%", "@",
         "`", "\n", "\n\n", "\r", "\x85", "\u2028", "\ufeff", "\xa0", "\u3000", "0x1", "1.5",
         "2026-12-07", "~", "yes", "<<", "=", "---", "...", " ", "  ", "é"]


def small(text: str) -> str:
    """The head and the first log entries: a fixture's layout at a size PyYAML reads quickly."""
    at = text.find("\nlog:\n")
    if at < 0:
        return text
    entries = text[at + 6:].split("\n- ")
    return text[:at + 6] + "\n- ".join(entries[:3]).rstrip("\n") + "\n"


def damaged(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        line = text.rfind("\n", 0, at) + 1
        change = rng.choice(["flip", "flip", "cut", "insert", "insert", "line", "indent"])
        if change == "flip":
            text = text[:at] + rng.choice(NOISE)[:1] + text[at + 1:]
        elif change == "cut":
            text = text[:at] + rng.choice(["", "\n"])
        elif change == "insert":
            text = text[:at] + rng.choice(NOISE) + text[at:]
        elif change == "line":
            text = text[:line] + rng.choice(NOISE) + text[line:]
        else:
            text = text[:line] + rng.choice([" ", "  ", "- "]) + text[line:]
    return text


def outcome(text: str, monkeypatch: pytest.MonkeyPatch, *, fast: bool) -> tuple[Any, ...]:
    """What loading `text` as a game file gives: its data, or its error and exit code."""
    gamefile._PARSED.clear()
    with monkeypatch.context() as patch:
        if not fast:
            def refuse(text: str) -> Any:
                raise plain_yaml.NotPlain

            patch.setattr(plain_yaml, "load", refuse)
        try:
            data = gamefile._safe_load(text, None)
        except PbemError as error:
            return ("error", str(error), error.exit_code)
        try:
            return ("game", gamefile.GameFile.from_data(data).to_data())
        except PbemError as error:
            return ("error", str(error), error.exit_code)


def assert_same_reading(text: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The two paths agree; True when the fast path answered."""
    fast, slow = outcome(text, monkeypatch, fast=True), outcome(text, monkeypatch, fast=False)
    assert same(fast, slow), text
    try:
        data = plain_yaml.load(text)
    except plain_yaml.NotPlain:
        return False
    assert same(data, yaml.load(text, Loader=LOADER)), text  # noqa: S506 - a safe loader
    return True


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.name)
def test_every_fixture_reads_the_same_and_takes_the_fast_path(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    assert assert_same_reading(text, monkeypatch)


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.name)
def test_damaged_fixtures_read_the_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = small(path.read_text(encoding="utf-8"))
    rng = random.Random(path.name)
    copies = scale.count(50, 100)  # 100 under make test-long (tests/scale.py)
    answered = sum(assert_same_reading(damaged(text, rng), monkeypatch) for _ in range(copies))
    assert answered > copies // 10  # the damage left many texts in the fast path's reach


@pytest.mark.parametrize("text", [
    "'" + "k" * 1100 + "': 1\n",  # PyYAML refuses a key over 1024 characters
    "- '" + "k" * 1100 + "': 1\n",
    '"' + "k" * 1100 + '": 1\n',
    "".join(" " * (2 * level) + f"k{level}:\n" for level in range(600)) + " " * 1200 + "v: 1\n",
    "- " * 700 + "x\n",
    "null: 1\n", "1: one\n", "true: yes\n", "a:\n  yes: 1\n",  # keys that are not strings
])
def test_what_pyyaml_reads_otherwise_is_left_to_it(text: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert_same_reading(text, monkeypatch)
    if len(text) > 1000:
        with pytest.raises(plain_yaml.NotPlain):
            plain_yaml.load(text)


def test_a_game_nested_deeper_than_python_recurses_is_an_error_not_a_crash(
        tmp_path: Path) -> None:
    from tests.pbem.test_gamefile import sample_game

    text = gamefile.dump_text(sample_game(5))
    nest = "".join(" " * (2 * level + 4) + f"k{level}:\n" for level in range(600))
    path = tmp_path / "g.yaml"
    path.write_text(text.replace("randomness:\n", "randomness:\n  deep:\n" + nest, 1))
    with pytest.raises(PbemError, match="^game file: the log's last entry does not match"):
        gamefile.load_head(path)
