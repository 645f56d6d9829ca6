"""Rulings R-621 and R-622 beyond their scenarios: facts of the card data and the 1550 deal
that must hold for every seed."""

from __future__ import annotations

import pytest

from engine.core.chance import SeededChance
from engine.pax.ruleset import PAX
from pbem.rulesets import pax_catalog


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r622_the_1550_map_deals_coeur_only_as_the_fourth_bank(players: int) -> None:
    seen: set[str] = set()
    for index in range(12):
        seats = [f"p{i}" for i in range(players)]
        table, _ = PAX.setup(pax_catalog(), f"r622-{index}", seats, {"map": "1550"},
                             SeededChance(b"r622", f"g{index}", 0))
        seen |= set(table.state["seats"])
    expected = {"fugger", "marchionni", "medici"} | ({"coeur"} if players == 4 else set())
    assert seen == expected if players > 2 else seen <= expected


def test_r621_no_queen_prints_patron_prestige() -> None:
    """Old Maids never count for Bank of St. George (I2); no queen could make it matter."""
    catalog = pax_catalog()
    queens = [c for c in catalog.cards.values() if c.one_shot and c.one_shot.get("type") == "coronation"]
    assert queens and all("patron" not in q.prestige for q in queens)
