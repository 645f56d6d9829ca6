"""Checks that hold between decisions (issue 8, "Self-play invariants"); a failure is an engine
bug, never a player's fault."""

from __future__ import annotations

from engine.aor.board import markers_in_stock, presence, tokens_on_board
from engine.aor.catalog import Catalog
from engine.aor.deck import card_zones
from engine.aor.model import State, all_advances
from engine.core.errors import InvariantViolation


def problems(catalog: Catalog, state: State, *, in_battle: str | None = None) -> list[str]:
    """Everything wrong with the state; `in_battle` names a province allowed to be overfilled."""
    found = []
    start = catalog.numbers["start"]
    for card, where in card_zones(state).items():
        if len(where) != 1:
            found.append(f"card {card} is in {len(where)} zones: {where}")
    missing = sorted(set(catalog.cards) - set(card_zones(state)))
    if missing:
        found.append(f"cards in no zone: {missing[:5]}")
    active = {p for p, d in state["players"].items() if not d["eliminated"]}
    if state["order"] and (sorted(state["order"]) != sorted(active)):
        found.append(f"order {state['order']} is not a permutation of {sorted(active)}")
    for pid, data in sorted(state["players"].items()):
        total = data["stock"] + data["purchased"] + tokens_on_board(state, pid)
        if total != start["tokens"] or min(data["stock"], data["purchased"]) < 0:
            found.append(f"{pid} has {total} tokens (stock {data['stock']}, bought {data['purchased']})")
        if markers_in_stock(catalog, state, pid) < 0:
            found.append(f"{pid} has more than {start['markers']} markers on the board")
        if data["cash"] < 0:
            found.append(f"{pid} has {data['cash']} ducats")
        if data["misery"] not in catalog.misery_track:
            found.append(f"{pid}'s misery {data['misery']} is not a track space")
        owned = all_advances(state, pid)
        for advance in owned:
            if not set(catalog.advances[advance].requires) <= set(owned):
                found.append(f"{pid} owns {advance} without its prerequisites")
    for where, record in state["provinces"].items():
        data = catalog.provinces[where]
        weight = sum(presence(catalog, state, where).values())
        if where != in_battle and weight > data.market:
            found.append(f"{where} holds {weight} for a market of {data.market}")
        if data.satellite and record["marker"]:
            found.append(f"satellite {where} holds a marker")
    for commodity, level in state["markets"].items():
        low, high = catalog.numbers["shortage_surplus"]["level_range"]
        if not low <= level <= high or level == 0:
            found.append(f"{commodity} at level {level}")
    return found


def check_invariants(catalog: Catalog, state: State, *, in_battle: str | None = None) -> None:
    found = problems(catalog, state, in_battle=in_battle)
    if found:
        raise InvariantViolation("; ".join(found))
