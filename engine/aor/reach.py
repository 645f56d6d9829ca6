"""Where a player can place expansion tokens (9.5, 9.4.1, I, A, S, T, U; rulings R24-R29, R43,
R48).

Tokens go into provinces within reach of the player's bases: their coloured tokens, markers and
capital (tokens placed this turn are no base). Reach is the base itself, its land neighbours,
Caravan's second land step, and shipping: galleys along one coast of each province for as many
steps as their capacity (The Heavens lets one sea count as a step), seaworthy vessels to any
coastal province, ocean-going ships to the overseas boxes as far as their level allows.

Ships pass along any coast, whoever holds it and whatever its region (R29, R48); only where
they land is limited.

`reach` maps each reachable province to the most tokens that may arrive there this turn by ship
(`None` when land or ocean-going ships bring any number).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from engine.aor.board import bases, controller, overseas_held
from engine.aor.catalog import Catalog
from engine.aor.memo import kept
from engine.aor.model import State, owns, player

THE_HEAVENS, CARAVAN = "the_heavens", "caravan"
GALLEY, SEAWORTHY, OCEAN = "galley", "seaworthy", "ocean"
Place = tuple[str, int, bool]  # (province or sea, coast index or -1 at sea, sea already crossed)


def in_play(catalog: Catalog, state: State, where: str) -> bool:
    """8.2, R29: only provinces of the regions in play can hold tokens."""
    return catalog.provinces[where].region in catalog.by_players[state["players_at_start"]].regions


def can_enter(catalog: Catalog, state: State, pid: str, where: str) -> bool:
    """A province in play whose region the player may enter (V needs Overland East, the Orient
    Ocean Navigation, the New World also New World), by any route (R)."""
    region = catalog.regions[catalog.provinces[where].region]
    return in_play(catalog, state, where) and all(owns(state, pid, a) for a in region.entry_requires)


def enterable(catalog: Catalog, state: State, pid: str) -> set[str]:
    """The regions holding the provinces `can_enter` allows the player: looked up once per
    reach rather than once per province."""
    data = player(state, pid)
    owned = {*data["advances"], *data["new_advances"]}  # as `owns`, read once
    return {r for r in catalog.by_players[state["players_at_start"]].regions
            if r in catalog.regions and owned.issuperset(catalog.regions[r].entry_requires)}


def fleet(catalog: Catalog, state: State, pid: str) -> tuple[str, int]:
    """The fleet's stage and capacity: ("none", 0), ("galley", 2..8), ("seaworthy", 10..16) or
    ("ocean", 1..4 overseas provinces)."""
    data = player(state, pid)["fleet"]
    for stage in catalog.fleet:
        if stage.id == data["stage"]:
            return stage.id, stage.capacities[data["box"] - 1]
    return data["stage"], 0


# --- by land ------------------------------------------------------------------------------------


def land_reach(catalog: Catalog, state: State, pid: str) -> set[str]:
    """The player's bases and their land neighbours (9.5)."""
    return _land_reach(catalog, bases(state, pid), enterable(catalog, state, pid))


def _land_reach(catalog: Catalog, starts: list[str], regions: set[str]) -> set[str]:
    found: set[str] = set()
    for base in starts:
        found |= {base, *catalog.provinces[base].land}
    return {w for w in found if catalog.provinces[w].region in regions}


def caravan_reach(catalog: Catalog, state: State, pid: str) -> set[str]:
    """I: two land steps; the province passed through must not be controlled by an opponent
    (opposing tokens below its market size are no bar) and must itself be enterable (R43)."""
    if not owns(state, pid, CARAVAN):
        return set()
    return _caravan_reach(catalog, state, pid, bases(state, pid), enterable(catalog, state, pid))


def _caravan_reach(catalog: Catalog, state: State, pid: str, starts: list[str],
                   regions: set[str]) -> set[str]:
    board = state["provinces"]
    found: set[str] = set()
    for middle, beyond in _middles(catalog, starts, regions):
        data = board.get(middle)  # `controller`: an empty province has none, a marker decides
        if data is None or (data["marker"] == pid if data["marker"]
                            else controller(catalog, state, middle) in (None, pid)):
            found |= beyond
    return found


# The map's part of Caravan's reach, kept by bases and regions: each enterable province next to
# a base (once, though it is often next to several), with the enterable provinces next to it.
_MIDDLES: dict[Hashable, tuple[Catalog, tuple[tuple[str, frozenset[str]], ...]]] = {}


def _middles(catalog: Catalog, starts: list[str], regions: set[str]
             ) -> tuple[tuple[str, frozenset[str]], ...]:
    def build() -> tuple[tuple[str, frozenset[str]], ...]:
        provinces = catalog.provinces
        middles = sorted({m for base in starts for m in provinces[base].land
                          if provinces[m].region in regions})
        return tuple((m, frozenset(w for w in provinces[m].land if provinces[w].region in regions))
                     for m in middles)
    return kept(_MIDDLES, (id(catalog), tuple(starts), frozenset(regions)), catalog, build, 4096)


# --- by sea -------------------------------------------------------------------------------------


_SHORES: dict[Hashable, tuple[Catalog, dict[str, tuple[tuple[str, int], ...]]]] = {}


def _sea_shores(catalog: Catalog) -> dict[str, tuple[tuple[str, int], ...]]:
    """For each sea zone, the (province, coast index) pairs that touch it (kept per catalog)."""
    def build() -> dict[str, tuple[tuple[str, int], ...]]:
        shores: dict[str, list[tuple[str, int]]] = {sea: [] for sea in catalog.seas}
        for where, data in sorted(catalog.provinces.items()):
            for index, coast in enumerate(data.coasts):
                for sea in coast.seas:
                    shores[sea].append((where, index))
        return {sea: tuple(pairs) for sea, pairs in shores.items()}
    return kept(_SHORES, id(catalog), catalog, build)


_LANDINGS: dict[Hashable, tuple[Catalog, dict[tuple[str, str], tuple[int, ...]]]] = {}


def _landings(catalog: Catalog, place: str, target: str) -> tuple[int, ...]:
    """The coasts of `target` (by index) a ship coming from `place` (a province or a sea)
    arrives on; kept per catalog as they are asked."""
    known = kept(_LANDINGS, id(catalog), catalog, dict)
    found = known.get((place, target))
    if found is None:
        coasts = catalog.provinces[target].coasts
        found = known[place, target] = tuple(
            i for i, c in enumerate(coasts) if place in c.coastal or place in c.seas)
    return found


# galley_reach depends on the map alone: kept by (id(catalog), start, heavens), as the reach
# after each step, up to the most steps a galley takes (a capacity rises one box a turn, and the
# search after k steps is the same whatever the steps still to come). It is kept by start: the
# reach from several starts is the union of each start's (a search from several starts reaches
# each place at its least distance from any of them).
_GALLEY: dict[Hashable, tuple[Catalog, tuple[frozenset[str], ...]]] = {}


def galley_reach(catalog: Catalog, starts: set[str], steps: int, heavens: bool) -> set[str]:
    """9.4.1: provinces within `steps` coastal provinces of a start, along one coast of each
    province passed (R27); with The Heavens one sea zone counts as one step (A). Sea zones of
    regions not in play may be crossed (8.2)."""
    found: set[str] = set()
    if steps <= 0:
        return found
    most = max([steps, *(c for stage in catalog.fleet if stage.id == GALLEY for c in stage.capacities)])
    for start in starts:
        by_steps: tuple[frozenset[str], ...] = kept(
            _GALLEY, (id(catalog), start, heavens), catalog,
            _galley_from(catalog, start, most, heavens), 4096)
        if steps > len(by_steps):  # more steps than any galley's capacity: searched afresh
            by_steps = _galley_from(catalog, start, steps, heavens)()
        found |= by_steps[steps - 1]
    return found


def _galley_from(catalog: Catalog, start: str, steps: int, heavens: bool
                 ) -> Callable[[], tuple[frozenset[str], ...]]:
    return lambda: tuple(frozenset(r) for r in _galley_steps(catalog, {start}, steps, heavens))


def _galley_steps(catalog: Catalog, starts: set[str], steps: int, heavens: bool) -> list[set[str]]:
    """The provinces reached after 1, 2 ... `steps` steps of the search."""
    frontier: set[Place] = {(s, i, False) for s in starts for i in range(len(catalog.provinces[s].coasts))}
    seen, reached = set(frontier), set()
    shores = _sea_shores(catalog)
    after = []
    for _ in range(steps):
        following: set[Place] = set()
        for place, coast, crossed in frontier:
            if coast < 0:
                for target, index in shores[place]:
                    reached.add(target)
                    following.add((target, index, True))
                continue
            edge = catalog.provinces[place].coasts[coast]
            for target in edge.coastal:
                reached.add(target)
                following.update((target, i, crossed) for i in _landings(catalog, place, target))
            if heavens and not crossed:
                following |= {(sea, -1, True) for sea in edge.seas}
        frontier = following - seen
        seen |= following
        after.append(set(reached))
    return after


def sea_reach(catalog: Catalog, state: State, pid: str) -> dict[str, int | None]:
    """Provinces the fleet can carry tokens to this turn, with the most per province (9.4.1);
    the coastal bases themselves are left out (tokens need no ship to stay there)."""
    return _sea_reach(catalog, state, pid, bases(state, pid), None)


def _sea_reach(catalog: Catalog, state: State, pid: str, home: list[str],
               regions: set[str] | None) -> dict[str, int | None]:
    """sea_reach from the bases at hand (`regions`: `enterable`, when known)."""
    stage, capacity = fleet(catalog, state, pid)
    starts = {b for b in home if catalog.provinces[b].coastal}
    if not starts or capacity == 0:
        return {}
    limit: int | None = capacity
    if stage == GALLEY:
        targets = galley_reach(catalog, starts, capacity, owns(state, pid, THE_HEAVENS))
    else:
        targets = {w for w, p in catalog.provinces.items()
                   if p.coastal and not catalog.regions[p.region].overseas}
    if stage == OCEAN:
        limit = None
        held = set(overseas_held(catalog, state, pid))
        targets |= {w for w, p in catalog.provinces.items() if catalog.regions[p.region].overseas
                    and (w in held or len(held) < capacity)}
    regions = enterable(catalog, state, pid) if regions is None else regions
    return {w: limit for w in sorted(targets - starts) if catalog.provinces[w].region in regions}


# The reach by land and by ship depends on the map and a few facts of the player: the bases,
# the regions they may enter, the fleet, The Heavens and (ocean-going ships) the overseas
# provinces held. An option list, the placement it leads to and the next option list of the
# same turn ask it again with the same facts (tokens placed this turn are no base), so it is
# kept by those facts. Caravan's reach also depends on who controls the provinces passed
# through: it is added on each call.
_REACH: dict[Hashable, tuple[Catalog, dict[str, int | None]]] = {}


def reach(catalog: Catalog, state: State, pid: str) -> dict[str, int | None]:
    """Every province the player may place tokens in now, with its ship limit (None: any)."""
    home, regions = bases(state, pid), enterable(catalog, state, pid)  # looked up once
    stage, capacity = fleet(catalog, state, pid)
    key = (id(catalog), tuple(home), frozenset(regions), stage, capacity,
           stage == GALLEY and owns(state, pid, THE_HEAVENS),
           tuple(overseas_held(catalog, state, pid)) if stage == OCEAN else ())

    def build() -> dict[str, int | None]:
        found = _sea_reach(catalog, state, pid, home, regions)
        for where in _land_reach(catalog, home, regions):
            found[where] = None
        return dict(sorted(found.items()))
    by_sea_and_land = kept(_REACH, key, catalog, build, 4096)  # most serve one player's turn
    if not owns(state, pid, CARAVAN):
        return dict(by_sea_and_land)
    found = dict(by_sea_and_land)
    for where in _caravan_reach(catalog, state, pid, home, regions):
        found[where] = None
    return dict(sorted(found.items()))


def is_reachable(catalog: Catalog, state: State, pid: str, where: str) -> bool:
    return where in reach(catalog, state, pid)


# --- the fleet's capacity per province and turn (9.4.1) ------------------------------------------


def shipped(state: State, pid: str, where: str) -> int:
    """9.4.1: tokens the player's ships carried into `where` this turn, those since lost in a
    battle included ("in one turn he can transport by ship into the same province at most as
    many tokens as his capacity"; 9.5.2 example 5)."""
    return int(state["round"].get("shipped", {}).get(pid, {}).get(where, 0))


def record_shipped(state: State, pid: str, where: str, count: int) -> None:
    ships = dict(state["round"].get("shipped", {}))
    mine = dict(ships.get(pid, {}))
    mine[where] = mine.get(where, 0) + count
    ships[pid] = dict(sorted(mine.items()))
    state["round"]["shipped"] = dict(sorted(ships.items()))
