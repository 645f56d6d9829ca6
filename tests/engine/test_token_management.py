"""TOKEN MANAGEMENT (R-007): a missing token is never taken from the spot it is placed into."""

from __future__ import annotations

from typing import Any

from engine.core.table import Table
from engine.pax.model import available, free_token, supply_of
from pbem.play.scenarios.pax import build_table


def table(**given: Any) -> Table:
    data: dict[str, Any] = {"players": 3, "seed": "turn-1", "turn": "fugger", **given}
    built, _, _ = build_table(data)
    return built


def _fill_borders(t: Table, tok: str) -> list[str]:
    """Every free border gets `tok` until none is left in the pool; the borders used."""
    used = []
    for border_id in sorted(t.catalog.borders):
        if available(t, tok) == 0:
            break
        if border_id not in t.state["borders"]:
            t.state["borders"][border_id] = {"concession": tok}
            used.append(border_id)
    return used


def test_a_pawn_for_a_border_is_not_taken_from_that_border() -> None:
    t = table()
    tok = "pawn:fugger"
    used = _fill_borders(t, tok)
    assert available(t, tok) == 0
    target = sorted(b for b, c in t.state["borders"].items() if c.get("concession") == tok)[0]
    events = free_token(t, tok, into=target)
    assert t.state["borders"][target] == {"concession": tok}
    assert available(t, tok) == 1
    assert events and events[0]["msg"] == "pax.token.taken.border"
    assert len(used) + 1 <= supply_of(t.catalog, tok)


def test_without_a_target_the_first_spot_in_order_gives_it_up() -> None:
    t = table()
    tok = "pawn:fugger"
    _fill_borders(t, tok)
    first = sorted(b for b, c in t.state["borders"].items() if c.get("concession") == tok)[0]
    free_token(t, tok)
    assert first not in t.state["borders"]


def test_a_repressed_token_is_not_taken_from_the_empire_it_is_repressed_into() -> None:
    t = table(patch={"empires.france.repressed": ["knight:islamic"],
                     "empires.england.repressed": ["knight:islamic"],
                     "cities.modon": "knight:islamic", "cities.rhodes": "knight:islamic",
                     })
    tok = "knight:islamic"
    assert available(t, tok) == 0
    free_token(t, tok, into="england")
    assert t.state["empires"]["england"]["repressed"] == [tok]
    assert t.state["empires"]["france"]["repressed"] == []


def test_the_target_gives_it_up_only_when_no_other_exists() -> None:
    t = table()
    tok = "bishop:islamic"
    supply = supply_of(t.catalog, tok)
    cards = sorted(t.catalog.cards)[:supply]
    for card_id in cards:
        t.state["bishops"][card_id] = "islamic"
    assert available(t, tok) == 0
    free_token(t, tok, into=cards[0])
    assert cards[0] in t.state["bishops"] and cards[1] not in t.state["bishops"]
