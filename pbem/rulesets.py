"""The rulesets pbem can run, and how to build a table for a game file."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.aor.ruleset import AOR
from engine.core.ruleset import Ruleset
from engine.core.table import Table
from engine.pax.ruleset import PAX
from pbem.errors import CorruptGameError, UsageError
from pbem.resources import aor_catalog, pax_catalog
from pbem.store import hidden
from pbem.store.gamefile import GameFile

RULESETS = ("pax", "aor")
PLAYER_COUNTS = {"pax": (2, 4), "aor": (3, 6)}
_PLAYER_ID = re.compile(r"^[a-z][a-z0-9_]{0,15}$")


def _unknown(name: str) -> UsageError:
    return UsageError(f"unknown ruleset '{name}'; rulesets: {', '.join(RULESETS)}")


def ruleset_for(name: str) -> Ruleset:
    if name == "pax":
        return PAX
    if name == "aor":
        return AOR
    raise _unknown(name)


def catalog_for(name: str) -> Any:
    if name == "pax":
        return pax_catalog()
    if name == "aor":
        return aor_catalog()
    raise _unknown(name)


def seat_ids(name: str, names: Sequence[str]) -> list[str]:
    """The player ids handed to the ruleset's setup. Pax deals banks to seats; in Age of
    Renaissance the players keep their key names as ids (lower case), else p1, p2, ..."""
    if name != "aor":
        return [f"seat{i + 1}" for i in range(len(names))]
    wanted = [n.strip().lower() for n in names]
    if all(_PLAYER_ID.match(n) for n in wanted) and len(set(wanted)) == len(wanted):
        return wanted
    return [f"p{i + 1}" for i in range(len(names))]


def setup_seats(gf: GameFile) -> list[str]:
    """The ids the game was set up with (for replay): Pax seats, or the roster ids in order."""
    name = str(gf.game["ruleset"])
    if name == "aor":
        return [str(p["id"]) for p in gf.roster["players"]]
    return seat_ids(name, [""] * int(gf.game["players"]))


def table_of(gf: GameFile) -> tuple[Ruleset, Table]:
    """The game's table. In a moderated Age of Renaissance game that is the whole state when
    the secrets are attached (pbem.store.hidden.attach), else the public state (hands as sizes)."""
    name = str(gf.game.get("ruleset", ""))
    if name not in RULESETS:
        raise CorruptGameError(f"game file names unknown ruleset '{name}'")
    if hidden.is_hidden(gf):
        return ruleset_for(name), hidden.whole_table(gf, catalog_for(name))
    return ruleset_for(name), Table(gf.state, gf.agenda, catalog_for(name))


def all_messages() -> list[dict[str, str]]:
    """Every ruleset's message catalog (engine.core.words)."""
    return [ruleset_for(name).messages for name in RULESETS]
