"""Events as words: a structured event rendered through a message catalog.

An event is data (engine.core.table.event): a message id, its arguments and who may see it.
Text exists only when a report, post, mail or commit message is rendered, through a catalog
that maps each message id to a template in `str.format` syntax. Changing a template changes
what players read, never what the log proves.

Template fields take a few format specs beyond Python's own:
- a list argument renders as "a, b, c"; `{names:and}` as "a, b and c", `{names:or}` as "a, b or c";
- `{pid:title}` capitalises a word ("ada" -> "Ada");
- `{token:a}` puts the indefinite article before it ("an islamic pirate", "a rook").
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

Messages = Mapping[str, str]


def join_words(items: list[Any] | tuple[Any, ...], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def article(words: str) -> str:
    """'an islamic pirate', 'a catholic knight': the article a word's sound takes (our words
    start with a vowel letter exactly when they start with a vowel sound)."""
    return f"{'an' if words[:1].lower() in 'aeiou' and words[:1] else 'a'} {words}"


class Formatter(string.Formatter):
    """The format specs above, in English. A language at the edge subclasses it and overrides
    `join`, `article` and `word` (pbem.i18n); the engine itself never translates."""

    def join(self, items: list[Any] | tuple[Any, ...], last: str) -> str:
        return join_words([self.word(item) for item in items], last)

    def article(self, words: str) -> str:
        return article(words)

    def word(self, value: Any) -> str:
        """A value as the reader reads it (English: as it is)."""
        return str(value)

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, list | tuple):
            if format_spec in ("and", "or"):
                return self.join(value, format_spec)
            return ", ".join(self.word(item) for item in value)
        if format_spec in ("and", "or"):  # one item, given as itself
            return self.word(value)
        if format_spec == "title":
            return self.word(value).title()
        if format_spec == "a":
            return self.article(self.word(value))
        if isinstance(value, str) and not format_spec:
            return self.word(value)
        return str(super().format_field(value, format_spec))


_FORMATTER = Formatter()  # English


class UnknownMessage(KeyError):
    """An event names a message id the catalog lacks (a bug: every id needs a template)."""


def render(event: Mapping[str, Any], messages: Messages,
           formatter: Formatter = _FORMATTER) -> str:
    """The event in words (`formatter`: a language's, English by default)."""
    msg = str(event.get("msg"))
    try:
        template = messages[msg]
    except KeyError:
        raise UnknownMessage(msg) from None
    return formatter.format(template, **dict(event.get("args") or {}))


def fields(template: str) -> set[str]:
    """The argument names a template uses (for catalog checks)."""
    return {name.split(".")[0].split("[")[0]
            for _, name, _, _ in _FORMATTER.parse(template) if name}
