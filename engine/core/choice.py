"""Typed answers to decisions, and how order lines are matched against them.

Legality is membership: a line is legal only if it matches one of the options the rules list.
Each option knows its verb and typed arguments; a ruleset supplies how each argument kind is
named (`Namer`). Matching tries every split of the line's words over the arguments.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.core.errors import AmbiguousOrder, IllegalOrder, UnreadableOrder


@dataclass(frozen=True)
class Choice:
    verb: str
    args: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    line: str = ""  # canonical line, as `pbem options` prints it

    def __repr__(self) -> str:
        return f"Choice.from_line({self.line!r})"


_FOLD = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ø": "o", "ł": "l", "đ": "d", "ı": "i"})
_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "“": '"', "”": '"', "„": '"', "«": '"',
                         "»": '"', "\u00a0": " ", "\u202f": " ", "\u2009": " "})
_WORD = re.compile(r"[a-z0-9]+")
_MINUS = re.compile(r"(?<![a-z0-9])[-\u2212](?=[0-9])")


def fold(text: str) -> str:
    """Lowercase, accents off, punctuation to spaces: 'Jacques Cœur' -> 'jacques coeur'.
    A minus sign before a number is kept as a word: 'tokens -3' -> 'tokens minus 3'."""
    text = _MINUS.sub(" minus ", text.lower())
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


def _split_scores(namer: Namer, choice: Choice, words: list[str]) -> int:
    """Best total score of matching `words` to the choice's arguments; 0 if no split fits."""
    kinds, args = choice.kinds, choice.args
    if not kinds:
        return 1 if not words else 0

    def best(arg_index: int, start: int) -> int:
        if arg_index == len(kinds) - 1:
            if start >= len(words):
                return 0
            return namer.score(kinds[arg_index], args[arg_index], " ".join(words[start:]))
        top = 0
        for end in range(start + 1, len(words) - (len(kinds) - arg_index - 1) + 1):
            here = namer.score(kinds[arg_index], args[arg_index], " ".join(words[start:end]))
            if here:
                rest = best(arg_index + 1, end)
                if rest:
                    top = max(top, here + rest)
        return top

    return best(0, 0)


def verb_words(verb: str) -> list[str]:
    return verb.split()


def match_line(
    text: str, options: Sequence[Choice], namer: Namer, verbs: Sequence[str]
) -> Choice:
    """The one option this line names; raises one of the three order errors otherwise."""
    words = clean_line(text).split()
    legal = [option.line for option in options]
    if not words:
        raise UnreadableOrder("empty order", options=legal)
    scored: list[tuple[int, Choice]] = []
    for option in options:
        head = verb_words(option.verb)
        if words[: len(head)] != head:
            continue
        score = _split_scores(namer, option, words[len(head):])
        if score:
            scored.append((score, option))
    if scored:
        top = max(score for score, _ in scored)
        winners = [option for score, option in scored if score == top]
        if len(winners) == 1:
            return winners[0]
        raise AmbiguousOrder(
            "could mean any of these; name one exactly", options=[w.line for w in winners]
        )
    known_verbs = sorted(verbs, key=lambda v: -len(v.split()))
    verb = next((v for v in known_verbs if words[: len(v.split())] == v.split()), None)
    if verb is None:
        raise UnreadableOrder(
            "unknown order word '" + words[0] + "'", options=legal
        )
    raise IllegalOrder(f"not a legal '{verb}' order now", options=legal)
