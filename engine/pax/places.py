"""Which city slots and neighbours exist now: the map as the rules and abilities shape it.

- Venice gains a second slot (`venice_2`) while a Condottiere ability is active and Venice's
  levy icon is a gold knight (G4 Venetian Condottieri).
- On the Age of Reformation map, Kviv is a Hungarian city while Hungary is medieval, and the
  third slot of Constantinople exists only once the Ottoman Empire is a theocracy (map.yaml).
- Portugal and France are not adjacent while a Catherine of Navarre ability is active.

Tokens left in a slot that stops existing are removed by engine.pax.upkeep.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from engine.core.table import Event, Table
from engine.pax.abilities import Ability, ability_event, anyone_has
from engine.pax.catalog import Catalog
from engine.pax.model import cat, is_busted, is_promo_map, levy_token, token

VENICE, VENICE_2 = "venice", "venice_2"
KVIV = "kviv"
THIRD_CONSTANTINOPLE = "constantinople_3"
UNADJACENT = frozenset({"portugal", "france"})


def condottieri_active(t: Table) -> bool:
    if levy_token(t, VENICE) != token("knight", "catholic"):
        return False
    return anyone_has(t, Ability.CONDOTTIERE_VENICE_TWO_GOLD_TOKENS)


def _exists(t: Table, city_id: str) -> bool:
    if city_id == VENICE_2:
        return condottieri_active(t)
    if city_id == KVIV:
        return is_promo_map(t) and t.state["empires"]["hungary"]["religion"] == "medieval"
    if city_id == THIRD_CONSTANTINOPLE and is_promo_map(t):
        return bool(t.state["empires"]["ottoman"]["religion"] != "medieval")
    return True


def cities_of(t: Table, empire_id: str) -> list[str]:
    """Every city slot of an empire that is on the map now (busted emporia included)."""
    empire = cat(t).empires[empire_id]
    return [c for c in (*empire.cities, *empire.conditional)
            if c not in _CONDITIONAL or _exists(t, c)]


@cache
def _slots(catalog: Catalog) -> frozenset[str]:
    """The cities listed by their own empire, as a slot or a conditional one (the catalog is
    hashed by identity)."""
    return frozenset(c for e in catalog.empires.values() for c in (*e.cities, *e.conditional)
                     if catalog.cities[c].empire == e.id)


_CONDITIONAL = frozenset({VENICE_2, KVIV, THIRD_CONSTANTINOPLE})  # where `_exists` may say no


def off_map(t: Table, city_ids: Iterable[str]) -> list[str]:
    """The cities of `city_ids` not on the map now (a city is on it when it is in
    `cities_of(t, its empire)`), in order: the checks after every answer ask this of every
    city holding a token."""
    slots = _slots(cat(t))
    return [c for c in city_ids if c not in slots or c in _CONDITIONAL and not _exists(t, c)]


def city_slots(t: Table, empire_id: str) -> list[str]:
    """The city slots of an empire that can hold a token now (busted emporia cannot)."""
    return [c for c in cities_of(t, empire_id) if not is_busted(t, c)]


def empty_cities(t: Table, empire_id: str) -> list[str]:
    return [c for c in city_slots(t, empire_id) if c not in t.state["cities"]]


def adjacent(t: Table, empire_id: str) -> list[str]:
    """ADJACENT (diagonals included), less Portugal-France under Catherine of Navarre."""
    neighbours = list(cat(t).empires[empire_id].adjacent)
    if empire_id in UNADJACENT and anyone_has(t, Ability.PORTUGAL_FRANCE_NOT_ADJACENT):
        return [e for e in neighbours if e not in UNADJACENT]
    return neighbours


def separated(t: Table, first: str, second: str) -> bool:
    """Whether the Catherine of Navarre ability took `second` out of `first`'s neighbours."""
    return second in cat(t).empires[first].adjacent and second not in adjacent(t, first)


def entry_events(t: Table, city_id: str) -> list[Event]:
    """A token entering Venice's second slot uses the Condottiere ability."""
    if city_id != VENICE_2:
        return []
    return [ability_event(Ability.CONDOTTIERE_VENICE_TWO_GOLD_TOKENS, "pax.place.venice")]
