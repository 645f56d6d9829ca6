"""Values kept between option lists that depend on the map (or on a few facts of a player) and
never on anything else: kept by key, each with its catalog, so that a key holding the catalog's
id stays its own (an AoR catalog is not hashable). Pure: a kept value equals a fresh one."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from engine.aor.catalog import Catalog

Value = TypeVar("Value")


def kept(cache: dict[Hashable, tuple[Catalog, Value]], key: Hashable, catalog: Catalog,
         build: Callable[[], Value], bound: int = 16) -> Value:
    """The value kept under `key` for this catalog, built (and kept) when there is none. The
    cache is emptied past `bound` entries: a process holds a catalog or two."""
    known = cache.get(key)
    if known is None or known[0] is not catalog:
        if len(cache) > bound:
            cache.clear()
        known = cache[key] = (catalog, build())
    return known[1]
