"""Seeded random play-outs that take one-shots (issue 4): every one-shot kind fires, every
battle one-shot wins at least once, and the invariants hold after every decision.

The policy is the random play-out's, except that a player offered a one-shot (`oneshot`,
`oneshot in EMPIRE`, `marry EMPIRE`) takes one of them, so the rarer kinds come up in a few
dozen games.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.core.adjudicate import answer
from engine.core.chance import SeededChance
from engine.pax.ruleset import PAX
from pbem.rulesets import pax_catalog
from pbem.words import say
from tests.engine.playing import settle_options

EAGER = ("oneshot", "oneshot in", "marry")
MAX_SEEDS = 80
BATTLE_KINDS = ("conspiracy", "peasant_revolt", "crusade", "jihad", "reformation")


def eager_play_out(players: int, seed: int, fired: Counter[str], won: Counter[str]) -> None:
    chance = SeededChance(f"oneshots-{seed}".encode(), "oneshots", 0)
    seats = ["p1", "p2", "p3", "p4"][:players]
    table, _ = PAX.setup(pax_catalog(), "oneshots", seats, {}, chance)
    rng = random.Random(seed)
    _, options = settle_options(PAX, table, chance)
    fighting = ""
    decisions = 0
    while not table.state["over"]:
        assert options, "a pending decision always has at least one legal answer"
        eager = [o for o in options if o.verb in EAGER]
        events = answer(PAX, table, rng.choice(eager or options), chance)
        settled, options = settle_options(PAX, table, chance)
        events += settled
        PAX.check_invariants(table)
        for e in events:
            family, _, kind = e["kind"].partition(":")
            if family == "oneshot":
                fired[kind] += 1
                fighting = kind
            elif e["kind"] == "battle" and say(e).startswith("Battle in") \
                    and "(campaign)" in say(e):
                fighting = "campaign"
            elif e["kind"] == "battle_won":
                won[fighting] += 1
        decisions += 1
        assert decisions < 5000, "a game must end"


def test_every_one_shot_fires_and_every_battle_kind_wins() -> None:
    """Games run until every kind has fired and won (apostasy, which needs a tableau holding
    two religions' prestige, is the rarest), within a fixed budget of seeds."""
    kinds = {str(c.one_shot["type"]) for c in pax_catalog().cards.values() if c.one_shot}
    fired: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for seed in range(MAX_SEEDS):
        for players in (2, 3, 4):
            eager_play_out(players, seed, fired, won)
        if kinds <= set(fired) and all(won[kind] for kind in BATTLE_KINDS):
            break
    assert kinds <= set(fired), f"one-shots that never fired: {sorted(kinds - set(fired))}"
    assert all(won[kind] for kind in BATTLE_KINDS), f"battle wins by kind: {dict(won)}"
