"""Coverage self-play's steering toward victories (issue 14), measured by the engine alone: the
victory squares a player would reach something unseen by declaring (its kind never declared in
this run, or an ability the engine would count in that declaration that never fired), and how
far the player is from meeting them (the engine's own shortfall, engine.pax.victory). No rules
knowledge lives here: which ability counts in which declaration is what the engine's
`ability_notes` emits for it in the position at hand.
"""

from __future__ import annotations

from typing import Any

from engine.core.table import Table
from pbem.play.coverage_keys import coverage_keys


def _squares(table: Table, who: str) -> dict[str, Any]:
    """The victory squares by status, for a bank still in a Pax game; empty otherwise (Age of
    Renaissance keeps no squares)."""
    squares = table.state.get("victory")
    if not isinstance(squares, dict) or who not in (table.state.get("order") or ()):
        return {}
    return squares


def notes_reached(table: Table, who: str, seen: set[str]) -> set[str]:
    """The keys never seen that `who` declaring each square here would reach through the
    abilities the engine counts in it (a Republic from Academia, green pirates under Zionist
    State): the declaration's own ability events (engine.pax.victory.ability_notes)."""
    squares = _squares(table, who)
    if not squares:
        return set()
    from engine.pax.victory import ability_notes  # only a Pax table keeps squares by name
    return {f"{key}@{square}" for square in squares
            for key in coverage_keys(ability_notes(table, who, square)) - seen}


def wanted_squares(table: Table, who: str, seen: set[str]) -> frozenset[str]:
    """The squares whose declaration by `who` would reach something never seen: a victory kind
    not yet declared in this run, or an ability the engine would count in it that never fired
    (see `notes_reached`)."""
    squares = _squares(table, who)
    unseen = {s for s in squares if f"victory:{s}" not in seen}
    return frozenset(unseen | {n.rpartition("@")[2] for n in notes_reached(table, who, seen)})


def nearest_wanted(table: Table, who: str, seen: set[str]) -> tuple[str, int] | None:
    """The wanted square (see `wanted_squares`) `who` is nearest to meeting, active ones first
    (only those can be declared), with its shortfall; None when no square is wanted."""
    wanted = wanted_squares(table, who, seen)
    if not wanted:
        return None
    from engine.pax.victory import shortfall
    status = _squares(table, who)
    return min(((s, shortfall(table, who, s)) for s in sorted(wanted)),
               key=lambda aim: (status[aim[0]] != "active", aim[1]))


def shortfall_of(table: Table, who: str, square: str) -> int:
    """How far `who` is from meeting `square`, as the engine counts it (0: it meets it now)."""
    if not _squares(table, who):
        return 0
    from engine.pax.victory import shortfall
    return shortfall(table, who, square)


def made_active(table: Table, probe: Table, who: str, square: str) -> bool:
    """The move made `square` active (a comet), so it can be declared."""
    return _squares(probe, who).get(square) == "active" != _squares(table, who).get(square)
