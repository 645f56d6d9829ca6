"""The lines of life around a game (issue 24): `away until DATE [HH:MM]`, `back`, `pause`,
`resume`, and `bot on SHA256:... [until DATE [HH:MM]]` / `bot off` (a seat handed to a bot's
key and back; the moderator's `bot off SEAT` takes a seat back for its player). They
answer no game decision, so they are accepted at any time; a block that holds one holds
nothing else (docs/orders.md, "Absences, pauses and bots")."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, time
from typing import TYPE_CHECKING

from engine.core.errors import Verbatim
from engine.core.records import dataclass_on_first_use
from pbem.errors import BlockError

if TYPE_CHECKING:  # reading a game (status, options) never parses a block
    from pbem.orders.orderblock import OrderBlock

VERBS = ("away", "back", "pause", "resume", "bot")
_UNTIL = r"until (\d{4}-\d{2}-\d{2})(?:[ t](\d{1,2}:\d{2}))?"
_AWAY = re.compile(f"away {_UNTIL}")
# The signature covers the lower-cased line, so a fingerprint is compared lower-cased too.
_BOT_ON = re.compile(f"bot on (sha256:[a-z0-9+/]{{43}})(?: {_UNTIL})?")
_BOT_OFF = re.compile(r"bot off(?: ([a-z0-9_-]+))?")
EXPECTED = ("'away until YYYY-MM-DD' (or 'away until YYYY-MM-DD HH:MM'), 'back', 'pause', "
            "'resume', 'bot on SHA256:...' (or 'bot on SHA256:... until YYYY-MM-DD') or "
            "'bot off'")


@dataclass_on_first_use(frozen=True)
class LifeLine:
    verb: str  # one of VERBS
    day: str | None = None  # `away until`: the date as written, YYYY-MM-DD
    clock: str | None = None  # and the time of day, HH:MM, if given (else the day's start)
    bot: str | None = None  # `bot on`: the bot key's fingerprint, lower-cased
    seat: str | None = None  # the moderator's `bot off SEAT`: the seat taken back

    def local_end(self) -> datetime:
        """The absence's end as a naive local time (the player's zone makes it a moment)."""
        assert self.day is not None
        try:
            day = datetime.strptime(self.day, "%Y-%m-%d")
            hour, minute = (int(part) for part in (self.clock or "0:00").split(":"))
            return datetime.combine(day.date(), time(hour, minute))
        except ValueError:
            shown = f"{self.day} {self.clock or ''}".strip()
            said = "bot on SHA256:..." if self.verb == "bot" else "away"
            raise BlockError.keyed("reason:pbem.not_a_date", written=Verbatim(shown),
                                   example=Verbatim(f"{said} until 2027-03-20"),
                                   example_time=Verbatim(f"{said} until 2027-03-20 18:00")
                                   ) from None


def is_life(text: str) -> bool:
    words = text.lower().split()
    return bool(words) and words[0] in VERBS


def parse_line(number: int, text: str) -> LifeLine:
    canonical = " ".join(text.lower().split())
    if canonical in ("back", "pause", "resume"):
        return LifeLine(canonical)
    taken = _BOT_OFF.fullmatch(canonical)
    if taken is not None:
        return LifeLine("bot", seat=taken.group(1))
    handed = _BOT_ON.fullmatch(canonical)
    if handed is not None:
        line = LifeLine("bot", handed.group(2), handed.group(3), bot=handed.group(1))
        if line.day is not None:
            line.local_end()  # a real date and time, or the error says so
        return line
    match = _AWAY.fullmatch(canonical)
    if match is None:
        raise BlockError.keyed("reason:pbem.line_expected", number=number,
                               expected=Verbatim(EXPECTED))
    line = LifeLine("away", match.group(1), match.group(2))
    line.local_end()  # a real date and time, or the error says so
    return line


def lone_line(block: OrderBlock, kind: Callable[[str], bool]) -> tuple[int, str] | None:
    """The block's one line of `kind` (its number and text); None when it has none. Such a line
    beside other lines is an error: it answers no decision, so it goes in a block of its own."""
    found = [line for line in block.lines if kind(line.text)]
    if not found:
        return None
    if len(block.lines) != 1:
        raise BlockError.keyed("reason:pbem.own_block", number=found[0].number,
                               line=Verbatim(found[0].text[:40]))
    return found[0].number, found[0].text


def life_line(block: OrderBlock) -> LifeLine | None:
    """The block's one life line; None for a block of orders."""
    found = lone_line(block, is_life)
    return parse_line(*found) if found is not None else None
