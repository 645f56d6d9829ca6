"""Seeded random play-outs (issue 2): whole games for each of 2, 3 and 4 players through
the engine, answers taken only from the option lists: 10 games each in `make test`, 50 in
`make test-long` (tests/scale.py; the same checks on every game). After every decision the
invariants are checked and the state must survive a JSON round trip; every 10th decision and
at the end, a byte-identical YAML round trip. (tests/pbem/test_selfplay.py plays games through
the whole pipeline, signed blocks and `verify` included.)"""

from __future__ import annotations

import json
import random

import pytest

from engine.core.adjudicate import answer
from engine.core.chance import SeededChance
from engine.pax.catalog import SQUARES
from engine.pax.ruleset import PAX
from pbem.rulesets import pax_catalog
from tests.engine.playing import settle_options, yaml_round_trip
from tests.scale import count

GAMES = count(10, 50)


def play_out(players: int, seed: int) -> tuple[int, dict[str, object]]:
    chance = SeededChance(f"playout-{seed}".encode(), "playout", 0)
    seats = ["p1", "p2", "p3", "p4"][:players]
    table, _ = PAX.setup(pax_catalog(), "playout", seats, {}, chance)
    rng = random.Random(seed)
    decisions = 0
    _, options = settle_options(PAX, table, chance)
    while not table.state["over"]:
        assert options, "a pending decision always has at least one legal answer"
        answer(PAX, table, rng.choice(options), chance)
        _, options = settle_options(PAX, table, chance)
        PAX.check_invariants(table)
        assert json.loads(json.dumps(table.state)) == table.state
        decisions += 1
        if decisions % 10 == 0:
            yaml_round_trip(table.state, table.agenda)
        assert decisions < 5000, "a game must end"
    yaml_round_trip(table.state, table.agenda)
    return decisions, table.state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_an_end(players: int) -> None:
    endings = set()
    for seed in range(GAMES):
        decisions, state = play_out(players, seed)
        assert state["over"] is True and state["winners"]
        result = state["result"]
        assert isinstance(result, dict)
        assert result["kind"] in ("patron", "last bank standing", *SQUARES, "byzantine")
        endings.add(result["kind"])
        assert decisions > 10
    assert "patron" in endings


def test_same_seed_same_game() -> None:
    assert play_out(3, 7) == play_out(3, 7)
