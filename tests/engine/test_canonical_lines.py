"""Every option's canonical line names that option (orders.md: the lines `pbem options` and the
reports list are the lines a player sends).

`match_line` takes a line that is exactly one option's canonical line without scoring it; this
checks that the scoring, asked the same line, agrees, at every step of seeded random games of
both rulesets, for every player owed an answer and every option they have.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.aor.ruleset import AOR
from engine.core.adjudicate import answer, options_now
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.choice import Choice, fold, match_line, scored_match
from engine.core.ruleset import Ruleset
from engine.core.table import Table
from engine.pax.ruleset import PAX
from pbem.rulesets import pax_catalog
from tests.aor.helpers import aor
from tests.engine.playing import settle_options


def _check_every_line(ruleset: Ruleset, t: Table, counts: Counter[str]) -> None:
    namer = ruleset.namer(t)
    for who in waiting_for(t.agenda):
        options = options_now(ruleset, t, who)
        folded = Counter(fold(option.line) for option in options)
        for option in options:
            if folded[fold(option.line)] > 1:  # two options, one line: the scoring decides
                counts["shared lines"] += 1
                continue
            scored = scored_match(fold(option.line), options, namer, ruleset.verbs)
            assert scored == option, (option.line, scored.line)
            assert match_line(option.line, options, namer, ruleset.verbs) == option
            counts[option.verb or "no verb"] += 1


def _play(ruleset: Ruleset, table: Table, chance: SeededChance, seed: int, steps: int,
          counts: Counter[str]) -> None:
    rng = random.Random(seed)
    _, options = settle_options(ruleset, table, chance)
    for _ in range(steps):
        if table.state["over"] or not options:
            return
        _check_every_line(ruleset, table, counts)
        pick: Choice = rng.choice(options)
        answer(ruleset, table, pick, chance)
        _, options = settle_options(ruleset, table, chance)


def test_pax_canonical_lines_name_their_options() -> None:
    counts: Counter[str] = Counter()
    for game, options in enumerate(({}, {"map": "age_of_reformation"}, {})):
        chance = SeededChance(f"canonical-{game}".encode(), "canonical", 0)
        seats = ["p1", "p2", "p3", "p4"][:2 + game]
        table, _ = PAX.setup(pax_catalog(), "canonical", seats, dict(options), chance)
        _play(PAX, table, chance, game, 250, counts)
    # the turn's verbs were all met, so the agreement was checked where lines share a verb
    assert {"buy", "sell", "play", "ops", "end"} <= set(counts), counts


def test_aor_canonical_lines_name_their_options() -> None:
    counts: Counter[str] = Counter()
    for game, players in enumerate((4,)):
        chance = SeededChance(f"canonical-aor-{game}".encode(), "canonical", 0)
        names = ["ann", "bea", "cid", "dov", "eve", "fay"][:players]
        table, _ = AOR.setup(aor(), "canonical", names, {}, chance)
        _play(AOR, table, chance, game, 300, counts)
    assert {"bid", "play", "place", "attack"} <= set(counts) and sum(counts.values()) > 1000, counts
