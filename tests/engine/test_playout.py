"""Seeded random play-outs (issue 2): whole games through the engine, answers taken only from
the option lists, invariants and a YAML round trip after every step."""

from __future__ import annotations

import random

import pytest

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.chance import SeededChance
from engine.pax.catalog import SQUARES
from engine.pax.ruleset import PAX
from pbem.resources import pax_catalog


def play_out(players: int, seed: int) -> tuple[int, dict[str, object]]:
    chance = SeededChance(f"playout-{seed}".encode(), "playout", 0)
    seats = ["p1", "p2", "p3", "p4"][:players]
    table, _ = PAX.setup(pax_catalog(), "playout", seats, {}, chance)
    rng = random.Random(seed)
    decisions = 0
    run_automatic(PAX, table, chance)
    while not table.state["over"]:
        options = options_now(PAX, table)
        assert options, "a pending decision always has at least one legal answer"
        answer(PAX, table, rng.choice(options), chance)
        run_automatic(PAX, table, chance)
        PAX.check_invariants(table)
        decisions += 1
        assert decisions < 5000, "a game must end"
    return decisions, table.state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_an_end(players: int) -> None:
    for seed in range(20):
        decisions, state = play_out(players, seed)
        assert state["over"] is True
        assert state["result"]["kind"] in ("patron", "last bank standing", *SQUARES)
        assert state["winners"], "somebody wins"
        assert decisions > 10


def test_same_seed_same_game() -> None:
    assert play_out(3, 7) == play_out(3, 7)
