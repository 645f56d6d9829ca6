"""Shared pieces of the Pax action handlers: how choices are written, follow-up bookkeeping."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.records import dataclass_on_first_use
from engine.core.table import Event, Table
from engine.pax.model import card_name

ACTIONS_PER_TURN = 2  # D1


def quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


def card_choice(t: Table, verb: str, card_id: str) -> Choice:
    return _card_choice(verb, card_id, card_name(t, card_id))


@lru_cache(maxsize=4096)
def _card_choice(verb: str, card_id: str, name: str) -> Choice:
    """Built once: a Choice is immutable, and the option lists ask for the same ones after
    every answer."""
    return Choice(verb, (card_id,), ("card",), f"{verb} {quoted(name)}")


@dataclass_on_first_use()
class Result:
    """What a turn action did: events, and the decisions it queued before the turn goes on."""

    events: list[Event]
    follow_ups: list[Node]


OptionsFn = Callable[[Table, str], list[Choice]]
ApplyFn = Callable[[Table, str, Choice, Chance], Result]
Cost = tuple[int, Event | None]  # actions used, and the ability event when one changed it
CostFn = Callable[[Table, str, Choice], Cost]


def one_action(t: Table, bank: str, choice: Choice) -> Cost:
    return 1, None


@dataclass_on_first_use(frozen=True)
class Verb:
    """One main-turn action (E1-E6, and the ability actions): its legal choices, its
    handler, its per-turn limit buckets (D1) and how many of the turn's actions it uses."""

    options: OptionsFn
    apply: ApplyFn
    limits: Callable[[Choice], tuple[str, ...]]  # per-turn limit buckets (D1)
    once: bool  # at most once per turn (ops and fairs per side, victory, ability actions)
    cost: CostFn = one_action
    same_cost: bool = False  # the cost is the same for every choice: asked once per list
    # Whether a line of it may cost no action now (None: every line costs at least one): with
    # no action left, a verb that cannot be free lists nothing, and its lines are not made.
    free: Callable[[Table, str], bool] | None = None
