"""What every op shares (E4, F, LOCATION): the handler record, how op lines are written, and
where an acting card may act.

An op choice is `op CARD OP TARGET…`: verb "op", first argument "card_id/op_id" (kind
`card_op`), then the op's targets. Handlers list their choices and perform one; a performed op
returns its events and the decisions it queued (tax responses, battles, regime changes…),
which run before the ops decision continues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine.core.agenda import Node
from engine.core.choice import Choice
from engine.core.records import dataclass_on_first_use
from engine.core.table import Event, Table, event
from engine.pax.actions.common import quoted
from engine.pax.model import (
    card_location,
    card_name,
    cat,
    empire_state,
    is_square,
    location_empires,
    vassals_of,
)
from engine.pax.notation import border_line_name, city_line_name, short_empire

REGIONS = ("east", "west")
Done = tuple[list[Event], list[Node]]
TargetsFn = Callable[[Table, str, str, str], Iterator[Choice]]
PerformFn = Callable[[Table, str, Choice], Done]


@dataclass_on_first_use(frozen=True)
class OpHandler:
    """One op type (F1-F9): its legal choices for a card's op id, and how one is done."""

    targets: TargetsFn  # (table, bank, card_id, op_id) -> choices, lazily (see node.py)
    perform: PerformFn  # (table, bank, choice) -> events, follow-ups


def op_type(t: Table, op_id: str) -> str:
    return str(cat(t).ops[op_id]["type"])


def op_param(t: Table, op_id: str, key: str) -> Any:
    return cat(t).ops[op_id].get(key)


def label(t: Table, card_id: str) -> str:
    """How a card is named in op lines: an empire square by its empire, others by name."""
    if is_square(card_id):
        return short_empire(cat(t), cat(t).empire_of_square(card_id))
    return quoted(card_name(t, card_id))


def place_label(t: Table, place: str) -> str:
    if place in cat(t).borders:
        return border_line_name(cat(t), place)
    return city_line_name(t, place)


def op_choice(t: Table, card_id: str, op_id: str, targets: Sequence[str],
              kinds: Sequence[str], words: Sequence[str], *,
              within: Sequence[str] | None = None) -> Choice:
    """An op line; `within` lists the empires it can act from when the handler knows better
    than the targets tell (a tax: the empires that can take the levy)."""
    line = " ".join(["op", label(t, card_id), op_type(t, op_id), *words])
    return Choice("op", (f"{card_id}/{op_id}", *targets), ("card_op", *kinds), line,
                  extra=_in_qualifier(t, card_id, targets, kinds, within))


def _in_qualifier(t: Table, card_id: str, targets: Sequence[str], kinds: Sequence[str],
                  within: Sequence[str] | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """R-514: a "The East"/"The West" card's op line may add `in EMPIRE` even where R-501
    leaves it out; it agrees when the op could act from that empire (the empire of its first
    place or empire target, else any of the region)."""
    acting = acting_empires(t, card_id)
    if len(acting) < 2 or "in" in kinds:
        return ()
    touched: list[str] = list(within or [])
    for target, kind in ([] if within else zip(targets, kinds, strict=True)):
        if kind == "city":
            touched = [cat(t).cities[target].empire]
        elif kind == "border":
            touched = list(cat(t).borders[target].empires)
        elif kind == "empire":
            touched = [target]
        if touched:
            break
    agreeing = [e for e in acting if e in touched] or acting
    return (("in", tuple(agreeing)),)


def split_card_op(choice: Choice) -> tuple[str, str]:
    card_id, op_id = choice.args[0].split("/", 1)
    return card_id, op_id


def op_event(t: Table, bank: str, choice: Choice, msg: str, **args: Any) -> Event:
    """The event every performed op emits (kind `op:TYPE`, counted by self-play): message `msg`
    with `args`, plus who ran which op of which card (`bank`, `op`, `card`)."""
    card_id, op_id = split_card_op(choice)
    return event(msg, kind=f"op:{op_type(t, op_id)}", bank=bank, op=op_type(t, op_id),
                 card=card_name(t, card_id), **args)


def in_words(t: Table, empire_id: str) -> str:
    return f"in {short_empire(cat(t), empire_id)}"


# --- locations ------------------------------------------------------------------------------


def acting_empires(t: Table, card_id: str) -> list[str]:
    """The empires a card may act in: its Location, or for "The East"/"The West" any one of
    that region's empires, chosen by the phasing player (LOCATION)."""
    return location_empires(t, card_location(t, card_id))


def shares_location(t: Table, first: str | None, second: str | None) -> bool:
    """LOCATION, F1: equal Locations, or a region and one of its empires (either way round)."""
    if first is None or second is None:
        return False
    if first == second:
        return True
    if first not in REGIONS and second not in REGIONS:
        return False
    return bool(set(location_empires(t, first)) & set(location_empires(t, second)))


def suzerainty(t: Table, empire_id: str) -> list[str]:
    """A suzerain and its vassals, as empire ids (just the empire when it has neither)."""
    top = empire_state(t, empire_id).get("suzerain") or empire_id
    return [str(top), *vassals_of(t, str(top))]
