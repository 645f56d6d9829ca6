"""The rulesets pbem can run, and how to build a table for a game file."""

from __future__ import annotations

from typing import Any

from engine.core.ruleset import Ruleset
from engine.core.table import Table
from engine.pax.ruleset import PAX
from pbem.errors import CorruptGameError, UsageError
from pbem.gamefile import GameFile
from pbem.resources import pax_catalog

RULESETS = ("pax",)


def ruleset_for(name: str) -> Ruleset:
    if name == "pax":
        return PAX
    raise UsageError(f"unknown ruleset '{name}'; rulesets: {', '.join(RULESETS)}")


def catalog_for(name: str) -> Any:
    if name == "pax":
        return pax_catalog()
    raise UsageError(f"unknown ruleset '{name}'; rulesets: {', '.join(RULESETS)}")


def table_of(gf: GameFile) -> tuple[Ruleset, Table]:
    name = str(gf.game.get("ruleset", ""))
    if name not in RULESETS:
        raise CorruptGameError(f"game file names unknown ruleset '{name}'")
    return ruleset_for(name), Table(gf.state, gf.agenda, catalog_for(name))
