"""The Pax invariants name every card out of place and every token over its supply (issue 17:
the supplies are read from one dict per catalog, and the missing cards are looked for only when
the zones do not hold exactly the expected cards)."""

from __future__ import annotations

import pytest

from engine.core.chance import SeededChance
from engine.core.errors import InvariantViolation
from engine.core.table import Table
from engine.pax.invariants import check_invariants
from engine.pax.model import supply_of, tokens_in_play
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import seeds


def _table() -> Table:
    ruleset = ruleset_for("pax")
    chance = SeededChance(seeds.make_seed("invariants"), "invariants", 0)
    seats = ruleset.seat_ids(["a", "b", "c", "d"])
    table, _ = ruleset.setup(catalog_for("pax"), "invariants", seats, {}, chance)
    return table


def _problem(table: Table) -> str:
    with pytest.raises(InvariantViolation) as caught:
        check_invariants(table)
    return str(caught.value)


def test_a_set_up_table_holds() -> None:
    check_invariants(_table())


def test_a_token_over_its_supply_is_named_with_the_supply() -> None:
    table = _table()
    supply = supply_of(table.catalog, "knight:catholic")
    used = tokens_in_play(table.state)["knight:catholic"]
    table.state["empires"]["aragon"]["repressed"] += ["knight:catholic"] * (supply - used + 1)
    assert _problem(table) == f"{supply + 1} knight:catholic in play, supply is {supply}"


def test_a_token_the_catalog_does_not_supply_has_a_supply_of_none() -> None:
    table = _table()
    table.state["empires"]["aragon"]["repressed"].append("dragon:green")
    assert _problem(table) == "1 dragon:green in play, supply is 0"


def test_a_card_in_no_zone_and_a_card_in_two_are_named() -> None:
    table = _table()
    lost = table.state["box"].pop()
    assert _problem(table) == f"cards in no zone: ['{lost}']"
    table.state["box"].append(lost)
    table.state["discard"].append(lost)
    assert _problem(table) == f"card {lost} is in 2 zones"
