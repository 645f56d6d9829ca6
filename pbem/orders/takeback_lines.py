"""The lines of a takeback by consent (issue 24 §4): `takeback SEQ` asks to undo the block
applied at that seq and everything after it, `accept takeback SEQ` and `refuse takeback SEQ`
answer the request. Like the lines of life they answer no game decision, so they are taken
at any time, and a block that holds one holds nothing else (docs/orders.md, "Takebacks")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.core.errors import Verbatim
from engine.core.records import dataclass_on_first_use
from pbem.errors import BlockError
from pbem.orders.life_lines import lone_line

if TYPE_CHECKING:  # reading a game (status, options) never parses a block
    from pbem.orders.orderblock import OrderBlock

VERBS = ("ask", "accept", "refuse")  # as logged: the line's own verb, `takeback` is `ask`
_LINE = re.compile(r"(?:(accept|refuse) )?takeback (\d{1,9})")
EXPECTED = "'takeback SEQ', 'accept takeback SEQ' or 'refuse takeback SEQ'"


@dataclass_on_first_use(frozen=True)
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
    """The block's one takeback line (in a block of its own); None for any other block."""
    found = lone_line(block, is_takeback)
    return parse_line(*found) if found is not None else None
