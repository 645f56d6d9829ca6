"""Deadlines as a reader sees them: who owes the pending decision and by when, in the reader's
time zone (or each owing player's own, for the status of the whole table)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from pbem import i18n
from pbem.delivery import deadlines, sidecar
from pbem.store.gamefile import GameFile


def deadline_rows(game: Path, gf: GameFile, viewer: str | None, now: datetime,
                  lang: str = i18n.SOURCE) -> list[dict[str, Any]]:
    """One row per owing player with a deadline; the clock starts when pbem first sees a
    decision pending (recorded in the post book), so no clock time enters the game file."""
    if not any(d.deadline for d in deadlines.due_now(gf, now)):
        return []  # no deadlines set
    # Reading never starts a clock: a decision no mail run has seen yet counts from `now`.
    since = sidecar.Book.load(game).started(gf) or now
    rows = []
    for due in deadlines.due_now(gf, since):
        if due.deadline is None:
            continue
        zone = deadlines.zone_of(gf, viewer if viewer else due.player)
        rows.append({"player": due.player, "who": sidecar.who(gf, due.player),
                     "due": deadlines.iso(due.deadline),
                     "when": deadlines.local_time(due.deadline, zone, lang),
                     "late": due.is_late(now)})
    return rows
