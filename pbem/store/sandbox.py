"""The sandbox mark (`pbem fork`, issue 24): a game file whose header holds `sandbox` is a
what-if copy of a real game, never to be mailed or posted as that game.

The header's `sandbox` holds where the copy came from and where it begins:
    of: the real game's id           at: the seq it was forked at
    for: the seat whose view it holds (null: everything, the moderator's or an open game's)
    start: {state, agenda}: the whole position the sandbox's log starts from (its setup)
The header is covered by every state hash, so an edit of the mark or the start fails verify.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from engine.core.errors import Verbatim
from engine.core.table import Table
from pbem.errors import CorruptGameError, UsageError
from pbem.store.gamefile import GameFile, load_head

SANDBOX = "sandbox"


def mark(gf: GameFile) -> dict[str, Any] | None:
    """The sandbox mark, checked; None for a real game."""
    found = gf.game.get(SANDBOX)
    if found is None:
        return None
    start = found.get("start") if isinstance(found, dict) else None
    if not (isinstance(found, dict) and isinstance(found.get("of"), str)
            and isinstance(found.get("at"), int) and isinstance(start, dict)
            and isinstance(start.get("state"), dict) and isinstance(start.get("agenda"), list)
            and (found.get("for") is None or isinstance(found.get("for"), str))):
        raise CorruptGameError("game file: 'game.sandbox' should hold of, at, for and start "
                               "{state, agenda}")
    return found


def describe(gf: GameFile) -> str | None:
    """One line for status and verify: whose what-if copy this is (None: a real game)."""
    found = mark(gf)
    if found is None:
        return None
    whose = f", as {found['for']} sees it" if found["for"] else ""
    return f"sandbox: a what-if copy of game {found['of']} at seq {found['at']}{whose}; " \
           "it is never mailed or posted"


def refuse(gf: GameFile, command: str) -> None:
    """The one-line refusal of a command that would mail or post a sandbox as the real game."""
    found = mark(gf)
    if found is not None:
        raise UsageError.keyed("reason:pbem.sandbox", game=gf.game_id, of=found["of"],
                               at=found["at"], command=Verbatim(command))


def start_table(gf: GameFile, catalog: Any) -> Table | None:
    """Where a sandbox's log begins (its setup replays to this, not to a deal); None for a
    real game."""
    found = mark(gf)
    if found is None:
        return None
    start = copy.deepcopy(found["start"])
    return Table(start["state"], start["agenda"], catalog)


def refuse_file(path: Path, command: str) -> None:
    """`refuse`, for the game file at `path` (its head only)."""
    refuse(load_head(path)[0], command)
