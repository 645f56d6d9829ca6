"""Coverage self-play's steering toward victories (issue 14), measured by the engine alone: the
victory squares a player would reach something unseen by declaring (its kind never declared in
this run, or an ability the engine would count in that declaration that never fired), and how
far the player is from meeting them (the engine's own shortfall, engine.pax.victory). No rules
knowledge lives here: which ability counts in which declaration is what the engine's
`ability_notes` emits for it in the position at hand.
"""

from __future__ import annotations

from typing import Any, NamedTuple

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
    return _wanted(table, who, seen, _noted(table, who, seen))


def _noted(table: Table, who: str, seen: set[str]) -> set[str]:
    """The squares `notes_reached` names for `who`."""
    return {n.rpartition("@")[2] for n in notes_reached(table, who, seen)}


def _wanted(table: Table, who: str, seen: set[str], noted: set[str]) -> frozenset[str]:
    return frozenset({s for s in _squares(table, who) if f"victory:{s}" not in seen} | noted)


class Aim(NamedTuple):
    """The wanted square a coverage player steers toward, how far it is from being declared by
    one of `declarers` (the least shortfall among them), and those declarers."""
    square: str
    short: int
    declarers: tuple[str, ...]


def _declarers(table: Table, who: str, seen: set[str], square: str, noted: set[str]
               ) -> tuple[str, ...]:
    """Who declaring `square` would reach news: `who`; and when it is an ability the engine
    counts in anyone's declaration (`notes_reached` names the square for `who`), every player
    for whom it names it too, so no one breaks a position another player is about to declare."""
    if square not in noted:
        return (who,)
    return tuple(p for p in table.state["order"]
                 if p == who or square in _noted(table, p, seen))


def nearest_wanted(table: Table, who: str, seen: set[str]) -> Aim | None:
    """The wanted square (see `wanted_squares`) nearest to being declared by its declarers
    (see `_declarers`), active ones first (only those can be declared), with its shortfall;
    None when no square is wanted."""
    noted = _noted(table, who, seen)
    wanted = _wanted(table, who, seen, noted)
    if not wanted:
        return None
    status = _squares(table, who)
    aims = [Aim(s, shortfall_of(table, declarers, s), declarers) for s in sorted(wanted)
            for declarers in [_declarers(table, who, seen, s, noted)]]
    return min(aims, key=lambda aim: (status[aim.square] != "active", aim.short))


def shortfall_of(table: Table, declarers: tuple[str, ...], square: str) -> int:
    """How far the nearest of `declarers` still in the game is from meeting `square`, as the
    engine counts it (0: one meets it now, or none is left: a look-ahead may eliminate one)."""
    present = [p for p in declarers if _squares(table, p)]
    if not present or not _squares(table, declarers[0]):
        return 0
    from engine.pax.victory import shortfall
    return min(shortfall(table, p, square) for p in present)


def made_active(table: Table, probe: Table, who: str, square: str) -> bool:
    """The move made `square` active (a comet), so it can be declared."""
    return _squares(probe, who).get(square) == "active" != _squares(table, who).get(square)
