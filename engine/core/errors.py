"""The three ways an order line can be wrong, plus engine bugs.

Every rule error carries the line number, the line, the reason and the legal options as
canonical lines, so a player can copy a correct line from the message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.records import dataclass_on_first_use  # start-up: made when first built
from engine.core.words import Formatter

_ENGLISH = Formatter()


@dataclass_on_first_use(frozen=True, eq=True)
class Reason:
    """Why, as data: a key, its English template (str.format syntax, engine.core.words' specs)
    and the fields (a field may be a Reason itself, said in the same language). The edge
    renders it in the reader's language (the key is the catalog entry's context); `str()` is
    the English. Checks compare the key, never the words."""

    key: str
    template: str
    fields: Mapping[str, Any]

    def __str__(self) -> str:
        return _ENGLISH.format(self.template, **self.fields)


class Verbatim(str):
    """Order-language text in a reason (a line, an order word): quoted as it is in every
    language, never taken for a data word to translate."""

    __slots__ = ()


def because(catalog: Mapping[str, str], key: str, /, **fields: Any) -> Reason:
    """The reason `key` of a catalog of English templates, with its fields."""
    return Reason(key, catalog[key], fields)


# The core's reasons (the edge translates them; a ruleset keeps its own beside its messages).
REASONS: dict[str, str] = {
    "reason:core.leftover": "control has passed to another player; remove this and later lines "
                            "(waiting for {who})",
    "reason:core.leftover_over": "control has passed to another player; remove this and later "
                                 "lines (waiting for nobody (the game is over))",
    "reason:core.draw_ends_block": "this line leads to a die roll or a card draw, so it must be "
                                   "the last line of its block; send the lines after it in a new "
                                   "block",
    "reason:core.too_long": "the line is {length} characters long; an order line has at most "
                            "{limit}",
    "reason:core.empty": "empty order",
    "reason:core.ambiguous": "could mean any of these; name one exactly",
    "reason:core.contradicts": "'{clash}' contradicts the only legal line it could be, '{line}'",
    "reason:core.unknown_word": "unknown order word '{word}'",
    "reason:core.unknown_word_near": "unknown order word '{word}'; did you mean '{near}'?",
    "reason:core.not_legal": "not a legal '{verb}' order now",
    "reason:core.not_legal_near": "not a legal '{verb}' order now; did you mean '{near}'?",
    "reason:core.send_seal": "this answer is sealed by commit and reveal: send 'seal HEX', made "
                             "with `pbem sign --seal LINE` where LINE is one of the legal lines, "
                             "and open it once every seal is in",
    "reason:core.send_open": "every seal is in: open yours with 'open LINE nonce HEX' "
                             "(`pbem sign --open`)",
    "reason:core.seal_mismatch": "the opening '{line}' with that nonce does not match "
                                 "{player}'s seal",
}


class SetupError(ValueError):
    """A game cannot be set up as asked (options, player count); the message says why."""


class RuleError(Exception):
    kind = "rule error"

    def __init__(
        self,
        reason: str | Reason,
        *,
        line: str | None = None,
        number: int | None = None,
        options: Sequence[str] = (),
    ) -> None:
        self.why = reason if isinstance(reason, Reason) else None  # None: English words only
        self.reason = str(reason)
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
        return type(self)(self.why or self.reason, line=line, number=number, options=self.options)


class UnreadableOrder(RuleError):
    kind = "unreadable"


class IllegalOrder(RuleError):
    kind = "illegal"

    @classmethod
    def leftover(cls, line: str, number: int | None, waiting_for: Sequence[str]) -> IllegalOrder:
        if not waiting_for:
            return cls(because(REASONS, "reason:core.leftover_over"), line=line, number=number)
        return cls(because(REASONS, "reason:core.leftover", who=list(waiting_for)),
                   line=line, number=number)


    @classmethod
    def draw_ends_block(cls, line: str, number: int | None) -> IllegalOrder:
        return cls(because(REASONS, "reason:core.draw_ends_block"), line=line, number=number)


class AmbiguousOrder(RuleError):
    kind = "ambiguous"


class InvariantViolation(Exception):
    """The engine broke a rule of its own: a bug, never the player's fault."""
