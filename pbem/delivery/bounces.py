"""Bounces: a delivery failure for a player's address is noticed, recorded in the post book
(never in the signed log), shown by `status` and `remind`, and told to the moderator once.
A bounce is never answered and never changes the game.

Recognising bounces across real mail servers' formats is done by flufl.bounce, the detector
GNU Mailman uses (RFC 3464 reports, Postfix, Exim, qmail, Sendmail and many more).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pbem.delivery import deadlines
from pbem.store.gamefile import GameFile


def failures(raw: bytes) -> tuple[set[str], set[str]]:
    """The addresses a bounce reports as (delayed, failed for good), lower case; empty sets
    for a message that is no bounce."""
    import logging  # start-up: `status` reads the post book, not mail
    from email import message_from_bytes  # start-up: status reads bounces' records, not mail

    from flufl.bounce import all_failures  # start-up: only the inbox reads bounces

    # A detector that trips on odd mail logs a traceback; keep it out of the host's cron mail.
    detector = logging.getLogger("flufl.bounce")
    if not any(isinstance(h, logging.NullHandler) for h in detector.handlers):
        detector.addHandler(logging.NullHandler())
    try:
        temporary, permanent = all_failures(message_from_bytes(raw))
    except Exception:  # noqa: BLE001 - a detector's trouble means "not a bounce we can read"
        return set(), set()
    return ({a.decode("utf-8", "replace").lower() for a in temporary},
            {a.decode("utf-8", "replace").lower() for a in permanent})


def players_at(gf: GameFile, addresses: Iterable[str]) -> list[str]:
    wanted = set(addresses)
    return [str(p["id"]) for p in gf.roster["players"]
            if str(p.get("email", "")).lower() in wanted]


def record(book_data: dict[str, Any], gf: GameFile, delayed: set[str], failed: set[str],
           now: datetime) -> list[str]:
    """Note the bounce for each player it names; the players now bouncing for the first time."""
    kept = book_data.setdefault("bounces", {})
    first: list[str] = []
    for player, kind in [*((p, "permanent") for p in players_at(gf, failed)),
                         *((p, "delayed") for p in players_at(gf, delayed))]:
        entry = kept.get(player)
        if entry is None:
            entry = kept[player] = {"since": deadlines.iso(now), "permanent": 0, "delayed": 0}
            first.append(player)
        entry[kind] = int(entry[kind]) + 1
        entry["last"] = deadlines.iso(now)
    return first


def lines(book_data: dict[str, Any]) -> list[str]:
    """'ben: mail bouncing since 2027-03-04 (3 permanent, 1 delayed)', one per player."""
    shown = []
    for player, entry in sorted(dict(book_data.get("bounces") or {}).items()):
        counts = [f"{entry[k]} {k}" for k in ("permanent", "delayed") if entry.get(k)]
        shown.append(f"{player}: mail bouncing since {str(entry['since'])[:10]} "
                     f"({', '.join(counts)})")
    return shown
