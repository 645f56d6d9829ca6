"""Languages at the edge: gettext catalogs (pbem/locale), read with the standard library;
English is the source and has none. How it works and how to add a language: docs/architecture.md."""

# Where a message is keyed by an id (an event's message id, a decision's action), the catalog
# entry has the id as its context and the English template as its text: rewording the English
# leaves the old translation unused (English shows) until a translator catches up. Data words
# ("catholic", "knight") are entries in the context `term` (pbem.i18n.terms).

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.words import Formatter
from pbem.errors import UsageError

if TYPE_CHECKING:
    import gettext

DOMAIN = "pbem"
SOURCE = "en"  # the language the code and templates are written in
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
TERM = "term"  # the context of data words ("catholic", "knight", "west")


@cache
def languages() -> tuple[str, ...]:
    """English, then every language with a compiled catalog."""
    found = sorted(path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE, *found)


def check_language(lang: str) -> str:
    """`lang` when pbem has it, else a usage error listing the languages."""
    if lang not in languages():
        raise UsageError(f"unknown language '{lang[:40]}'; languages: {', '.join(languages())}")
    return lang


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The language's catalog (English: none, every message stays as written)."""
    import gettext  # start-up: loaded when a catalog is first asked for

    if check_language(lang) == SOURCE:
        return gettext.NullTranslations()
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as handle:
        return gettext.GNUTranslations(handle)


def term(lang: str, word: str) -> str:
    """A data word in the reader's language ("catholic" -> "katolikus"); unknown words (card
    and place names, players' names) stay as they are."""
    if lang == SOURCE:
        return word
    catalog = translations(lang)
    said = catalog.pgettext(TERM, word)
    if said == word and " " in word:  # "catholic knight": each word a term, or none is
        parts = [catalog.pgettext(TERM, part) for part in word.split(" ")]
        if all(part != english for part, english in zip(parts, word.split(" "), strict=True)):
            return " ".join(parts)
    return said


def keyed(lang: str, key: str, english: str) -> str:
    """The translation of an English template keyed by an id (an event's message id)."""
    if lang == SOURCE:
        return english
    return translations(lang).pgettext(key, english)


# How each language joins a list, and its indefinite article (`{token:a}`: English "a"/"an",
# chosen by sound in engine.core.words; Hungarian "egy" before any word).
_AND_OR = {"hu": {"and": "és", "or": "vagy"}}
_INDEFINITE = {"hu": "egy"}


class LocalFormatter(Formatter):
    """engine.core.words' format specs in one language: data words through its terms,
    lists joined with its own 'and'/'or', its own article."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def join(self, items: list[Any] | tuple[Any, ...], last: str) -> str:
        words = [self.word(item) for item in items]
        if len(words) <= 1:
            return "".join(words)
        joiner = _AND_OR.get(self.lang, {}).get(last, last)
        return f"{', '.join(words[:-1])} {joiner} {words[-1]}"

    def article(self, words: str) -> str:
        indefinite = _INDEFINITE.get(self.lang)
        return f"{indefinite} {words}" if indefinite else super().article(words)

    def word(self, value: Any) -> str:
        return term(self.lang, str(value))


@cache
def formatter(lang: str) -> Formatter:
    return Formatter() if lang == SOURCE else LocalFormatter(lang)
