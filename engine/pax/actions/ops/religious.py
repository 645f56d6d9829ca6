"""The inquisitor op (F1): move a bishop of the icon's religion, wherever it sits.

A bishop may go to an adjacent card in the same tableau (ADJACENT: couples and suzerainties
sit together, and each is adjacent to the cards beside it; the player board separates East
from West), or to any card or throne with the same Location as the card it sits on (the
East/West rule of F1e), and from there anywhere in that card's suzerainty (F1d). Never onto a
player board, never throne to throne; Diet of Worms and pacification apply on arrival.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.choice import Choice
from engine.core.table import Table
from engine.pax.actions.ops.base import (
    REGIONS,
    Done,
    OpHandler,
    label,
    op_choice,
    op_event,
    op_param,
    shares_location,
    suzerainty,
)
from engine.pax.bishops import arrive, bishop_place
from engine.pax.model import (
    banks,
    card_location,
    cat,
    empire_state,
    is_square,
    owner_of,
    player,
    square_of,
    with_dependants,
)


def tableau_neighbours(t: Table, bank: str, card_id: str) -> list[str]:
    """ADJACENT within one tableau: the rest of the card's stack and the stacks beside it."""
    for side in REGIONS:
        stacks = [with_dependants(t, entry) for entry in player(t, bank)[side]]
        for index, stack in enumerate(stacks):
            if card_id not in stack:
                continue
            near = [c for c in stack if c != card_id]
            for other in (index - 1, index + 1):
                if 0 <= other < len(stacks):
                    near += stacks[other]
            return near
    return []


def _is_throne(t: Table, card_id: str) -> bool:
    return is_square(card_id) and empire_state(t, cat(t).empire_of_square(card_id))["ruler"] is None


def _all_places(t: Table) -> list[str]:
    """Every card a bishop may sit on: tableau cards of every player and every throne."""
    places: list[str] = []
    for bank in banks(t):
        for side in REGIONS:
            for entry in player(t, bank)[side]:
                places += with_dependants(t, entry)
    places += [square_of(e) for e, d in sorted(t.state["empires"].items()) if d["ruler"] is None]
    return places


def _reachable(t: Table, source: str) -> Iterator[str]:
    """The cards a bishop on `source` reaches (F1, F1c-e), repeats and thrones included."""
    owner = owner_of(t, source)
    if owner is not None:
        yield from tableau_neighbours(t, owner, source)
    location = card_location(t, source)
    for place in _all_places(t):
        if shares_location(t, card_location(t, place), location):
            yield place
            if is_square(place):
                yield from (square_of(e) for e in suzerainty(t, cat(t).empire_of_square(place)))


def destinations(t: Table, source: str) -> Iterator[str]:
    """Where a bishop on `source` may move (F1, F1c-e), each once, in the order reached."""
    from_throne = _is_throne(t, source)
    seen = {source}
    for place in _reachable(t, source):
        if place in seen or (from_throne and _is_throne(t, place)):
            continue
        seen.add(place)
        yield place


def inquisitor_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    religion = op_param(t, op_id, "religion")
    for source, colour in sorted(t.state["bishops"].items()):
        if colour != religion:
            continue
        for target in destinations(t, source):
            yield op_choice(t, card_id, op_id, (source, target), ("card", "card"),
                            (label(t, source), label(t, target)))


def inquisitor_perform(t: Table, bank: str, choice: Choice) -> Done:
    source, target = choice.args[1], choice.args[2]
    religion = t.state["bishops"].pop(source)
    leaves, source_args = bishop_place(t, source, "from_")
    goes, target_args = bishop_place(t, target, "to_")
    moved = op_event(t, bank, choice, f"pax.op.inquisitor.{leaves}.{goes}", religion=religion,
                     **source_args, **target_args)
    events, follow = arrive(t, bank, religion, target, how="moves")
    return [moved, *events], follow


INQUISITOR = OpHandler(inquisitor_targets, inquisitor_perform)
