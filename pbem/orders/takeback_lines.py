"""The lines of a takeback by consent (issue 24 §4): `takeback SEQ` asks to undo the block
applied at that seq and everything after it, `accept takeback SEQ` and `refuse takeback SEQ`
answer the request. Like the lines of life they answer no game decision, so they are taken
at any time, and a block that holds one holds nothing else (docs/orders.md, "Takebacks")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.errors import Verbatim
from pbem.errors import BlockError

if TYPE_CHECKING:  # reading a game (status, options) never parses a block
    from pbem.orders.orderblock import OrderBlock

VERBS = ("ask", "accept", "refuse")  # as logged: the line's own verb, `takeback` is `ask`
_LINE = re.compile(r"(?:(accept|refuse) )?takeback (\d{1,9})")
EXPECTED = "'takeback SEQ', 'accept takeback SEQ' or 'refuse takeback SEQ'"


@dataclass(frozen=True)
class TakebackLine:
    verb: str  # one of VERBS
    target: int  # the seq of the first block taken back

    def text(self) -> str:
        return f"takeback {self.target}" if self.verb == "ask" else \
            f"{self.verb} takeback {self.target}"


def is_takeback(text: str) -> bool:
    words = text.lower().split()
    return bool(words) and (words[0] == "takeback" or
                            words[0] in ("accept", "refuse") and words[1:2] == ["takeback"])


def parse_line(number: int, text: str) -> TakebackLine:
    match = _LINE.fullmatch(" ".join(text.lower().split()))
    if match is None:
        raise BlockError.keyed("reason:pbem.line_expected", number=number,
                               expected=Verbatim(EXPECTED))
    return TakebackLine(match.group(1) or "ask", int(match.group(2)))


def takeback_line(block: OrderBlock) -> TakebackLine | None:
    """The block's one takeback line; None for any other block. Beside other lines it is an
    error: it answers no decision, so it goes in a block of its own."""
    found = [line for line in block.lines if is_takeback(line.text)]
    if not found:
        return None
    if len(block.lines) != 1:
        raise BlockError.keyed("reason:pbem.own_block", number=found[0].number,
                               line=Verbatim(found[0].text[:40]))
    return parse_line(found[0].number, found[0].text)
