"""Checks that hold between decisions (issue 8, "Self-play invariants"); a failure is an engine
bug, never a player's fault."""

from __future__ import annotations

from engine.aor.catalog import Catalog
from engine.aor.deck import card_zones
from engine.aor.model import State, all_advances
from engine.core.errors import InvariantViolation


def problems(catalog: Catalog, state: State, *, in_battle: str | None = None) -> list[str]:
    """Everything wrong with the state; `in_battle` names a province allowed to be overfilled."""
    found = []
    start = catalog.numbers["start"]
    zones = card_zones(state)
    for card, where in zones.items():
        if len(where) != 1:
            found.append(f"card {card} is in {len(where)} zones: {where}")
    missing = sorted(set(catalog.cards) - set(zones))
    if missing:
        found.append(f"cards in no zone: {missing[:5]}")
    active = {p for p, d in state["players"].items() if not d["eliminated"]}
    if state["order"] and (sorted(state["order"]) != sorted(active)):
        found.append(f"order {state['order']} is not a permutation of {sorted(active)}")
    on_board, markers = _board_counts(state)
    for pid, data in sorted(state["players"].items()):
        total = data["stock"] + data["purchased"] + on_board.get(pid, 0)
        if total != start["tokens"] or min(data["stock"], data["purchased"]) < 0:
            found.append(f"{pid} has {total} tokens (stock {data['stock']}, bought {data['purchased']})")
        if int(start["markers"]) - markers.get(pid, 0) < 0:  # markers_in_stock, counted once
            found.append(f"{pid} has more than {start['markers']} markers on the board")
        if data["cash"] < 0:
            found.append(f"{pid} has {data['cash']} ducats")
        if data["misery"] not in catalog.misery_track:
            found.append(f"{pid}'s misery {data['misery']} is not a track space")
        owned = all_advances(state, pid)
        held = set(owned)  # once per player, not once per advance
        for advance in owned:
            if not held.issuperset(catalog.advances[advance].requires):
                found.append(f"{pid} owns {advance} without its prerequisites")
    for where, record in state["provinces"].items():
        data = catalog.provinces[where]
        # sum(presence(...).values()): every token, and the marker as its market size
        weight = sum(map(int, record["tokens"].values())) + sum(map(int, record["new"].values())) \
            + (data.market if record["marker"] else 0)
        if where != in_battle and weight > data.market:
            found.append(f"{where} holds {weight} for a market of {data.market}")
        if data.satellite and record["marker"]:
            found.append(f"satellite {where} holds a marker")
    for commodity, level in state["markets"].items():
        low, high = catalog.numbers["shortage_surplus"]["level_range"]
        if not low <= level <= high or level == 0:
            found.append(f"{commodity} at level {level}")
    return found


def _board_counts(state: State) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's tokens on the board (`tokens_on_board`) and markers on it
    (`markers_on_board`), in one pass over the provinces instead of one per player (this runs
    after every answer)."""
    tokens: dict[str, int] = {}
    markers: dict[str, int] = {}
    for data in state["provinces"].values():
        for pid, count in data["tokens"].items():
            tokens[pid] = tokens.get(pid, 0) + int(count)
        for pid, count in data["new"].items():
            tokens[pid] = tokens.get(pid, 0) + int(count)
        if data["marker"]:
            markers[data["marker"]] = markers.get(data["marker"], 0) + 1
    return tokens, markers


def check_invariants(catalog: Catalog, state: State, *, in_battle: str | None = None) -> None:
    found = problems(catalog, state, in_battle=in_battle)
    if found:
        raise InvariantViolation("; ".join(found))
