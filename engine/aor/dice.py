"""Battle resolution from three dice (9.5.2, B.1): pure functions of the dice and the terms.

The attacker wins when the green die beats their Order-of-Play rank or the black die beats the
white. How each comparison counts (strictly greater, or at least equal) comes from the data
(`battle` in games/aor/tables.yaml): a military advantage in effect relaxes black against white,
Proselytism relaxes green against the rank, and a declared Cathedral settles the battle outright.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.core.chance import Chance
from engine.core.errors import InvariantViolation

FACES = range(1, 7)
RANKS = range(1, 7)


class Compare(StrEnum):
    GREATER = "greater"
    AT_LEAST = "at_least"

    def holds(self, die: int, against: int) -> bool:
        return die > against if self is Compare.GREATER else die >= against


class Cathedral(StrEnum):
    """Who declared Cathedral before the dice (H); never both, since it works only on non-owners."""

    NONE = "none"
    ATTACKER = "attacker"
    DEFENDER = "defender"


class Reason(StrEnum):
    CATHEDRAL = "cathedral"
    GREEN = "green"
    BLACK = "black"
    DICE = "dice"  # neither die succeeded


@dataclass(frozen=True)
class BattleRules:
    green_vs_rank: Compare
    green_vs_rank_with_proselytism: Compare
    black_vs_white: Compare
    black_vs_white_with_military_advantage: Compare
    cathedral_decides: bool


@dataclass(frozen=True)
class Roll:
    green: int
    black: int
    white: int

    def __post_init__(self) -> None:
        for die in (self.green, self.black, self.white):
            if die not in FACES:
                raise InvariantViolation(f"a die shows {die}, not 1-6")

    def __str__(self) -> str:
        return f"green {self.green}, black {self.black}, white {self.white}"


@dataclass(frozen=True)
class Terms:
    """What the attacker brings: rank is their Order-of-Play space (1-6), not their position."""

    rank: int
    military_advantage: bool = False
    proselytism: bool = False
    cathedral: Cathedral = Cathedral.NONE

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise InvariantViolation(f"Order-of-Play rank {self.rank} is not 1-6")


@dataclass(frozen=True)
class Outcome:
    attacker_wins: bool
    reason: Reason


def resolve(roll: Roll, terms: Terms, rules: BattleRules) -> Outcome:
    """Who wins one battle; the Cathedral is checked before the dice, as it is declared first."""
    if rules.cathedral_decides and terms.cathedral is not Cathedral.NONE:
        return Outcome(terms.cathedral is Cathedral.ATTACKER, Reason.CATHEDRAL)
    green = rules.green_vs_rank_with_proselytism if terms.proselytism else rules.green_vs_rank
    if green.holds(roll.green, terms.rank):
        return Outcome(True, Reason.GREEN)
    black = (rules.black_vs_white_with_military_advantage if terms.military_advantage
             else rules.black_vs_white)
    if black.holds(roll.black, roll.white):
        return Outcome(True, Reason.BLACK)
    return Outcome(False, Reason.DICE)


def all_rolls() -> Iterator[Roll]:
    """The 216 equally likely rolls, green slowest."""
    for green in FACES:
        for black in FACES:
            for white in FACES:
                yield Roll(green, black, white)


def win_chance(terms: Terms, rules: BattleRules) -> Fraction:
    """The attacker's exact chance over all 216 rolls (B.1)."""
    wins = sum(1 for roll in all_rolls() if resolve(roll, terms, rules).attacker_wins)
    return Fraction(wins, 216)


def roll_die(chance: Chance, purpose: str) -> int:
    """One public six-sided die, drawn through the game's Chance."""
    return int(chance.pick(purpose, [str(face) for face in FACES]))


def roll(chance: Chance, purpose: str) -> Roll:
    """The three dice of a battle or a shortage/surplus roll, each drawn under its colour."""
    return Roll(*(roll_die(chance, f"{purpose} {colour}") for colour in ("green", "black", "white")))
