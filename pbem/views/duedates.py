"""Deadlines as a reader sees them: who owes the pending decision and by when, in the reader's
time zone (or each owing player's own, for the status of the whole table)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import i18n
from pbem.delivery import deadlines
from pbem.lazy import lazy
from pbem.store.gamefile import GameFile

if TYPE_CHECKING:
    from pbem.delivery import sidecar
else:
    sidecar = lazy("pbem.delivery.sidecar")  # start-up: only a game with deadlines reads it


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


def life_rows(gf: GameFile, viewer: str | None, now: datetime, lang: str = "en") -> list[str]:
    """Who is away until when, and the pause (issue 24), as sentences in the reader's
    language; times in the reader's zone (each away player's own for the public)."""
    from pbem import i18n  # start-up: only a game with absences or pauses says these

    life = gf.roster.get("life") or {}
    if not life:
        return []
    gettext = i18n.translations(lang).gettext
    rows = []
    for player, record in sorted(dict(life.get("away") or {}).items()):
        start, until = deadlines.parse_time(record["from"]), deadlines.parse_time(record["until"])
        if start <= now < until:
            when = deadlines.local_time(until, deadlines.zone_of(gf, viewer or player))
            rows.append(gettext("{who} is away until {when}.").format(
                who=sidecar.who(gf, player), when=when))
    pause = dict(life.get("pause") or {})
    zone = deadlines.zone_of(gf, viewer)
    if pause.get("state") == "paused":
        rows.append(gettext("The game is paused since {when}: no deadline runs until someone "
                            "sends 'resume'.").format(when=deadlines.local_time(
                                deadlines.parse_time(pause["since"]), zone)))
    elif pause.get("state") == "proposed" and now < deadlines.parse_time(pause["deadline"]):
        missing = [sidecar.who(gf, p) for p in gf.player_ids() if p not in pause["signed"]]
        rows.append(gettext("{who} proposed a pause: waiting for {names} to send 'pause' by "
                            "{when}.").format(
            who=sidecar.who(gf, pause["by"]), names=", ".join(missing),
            when=deadlines.local_time(deadlines.parse_time(pause["deadline"]), zone)))
    return rows


def sandbox_rows(gf: GameFile, lang: str = "en") -> list[str]:
    """A sandbox's report says what it is, in the reader's language (`pbem fork`, issue 24)."""
    from pbem import i18n  # start-up: only a sandbox says this
    from pbem.store.sandbox import mark

    found = mark(gf)
    if found is None:
        return []
    said = i18n.translations(lang).gettext(
        "This is a sandbox: a what-if copy of game {game} at seq {seq}. It is never mailed or "
        "posted; try turns ahead in it with apply, options and report.")
    return [said.format(game=found["of"], seq=found["at"])]
