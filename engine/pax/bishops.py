"""A bishop arriving on a card or throne (E2.2a, F1): Diet of Worms, then pacification.

Bishops sit on tableau cards or on empire squares, keyed by card id (a square keeps its bishop
on its throne and in a tableau alike). Placement by agents and moves by the inquisitor op both
come through `arrive`.

Silencing (F1f, I1): a bishop on a card, or on either half of a royal couple, leaves the card
only its religious ops and none of its abilities; prestige is never silenced. Ops and abilities
ask `usable_ops` and `active_abilities`.
"""

from __future__ import annotations

from typing import Any

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import (
    Ability,
    abilities_of,
    ability_event,
    active_abilities,
    is_immune,
    silenced,
    usable_ops,
)
from engine.pax.model import (
    card_name,
    cat,
    describe_token,
    empire_state,
    is_square,
    owner_of,
)

__all__ = ["Pacify", "abilities_of", "active_abilities", "arrive", "bishop_place", "silenced",
           "usable_ops"]

SKIP = Choice("skip", (), (), "skip")


def bishop_place(t: Table, target: str, prefix: str = "") -> tuple[str, dict[str, Any]]:
    """Where a bishop sits, for a message: ("throne", {empire}) for an empire square on its
    throne, else ("card", {card}); the id part tells the two wordings apart, and `prefix` the
    arguments of two places in one message."""
    if is_square(target):
        empire_id = cat(t).empire_of_square(target)
        if empire_state(t, empire_id)["ruler"] is None:
            return "throne", {f"{prefix}empire": cat(t).empires[empire_id].name}
    return "card", {f"{prefix}card": card_name(t, target)}


def arrive(t: Table, bank: str, religion: str, target: str, *, how: str = "places"
           ) -> tuple[list[Event], list[Node]]:
    """`bank` places or moves (`how`) a bishop of `religion` onto `target`; returns events and
    a pacification decision when one is due."""
    bishops = t.state["bishops"]
    spot, place = bishop_place(t, target)
    if target in bishops:
        killed = bishops.pop(target)
        return [event(f"pax.bishop.diet_of_worms.{spot}", religion=religion, killed=killed,
                      **place)], []
    bishops[target] = religion
    t.state["bishops"] = dict(sorted(bishops.items()))
    events = [event(f"pax.bishop.{how}.{spot}", bank=bank, religion=religion, **place)]
    owner = owner_of(t, target)
    if owner is not None and is_immune(t, owner):
        events.append(ability_event(Ability.IMMUNE_TO_SILENCING, f"pax.bishop.immune.{spot}",
                                    owner=owner, **place))
    if is_square(target):
        empire_id = cat(t).empire_of_square(target)
        if empire_state(t, empire_id)["repressed"]:
            return events, [new_node(t.state, "pacify", bank, empire=empire_id)]
    return events, []


class Pacify(Action):
    """F1b: a bishop arriving alone may kill one repressed token on the square."""

    name = "pacify"
    decision = "kill one repressed token (pacification) or skip"

    def options(self, t: Table, node: Node) -> list[Choice]:
        repressed = empire_state(t, node["args"]["empire"])["repressed"]
        kills = [Choice("kill", (tok,), ("token",), f"kill {describe_token(tok)}")
                 for tok in sorted(set(repressed))]
        return kills + [SKIP]

    def default(self, t: Table, node: Node, options: list[Choice]) -> Choice:  # type: ignore[override]
        return SKIP

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        empire = cat(t).empires[node["args"]["empire"]].name
        if choice.verb == "skip":
            return [event("pax.bishop.pacify.skip", empire=empire)]
        tok = choice.args[0]
        empire_state(t, node["args"]["empire"])["repressed"].remove(tok)
        return [event("pax.bishop.pacify", empire=empire, token=describe_token(tok))]
