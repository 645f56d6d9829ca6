"""The rulesets pbem can run: one table, and how to build a table for a game file.

This is the only module under pbem/ that names a ruleset. Each entry says where the engine's
ruleset object lives and where its scenario builder lives; a ruleset is imported only when a
game of it is opened (start-up time matters: bench/README.md).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.core.records import dataclass_on_first_use
from pbem.errors import CorruptGameError, UsageError

if TYPE_CHECKING:  # start-up: `pbem --help` names the rulesets without loading yaml or a game
    from engine.core.ruleset import Ruleset
    from pbem.store.gamefile import GameFile


@dataclass_on_first_use(frozen=True)  # start-up: no dataclass is made to read the table
class Registered:
    ruleset: str  # "module:ATTRIBUTE" of the engine's ruleset object
    scenarios: str  # "module:RULES" of its scenario format (pbem.play.scenarios.paths)
    board: str  # "module:function" drawing its board as SVG (pbem.views.board)


TABLE: dict[str, Registered] = {
    "pax": Registered("engine.pax.ruleset:PAX", "pbem.play.scenarios.pax:RULES",
                      "pbem.views.board.pax:draw"),
    "aor": Registered("engine.aor.ruleset:AOR", "pbem.play.scenarios.aor:RULES",
                      "pbem.views.board.aor:draw"),
}
DEFAULT = "pax"
RULESETS = tuple(TABLE)


def _load(target: str) -> Any:
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def check_name(name: str) -> str:
    if name not in TABLE:
        raise UsageError(f"unknown ruleset '{name}'; rulesets: {', '.join(RULESETS)}")
    return name


@cache
def ruleset_for(name: str) -> Ruleset:
    ruleset: Ruleset = _load(TABLE[check_name(name)].ruleset)
    return ruleset


def scenario_builder(name: str) -> Any:
    return _load(TABLE[check_name(name)].scenarios)


def board_drawer(name: str) -> Any:
    """The function drawing this ruleset's board: (report model, layout) -> SVG text."""
    return _load(TABLE[check_name(name)].board)


@cache
def catalog_for(name: str) -> Any:
    from pbem.resources import ruleset_data

    ruleset = ruleset_for(name)
    try:
        return ruleset.build_catalog(ruleset_data(name, ruleset.data_files))
    except ValueError as error:  # each catalog's error is a ValueError naming the file and key
        raise CorruptGameError(f"game data: {error}") from None


def ruleset_of(gf: GameFile) -> Ruleset:
    name = str(gf.game.get("ruleset", ""))
    if name not in TABLE:
        raise CorruptGameError(f"game file names unknown ruleset '{name}'")
    return ruleset_for(name)


def catalog_of(gf: GameFile) -> Any:
    return catalog_for(ruleset_of(gf).name)


def player_counts(name: str) -> tuple[int, int]:
    return ruleset_for(name).player_counts


def all_messages() -> list[dict[str, str]]:
    """Every ruleset's message catalog (engine.core.words)."""
    return [ruleset_for(name).messages for name in RULESETS]


def setup_seats(gf: GameFile) -> list[str]:
    """The ids the game was set up with (for replay): the ruleset maps the roster's ids to
    themselves where players keep their names, and to seats where seats are dealt."""
    return ruleset_of(gf).seat_ids([str(p["id"]) for p in gf.roster["players"]])


def pax_catalog() -> Any:
    """The Pax Renaissance catalog (for tests and tools)."""
    return catalog_for("pax")


def aor_catalog() -> Any:
    """The Age of Renaissance catalog (for tests and tools)."""
    return catalog_for("aor")
