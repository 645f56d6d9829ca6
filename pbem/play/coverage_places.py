"""Places and verbs an ability's own summary names, for coverage self-play (issue 14): "In trade
fairs starting at the Spice Islands" names the trade route `spice_islands` (the catalog's routes)
and the verb `fair` (the engine's own option verbs). Read from the catalog and the engine's
state alone; no rules knowledge lives here."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from engine.core.table import Table
from engine.pax.model import concession_owner, open_emporium
from pbem.play.coverage_keys import summary_words


def _keys(abilities: Iterable[str]) -> list[str]:
    return [key.partition(":")[2] for key in abilities]


@cache
def _places(catalog: Any, ability: str) -> frozenset[str]:
    words = summary_words(catalog, ability)
    return frozenset(r for r in catalog.routes if f" {r.replace('_', ' ')} " in f"{words} ")


def named_places(catalog: Any, abilities: Iterable[str]) -> frozenset[str]:
    """The trade routes (by their emporium) these `ability:x` keys' summaries name."""
    if not hasattr(catalog, "routes") or not hasattr(catalog, "abilities"):
        return frozenset()
    return frozenset(p for a in _keys(abilities) for p in _places(catalog, a))


@cache
def _place_cards(catalog: Any, places: frozenset[str]) -> frozenset[str]:
    return frozenset(c.id for c in catalog.cards.values() if c.one_shot
                     and any(isinstance(v, str) and v in places for v in c.one_shot.values()))


def place_cards(catalog: Any, places: frozenset[str]) -> frozenset[str]:
    """The cards whose one-shot names one of these places as its own subject (a single value of
    its data, not one of a list): India Armada's trade shift names `emporium: spice_islands`."""
    return _place_cards(catalog, places) if places else frozenset()


def named_verbs(catalog: Any, abilities: Iterable[str], verbs: Iterable[str]) -> frozenset[str]:
    """The option verbs these `ability:x` keys' summaries name as a word or its plural ("trade
    fairs" names `fair`; "opponent" does not name `op`)."""
    if not hasattr(catalog, "abilities"):
        return frozenset()
    words = {w for a in _keys(abilities) for w in summary_words(catalog, a).split()}
    return frozenset(v for v in verbs if v.isalpha() and (v in words or f"{v}s" in words))


def places_held(table: Table, who: str, places: Iterable[str]) -> int:
    """`who`'s concessions on the borders of these routes, as the engine's state holds them."""
    routes = table.catalog.routes
    return sum(1 for p in places for step in routes[p].sequence
               if step in table.catalog.borders and concession_owner(table, step) == who)


def places_open(table: Table, places: Iterable[str]) -> int:
    """How many of these routes start at the emporium the engine has open on their fair's side."""
    return sum(1 for p in places if open_emporium(table, table.catalog.routes[p].side) == p)
