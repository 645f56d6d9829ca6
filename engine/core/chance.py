"""All randomness: draws derived from a secret seed, recorded, and replayable.

Draw n is HMAC-SHA256(seed, "game|n|purpose"), turned into an index by rejection sampling over a
population given in sorted order, so no shuffled order ever exists in stored data.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import field
from typing import Protocol

from engine.core.errors import InvariantViolation
from engine.core.records import dataclass_on_first_use  # start-up: made when first built


@dataclass_on_first_use(frozen=True)
class Draw:
    n: int
    purpose: str
    outcome: str

    def to_data(self) -> dict[str, object]:
        return {"n": self.n, "purpose": self.purpose, "outcome": self.outcome}


class SeedNeeded(Exception):
    """A draw was needed but this run has no seed (a moderated game without its seed file)."""


class Chance(Protocol):
    draws: list[Draw]

    def pick(self, purpose: str, population: Sequence[str]) -> str: ...


def derive_index(seed: bytes, game_id: str, n: int, purpose: str, size: int) -> int:
    """Uniform index in range(size), by rejection sampling on successive HMAC blocks."""
    if size <= 0:
        raise InvariantViolation(f"draw {n} ({purpose}) from an empty population")
    limit = (1 << 256) - ((1 << 256) % size)
    counter = 0
    while True:
        message = f"{game_id}|{n}|{purpose}|{counter}".encode()
        value = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest(), "big")
        if value < limit:
            return value % size
        counter += 1


@dataclass_on_first_use()
class SeededChance:
    seed: bytes
    game_id: str
    next_n: int
    draws: list[Draw] = field(default_factory=list)

    def pick(self, purpose: str, population: Sequence[str]) -> str:
        ordered = sorted(population)
        outcome = ordered[derive_index(self.seed, self.game_id, self.next_n, purpose, len(ordered))]
        self.draws.append(Draw(self.next_n, purpose, outcome))
        self.next_n += 1
        return outcome

    def label(self, n: int, purpose: str, length: int) -> str:
        return derive_label(self.seed, self.game_id, n, purpose, length)


@dataclass_on_first_use()
class ReplayChance:
    """Replays recorded draws (verify before the seed is revealed); checks each is possible."""

    recorded: list[Draw]
    next_n: int
    draws: list[Draw] = field(default_factory=list)

    def pick(self, purpose: str, population: Sequence[str]) -> str:
        index = len(self.draws)
        if index >= len(self.recorded):
            raise ReplayMismatch(f"draw {self.next_n} ({purpose}) is not in the log")
        draw = self.recorded[index]
        if draw.n != self.next_n or draw.purpose != purpose or draw.outcome not in population:
            raise ReplayMismatch(
                f"draw {self.next_n}: log says {draw.purpose} -> {draw.outcome}, "
                f"replay needs {purpose} from {len(population)} options"
            )
        self.draws.append(draw)
        self.next_n += 1
        return draw.outcome


LABEL_LETTERS = "abcdefghijklmnopqrstuvwxyz"
LABEL_CHARS = LABEL_LETTERS + "0123456789"


def derive_label(seed: bytes, game_id: str, n: int, purpose: str, length: int = 4) -> str:
    """A short label for the card drawn by draw n, from HMAC(seed, "label|game|n|purpose"): a
    letter, a digit, then letters or digits, `length` characters in all (at least 2). It says
    nothing about the card, and nobody without the seed can predict it."""
    message = f"label|{game_id}|{n}|{purpose}".encode()
    value = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest(), "big")
    value, first = divmod(value, len(LABEL_LETTERS))
    value, second = divmod(value, 10)
    label = LABEL_LETTERS[first] + str(second)
    while len(label) < max(length, 2):
        value, index = divmod(value, len(LABEL_CHARS))
        label += LABEL_CHARS[index]
    return label


class Labelling(Protocol):
    """A Chance that can label the card its draw n put into a hand (hidden-hand rulesets)."""

    def label(self, n: int, purpose: str, length: int) -> str: ...


class ReplayMismatch(Exception):
    pass


@dataclass_on_first_use()
class NoChance:
    """For runs without the seed: the first draw stops the run."""

    draws: list[Draw] = field(default_factory=list)

    def pick(self, purpose: str, population: Sequence[str]) -> str:
        raise SeedNeeded(purpose)


class DrawRefused(Exception):
    """A draw was attempted where none may happen: a probe, or a block with lines left."""


@dataclass_on_first_use()
class RefusingChance:
    """For probes ("would this draw?"): every draw raises DrawRefused and nothing is drawn."""

    draws: list[Draw] = field(default_factory=list)

    def pick(self, purpose: str, population: Sequence[str]) -> str:
        raise DrawRefused(purpose)
