"""Typed answers to decisions, and how order lines are matched against them.

Legality is membership: a line is legal only if it matches one of the options the rules list.
Each option knows its verb and typed arguments; a ruleset supplies how each argument kind is
named (`Namer`). Matching tries the splits of the line's words over the arguments, each
argument at most `MAX_SPAN` words, so a line costs time linear in its length; a line longer
than `MAX_LINE` characters is refused outright.

An option may also accept qualifiers its canonical line leaves out (`extra`): `kill rook bruges`
for `kill catholic rook` when that rook is in Bruges, `... in england` for a "The West" card's
op. A qualifier that agrees is accepted; one that names something else is an error saying so.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from engine.core.errors import (
    REASONS,
    AmbiguousOrder,
    IllegalOrder,
    UnreadableOrder,
    Verbatim,
    because,
)
from engine.core.records import dataclass_on_first_use

MAX_LINE = 500  # characters of an order line, comment excluded
MAX_SPAN = 12  # words one argument may take (the longest name is far shorter)


@dataclass_on_first_use(frozen=True)
class Choice:
    verb: str
    args: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    line: str = ""  # canonical line, as `pbem options` prints it
    # Qualifiers a line may add after the arguments: (kind, the values that agree).
    extra: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __repr__(self) -> str:
        return f"Choice.from_line({self.line!r})"


_FOLD = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ø": "o", "ł": "l", "đ": "d", "ı": "i"})
_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "“": '"', "”": '"', "„": '"', "«": '"',
                         "»": '"', "\u00a0": " ", "\u202f": " ", "\u2009": " "})
_WORD = re.compile(r"[a-z0-9]+")
_MINUS = re.compile(r"(?<![a-z0-9])[-\u2212](?=[0-9])")


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Lowercase, accents off, punctuation to spaces: 'Jacques Cœur' -> 'jacques coeur'.
    A minus sign before a number is kept as a word: 'tokens -3' -> 'tokens minus 3'.
    Cached: the namers fold the same card and place names for every line they score."""
    text = _MINUS.sub(" minus ", text.lower())
    if text.isascii():  # the tables, NFKD and the accents change no ASCII character
        return " ".join(_WORD.findall(text))
    text = unicodedata.normalize("NFKD", text.translate(_QUOTES).translate(_FOLD))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(_WORD.findall(text))


def clean_line(text: str) -> str:
    """The line without its comment, quotes or extra spaces, folded for matching."""
    text = text.translate(_QUOTES).split("#", 1)[0]
    return fold(text)


class Namer(Protocol):
    def score(self, kind: str, value: str, words: str) -> int:
        """How well `words` names `value` of `kind`: 0 not at all, higher is more exact."""
        ...

    def known(self, kind: str, words: str) -> bool:
        """Whether `words` names anything of `kind` at all (to tell unreadable from illegal)."""
        ...


def _split_scores(namer: Namer, kinds: Sequence[str], args: Sequence[str],
                  words: list[str]) -> int:
    """Best total score of matching `words` to the arguments; 0 if no split fits. Each
    argument takes 1 to MAX_SPAN words, so the work per option is bounded."""
    if not kinds:
        return 1 if not words else 0
    if len(words) > len(kinds) * MAX_SPAN:
        return 0
    if len(kinds) == 1:  # most options: one split only, what `_best` would score, no memo
        return namer.score(kinds[0], args[0], " ".join(words)) if words else 0
    return _best(namer, kinds, args, words, 0, 0, {})


def _best(namer: Namer, kinds: Sequence[str], args: Sequence[str], words: list[str],
          arg_index: int, start: int, memo: dict[tuple[int, int], int]) -> int:
    """The best score of arguments `arg_index`... over `words[start:]`. A plain function, not
    a closure: a recursive closure is a reference cycle, and kept each line's namer (and its
    table) alive until the garbage collector ran."""
    key = (arg_index, start)
    if key in memo:
        return memo[key]
    if arg_index == len(kinds) - 1:
        rest = len(words) - start
        top = namer.score(kinds[arg_index], args[arg_index], " ".join(words[start:])) \
            if 0 < rest <= MAX_SPAN else 0
    else:
        top = 0
        last = min(len(words) - (len(kinds) - arg_index - 1), start + MAX_SPAN)
        for end in range(start + 1, last + 1):
            here = namer.score(kinds[arg_index], args[arg_index], " ".join(words[start:end]))
            if here:
                rest = _best(namer, kinds, args, words, arg_index + 1, end, memo)
                if rest:
                    top = max(top, here + rest)
    memo[key] = top
    return top


def _qualified(namer: Namer, choice: Choice, words: list[str]) -> tuple[int, str | None]:
    """Match `words` as the arguments followed by one qualifier of `choice.extra`: (score, None)
    when the qualifier agrees, (0, the words) when it names something that contradicts."""
    top, clash = 0, None
    for kind, agreeing in choice.extra:
        for size in range(1, min(MAX_SPAN, len(words)) + 1):
            head, tail = words[:-size], " ".join(words[-size:])
            base = _split_scores(namer, choice.kinds, choice.args, head)
            if not base:
                continue
            agree = max((namer.score(kind, value, tail) for value in agreeing), default=0)
            if agree:
                top = max(top, base + agree)
            elif namer.known(kind, tail):
                clash = tail
    return (top, None) if top else (0, clash)


@lru_cache(maxsize=1024)
def verb_words(verb: str) -> tuple[str, ...]:
    """A verb's words (cached: every line is compared with every option's verb)."""
    return tuple(verb.split())


def match_line(
    text: str, options: Sequence[Choice], namer: Namer, verbs: Sequence[str]
) -> Choice:
    """The one option this line names; raises one of the three order errors otherwise.

    A line that is exactly one option's canonical line (folded) names that option, unscored:
    it is what `pbem options` and the reports list, and the scoring agrees
    (ruling R-518; tests/engine/test_canonical_lines.py scores every option's line in seeded
    games)."""
    cleaned = clean_line(text)
    if len(cleaned) > MAX_LINE:
        raise UnreadableOrder(because(REASONS, "reason:core.too_long", length=len(cleaned),
                                      limit=MAX_LINE), options=[o.line for o in options])
    named = getattr(options, "named", None)  # engine.core.options.Options reads one group
    exact = named(cleaned) if named is not None else \
        [option for option in options if fold(option.line) == cleaned]
    if len(exact) == 1:
        return exact[0]
    return scored_match(cleaned, options, namer, verbs)


def scored_match(
    cleaned: str, options: Sequence[Choice], namer: Namer, verbs: Sequence[str]
) -> Choice:
    """`match_line` by scoring every option's names against the (cleaned) line."""
    words = cleaned.split()
    if not words:
        raise UnreadableOrder(because(REASONS, "reason:core.empty"),
                              options=[o.line for o in options])
    scored: list[tuple[int, Choice]] = []
    clashes: list[tuple[str, Choice]] = []
    for option in options:
        head = verb_words(option.verb)
        if tuple(words[: len(head)]) != head:
            continue
        rest = words[len(head):]
        score = _split_scores(namer, option.kinds, option.args, rest)
        if not score and option.extra:
            score, clash = _qualified(namer, option, rest)
            if clash is not None:
                clashes.append((clash, option))
        if score:
            scored.append((score, option))
    if scored:
        top = max(score for score, _ in scored)
        winners = [option for score, option in scored if score == top]
        if len(winners) == 1:
            return winners[0]
        raise AmbiguousOrder(because(REASONS, "reason:core.ambiguous"),
                             options=[w.line for w in winners])
    legal = [option.line for option in options]  # what the errors below list
    if len(clashes) == 1:
        clash, option = clashes[0]
        raise IllegalOrder(because(REASONS, "reason:core.contradicts", clash=Verbatim(clash),
                                   line=Verbatim(option.line)), options=legal)
    known_verbs = sorted(verbs, key=lambda v: -len(v.split()))
    verb = next((v for v in known_verbs if words[: len(v.split())] == v.split()), None)
    if verb is None:
        near = did_you_mean(cleaned, legal)
        key = "reason:core.unknown_word_near" if near else "reason:core.unknown_word"
        raise UnreadableOrder(because(REASONS, key, word=Verbatim(words[0]),
                                              near=Verbatim(near)), options=legal)
    near = did_you_mean(cleaned, legal)
    key = "reason:core.not_legal_near" if near else "reason:core.not_legal"
    raise IllegalOrder(because(REASONS, key, verb=Verbatim(verb), near=Verbatim(near)), options=legal)


def did_you_mean(cleaned: str, legal: Sequence[str]) -> str:
    """The legal line a near-miss spelling is close to, else ''."""
    import difflib  # start-up: only a line that is not legal needs it

    close = difflib.get_close_matches(cleaned, [fold(line) for line in legal], n=1, cutoff=0.8)
    if not close:
        return ""
    return next(line for line in legal if fold(line) == close[0])
