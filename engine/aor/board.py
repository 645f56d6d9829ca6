"""The board's contents as plain data (4.3, 5.2, 9.5, 9.5.4): tokens, domination markers, control.

`state["provinces"]` holds only provinces with something in them: `marker` (a player or None),
`tokens` {player: n} (coloured, from earlier turns) and `new` {player: n} (placed this turn, white
side up, no base for further placements). A marker counts as its province's market size.
"""

from __future__ import annotations

from typing import Any

from engine.aor.catalog import Catalog
from engine.aor.model import State, player
from engine.core.errors import InvariantViolation


def province(state: State, pid: str) -> dict[str, Any]:
    """A province's contents; an empty record when nothing is there (not stored until used)."""
    data: dict[str, Any] | None = state["provinces"].get(pid)
    return {"marker": None, "tokens": {}, "new": {}} if data is None else data


def _store(state: State, pid: str, data: dict[str, Any]) -> None:
    data["tokens"] = {p: n for p, n in sorted(data["tokens"].items()) if n}
    data["new"] = {p: n for p, n in sorted(data["new"].items()) if n}
    if data["marker"] is None and not data["tokens"] and not data["new"]:
        state["provinces"].pop(pid, None)
    elif pid in state["provinces"]:  # its place in the sorted provinces is kept
        state["provinces"][pid] = data
    else:
        state["provinces"][pid] = data
        state["provinces"] = dict(sorted(state["provinces"].items()))


# The reads below run in every option list (reach, attacks, placements): they look the
# province up directly rather than build an empty record for an empty province.


def tokens_in(state: State, where: str, pid: str, *, new: bool | None = None) -> int:
    """A player's tokens in a province: coloured (new=False), white (True) or both (None)."""
    data = state["provinces"].get(where)
    if data is None:
        return 0
    old = int(data["tokens"].get(pid, 0)) if new is not True else 0
    fresh = int(data["new"].get(pid, 0)) if new is not False else 0
    return old + fresh


def marker_of(state: State, where: str) -> str | None:
    data = state["provinces"].get(where)
    owner: str | None = None if data is None else data["marker"]
    return owner


def presence(catalog: Catalog, state: State, where: str) -> dict[str, int]:
    """Each player's weight in a province: tokens, and a marker as its market size (9.5.2)."""
    data = state["provinces"].get(where)
    if data is None:
        return {}
    tokens, new, marker = data["tokens"], data["new"], data["marker"]
    if not new and not marker:  # the common case: coloured tokens alone (often one player's)
        return {pid: int(n) for pid, n in (sorted(tokens.items()) if len(tokens) > 1
                                           else tokens.items())}
    weight = {pid: int(tokens.get(pid, 0)) + int(new.get(pid, 0)) for pid in tokens.keys() | new.keys()}
    if marker:
        weight[marker] = weight.get(marker, 0) + catalog.provinces[where].market
    return dict(sorted(weight.items()))


def controller(catalog: Catalog, state: State, where: str) -> str | None:
    """Who controls a province: a marker, or tokens equal to its market size (9.5, I)."""
    data = state["provinces"].get(where)
    if data is None:
        return None
    owner: str | None = data["marker"]
    if owner:
        return owner
    market = catalog.provinces[where].market  # no marker: each player's tokens, as `presence`
    tokens, new = data["tokens"], data["new"]
    full = [p for p in (tokens.keys() | new.keys() if new else tokens)
            if int(tokens.get(p, 0)) + int(new.get(p, 0)) >= market]
    return min(full) if full else None  # the first by id, as in `presence`'s order


def markers_on_board(state: State, pid: str) -> list[str]:
    return [where for where, data in state["provinces"].items() if data["marker"] == pid]


def markers_in_stock(catalog: Catalog, state: State, pid: str) -> int:
    return int(catalog.numbers["start"]["markers"]) - len(markers_on_board(state, pid))


def tokens_on_board(state: State, pid: str) -> int:
    return sum(tokens_in(state, where, pid) for where in state["provinces"])


def bases(state: State, pid: str) -> list[str]:
    """Provinces a player expands from (9.5): their coloured tokens, markers and capital."""
    found = [w for w, d in state["provinces"].items() if d["marker"] == pid or d["tokens"].get(pid)]
    capital = player(state, pid)["capital"]
    if capital and capital not in found:
        found.append(capital)
    return sorted(found)


def place_tokens(state: State, pid: str, where: str, count: int) -> None:
    """Purchased tokens onto the board, white side up (9.5)."""
    data = player(state, pid)
    if count <= 0 or count > data["purchased"]:
        raise InvariantViolation(f"{pid} cannot place {count} of {data['purchased']} tokens")
    data["purchased"] -= count
    record = province(state, where)
    record["new"][pid] = record["new"].get(pid, 0) + count
    _store(state, where, record)


def remove_tokens(state: State, pid: str, where: str, count: int | None = None) -> int:
    """Tokens back to stock, white ones first; all of them when `count` is None."""
    record, removed = province(state, where), 0
    for zone in ("new", "tokens"):
        take = record[zone].get(pid, 0) if count is None else min(record[zone].get(pid, 0),
                                                                     count - removed)
        record[zone][pid] = record[zone].get(pid, 0) - take
        removed += take
    player(state, pid)["stock"] += removed
    _store(state, where, record)
    return removed


def add_token_from_stock(state: State, pid: str, where: str, *, new: bool = False) -> bool:
    """One token from the stock (else from this turn's purchase) onto a province (9.3.2)."""
    data = player(state, pid)
    if data["stock"]:
        data["stock"] -= 1
    elif data["purchased"]:
        data["purchased"] -= 1
    else:
        return False
    record = province(state, where)
    zone = "new" if new else "tokens"
    record[zone][pid] = record[zone].get(pid, 0) + 1
    _store(state, where, record)
    return True


def put_marker(catalog: Catalog, state: State, pid: str, where: str) -> None:
    if markers_in_stock(catalog, state, pid) <= 0:
        raise InvariantViolation(f"{pid} has no domination marker left")
    if catalog.provinces[where].satellite or marker_of(state, where):
        raise InvariantViolation(f"no room for a marker in {where}")
    record = province(state, where)
    record["marker"] = pid
    _store(state, where, record)


def remove_marker(state: State, where: str) -> str | None:
    record = province(state, where)
    owner: str | None = record["marker"]
    record["marker"] = None
    _store(state, where, record)
    return owner


def reduce_marker(state: State, where: str) -> bool:
    """A domination marker becomes one expansion token (Civil War, Rebellion, Pirates, Black
    Death); the province stays empty if its owner has no token left (9.3.2). Returns whether a
    token was placed."""
    owner = remove_marker(state, where)
    return owner is not None and add_token_from_stock(state, owner, where)


def convert_marker(state: State, pid: str, where: str) -> None:
    """9.5.2: with every marker on the board, a marker may be swapped for one token."""
    if remove_marker(state, where) != pid:
        raise InvariantViolation(f"{pid} has no marker in {where}")
    add_token_from_stock(state, pid, where)


def holdings(catalog: Catalog, state: State, pid: str, commodity: str) -> int:
    """Commodity control cards held: provinces of the commodity under the player's marker."""
    return sum(1 for where in markers_on_board(state, pid)
               if commodity in catalog.provinces[where].commodities)


def overseas_held(catalog: Catalog, state: State, pid: str) -> list[str]:
    """Overseas provinces where the player has a marker or tokens (9.4.1 ocean slots)."""
    return [w for w in state["provinces"] if catalog.regions[catalog.provinces[w].region].overseas
            and (marker_of(state, w) == pid or tokens_in(state, w, pid))]


def consolidate(catalog: Catalog, state: State) -> None:
    """9.5.4: tokens turn to their coloured side; a market filled by one player's tokens becomes
    that player's domination marker (while markers last)."""
    for where in list(state["provinces"]):
        record = province(state, where)
        if record["new"]:  # a stored record is kept tidy by _store: without white tokens, as it is
            for pid, count in record["new"].items():
                record["tokens"][pid] = record["tokens"].get(pid, 0) + count
            record["new"] = {}
            _store(state, where, record)
        market = catalog.provinces[where]
        if market.satellite or record["marker"] is not None:
            continue
        for pid, count in sorted(record["tokens"].items()):
            if record["marker"] is None and count >= market.market \
                    and markers_in_stock(catalog, state, pid) > 0:
                remove_tokens(state, pid, where)
                put_marker(catalog, state, pid, where)

