"""The short "is there one" checks of the option lists agree with the full lists (issue 17).

`ops east`/`ops west` is offered when a card has an op with a target: the check stops at the
first target of the lazily built list, and must say yes exactly when the full list has a line.
`apostasy A B` is offered when some tableau would be condemned: the check reads the faiths each
tableau is exposed to, and must say yes exactly when `condemned` names a card. Checked at every
step of seeded random games, in every tableau and for every pair of religions.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.table import Table
from engine.pax.actions.oneshots.apostasy import condemned, exposed_faiths
from engine.pax.actions.ops.node import (
    REGIONS,
    can_run,
    card_can_act,
    card_choices,
    ops_options,
    side_choices,
)
from engine.pax.catalog import RELIGIONS
from engine.pax.model import banks, side_cards
from tests.engine.playing import random_pax_positions


def _check_ops(t: Table, counts: dict[str, int]) -> None:
    for bank in banks(t):
        for side in REGIONS:
            full = side_choices(t, bank, side, [])
            assert can_run(t, bank, side) == bool(full), (bank, side)
            counts["ops sides runnable" if full else "ops sides idle"] += 1
            for card_id in side_cards(t, bank, side):
                assert card_can_act(t, bank, card_id) == bool(card_choices(t, bank, card_id))
        sides = [c.args[0] for c in ops_options(t, bank) if c.args[0] in REGIONS]
        assert sides == [s for s in REGIONS if side_choices(t, bank, s, [])]


def _check_apostasy(t: Table, counts: dict[str, int]) -> None:
    for bank in banks(t):
        exposed = exposed_faiths(t, bank)
        for first, second in combinations(RELIGIONS, 2):
            named = condemned(t, bank, (first, second))
            assert bool(named) == ({first, second} <= exposed), (bank, first, second)
            counts["apostasy condemns" if named else "apostasy spares"] += 1


def test_short_checks_agree_with_the_full_lists() -> None:
    counts = {"ops sides runnable": 0, "ops sides idle": 0,
              "apostasy condemns": 0, "apostasy spares": 0}
    for table in random_pax_positions("lazy-checks", 4, 400):
        _check_ops(table, counts)
        _check_apostasy(table, counts)
    # both answers of each check were met, so the agreement was tested both ways
    assert all(counts.values()), counts
