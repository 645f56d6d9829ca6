"""The three ways an order line can be wrong, plus engine bugs.

Every rule error carries the line number, the line, the reason and the legal options as
canonical lines, so a player can copy a correct line from the message.
"""

from __future__ import annotations

from collections.abc import Sequence


class SetupError(ValueError):
    """A game cannot be set up as asked (options, player count); the message says why."""


class RuleError(Exception):
    kind = "rule error"

    def __init__(
        self,
        reason: str,
        *,
        line: str | None = None,
        number: int | None = None,
        options: Sequence[str] = (),
    ) -> None:
        self.reason = reason
        self.line = line
        self.number = number
        self.options = list(options)
        super().__init__(self.message())

    def where(self) -> str:
        if self.line is None:
            return ""
        at = f"line {self.number}: " if self.number is not None else ""
        return f"{at}'{self.line}': "

    def message(self) -> str:
        text = f"{self.where()}{self.reason}"
        if self.options:
            shown = self.options[:12]
            more = f" (and {len(self.options) - 12} more)" if len(self.options) > 12 else ""
            text += "; legal: " + " | ".join(shown) + more
        return text

    def located(self, line: str, number: int | None) -> RuleError:
        """The same error, now naming the block line it came from."""
        return type(self)(self.reason, line=line, number=number, options=self.options)


class UnreadableOrder(RuleError):
    kind = "unreadable"


class IllegalOrder(RuleError):
    kind = "illegal"

    @classmethod
    def leftover(cls, line: str, number: int | None, waiting_for: Sequence[str]) -> IllegalOrder:
        who = ", ".join(waiting_for) if waiting_for else "nobody (the game is over)"
        return cls(
            f"control has passed to another player; remove this and later lines (waiting for {who})",
            line=line,
            number=number,
        )


    @classmethod
    def draw_ends_block(cls, line: str, number: int | None) -> IllegalOrder:
        return cls(
            "this line leads to a die roll or a card draw, so it must be the last line of its "
            "block; send the lines after it in a new block",
            line=line,
            number=number,
        )


class AmbiguousOrder(RuleError):
    kind = "ambiguous"


class InvariantViolation(Exception):
    """The engine broke a rule of its own: a bug, never the player's fault."""
