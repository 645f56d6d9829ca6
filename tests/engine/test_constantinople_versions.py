"""Games begun under ruleset version 1 keep R-006's first reading of Constantinople (one name
in orders, the lowest-numbered slot), so their logs replay unchanged; new games play version 2
(three cities named apart). The fixtures in tests/fixtures/ruleset1 were made by main before
this change (make_ruleset1.py.txt there); each log holds Constantinople lines that version 2
would read differently."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from engine.core.adjudicate import adjudicate
from engine.core.chance import SeededChance
from engine.core.errors import AmbiguousOrder
from engine.pax.model import RULESET_VERSION
from pbem.orders.signatures import public_key_line
from pbem.play.scenarios.pax import build_table
from pbem.rulesets import ruleset_for
from tests import fast_yaml
from tests.legacy_games import key_of, run, take_next_block

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ruleset1"
# fixture -> a logged line version 2 would refuse as naming several of Constantinople's cities
GAMES = {"pax-agent-represses": "rook constantinople",
         "pax-lose-knight": "lose islamic knight constantinople"}


def logged_lines(data: dict[str, Any]) -> list[str]:
    """The order lines of every block in the log (between the header and the signature)."""
    return [line.strip() for entry in data["log"] if entry.get("block")
            for line in entry["block"].split("\n\n", 1)[1].splitlines()]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_version1_game_verifies_and_takes_the_next_block(tmp_path: Path, name: str) -> None:
    game = tmp_path / f"{name}.yaml"
    shutil.copy(FIXTURES / f"{name}.yaml", game)
    data = fast_yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["game"]["ruleset_version"] == 1 and "ruleset_version" not in data["state"]
    assert GAMES[name] in logged_lines(data)
    code, out, err = run("verify", str(game))
    assert code == 0, err
    after = take_next_block(game, tmp_path)
    assert "ruleset_version" not in after["state"]  # the game stays on version 1


def test_a_new_game_plays_version_2_and_verifies(tmp_path: Path) -> None:
    keys = []
    for name in ("ada", "ben", "cy"):
        public = tmp_path / f"{name}.pub"
        raw = key_of(name).public_key().public_bytes_raw()
        public.write_text(public_key_line(raw, name, f"{name}@example.org"), encoding="utf-8")
        keys += ["--player", str(public)]
    game = tmp_path / "new.yaml"
    code, out, err = run("new", str(game), *keys, "--open", "--seed", "v2")
    assert code == 0, err
    data = fast_yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["game"]["ruleset_version"] == RULESET_VERSION == ruleset_for("pax").version
    assert data["state"]["ruleset_version"] == RULESET_VERSION
    code, out, err = run("verify", str(game))
    assert code == 0, err


@pytest.mark.parametrize(("version", "repressed_from"), [(1, "constantinople_1"), (2, None)])
def test_the_same_line_reads_by_the_games_version(version: int, repressed_from: str | None
                                                  ) -> None:
    """'rook constantinople' into a full Constantinople: version 1 represses slot 1's token;
    version 2 refuses it as naming three cities."""
    given = {"players": 3, "seed": "turn-1", "turn": "fugger",
             "move": [{"card": "PREN088", "to": "players.fugger.hand"}],
             "patch": {"ruleset_version": version}}
    table, _, _ = build_table(given)
    lines = list(enumerate(['play "cem anti"', "no oneshot", "rook constantinople"], 1))
    chance = SeededChance(b"v", "scenario", 0)
    if repressed_from is None:
        with pytest.raises(AmbiguousOrder) as caught:
            adjudicate(ruleset_for("pax"), table, "fugger", lines, chance)
        assert caught.value.options == ["rook constantinople 1", "rook constantinople 2",
                                        "rook constantinople 3"]
        return
    after = adjudicate(ruleset_for("pax"), table, "fugger", lines, chance)
    assert after.table.state["empires"]["ottoman"]["repressed"] == ["rook:islamic"]
