"""Shared pieces of the one-shot handlers: their shape, the card's one-shot data, agent nodes
and battle fighters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.core.agenda import Node, new_node
from engine.core.choice import Choice
from engine.core.table import Event, Table
from engine.pax.battle import Fighter
from engine.pax.model import card, cat, token
from engine.pax.places import cities_of

RESOLVE = Choice("resolve", (), (), "resolve")


class Handler(Protocol):
    """One one-shot verb (H1, J1, J2, K1, K3); its parameters come from the card's data."""

    per_empire: bool  # a card of "The East"/"The West" names the empire it strikes (LOCATION)

    def possible(self, t: Table, bank: str, card_id: str, empire: str | None) -> bool:
        """Whether the one-shot may be triggered (in `empire`, for a one-shot that has one)."""
        ...

    def trigger(self, t: Table, bank: str, card_id: str, empire: str | None) -> list[Event]:
        """Do it: mutate the table and queue the follow-up decisions at the agenda's front."""
        ...


def one_shot(t: Table, card_id: str) -> dict[str, Any]:
    data = card(t, card_id).one_shot
    assert data is not None, f"{card_id} has no one-shot"
    return data


def kind_of(t: Table, card_id: str) -> str:
    return str(one_shot(t, card_id)["type"])


def empire_name(t: Table, empire_id: str) -> str:
    return cat(t).empires[empire_id].name


def agent_nodes(t: Table, bank: str, card_id: str, *, optional: bool,
                types: Sequence[str] | None = None) -> list[Node]:
    """One placement decision per agent icon on the card (E2.2), optionally only some types;
    `optional` False is E2.1's "must deploy" (skipped only where no placement is legal)."""
    agents = card(t, card_id).agents
    return [
        new_node(t.state, "agent", bank, card=card_id, type=agent.type,
                 religion=agent.religion, index=index + 1, of=len(agents),
                 optional=optional, placed=[])
        for index, agent in enumerate(agents)
        if types is None or agent.type in types
    ]


def agent_fighters(t: Table, bank: str, card_id: str, *, exclude: Sequence[str]) -> list[Fighter]:
    """The card's agents that fight (J1a, J2a, K1a): a pawn agent is the player's colour."""
    fighters: list[Fighter] = []
    for agent in card(t, card_id).agents:
        if agent.type in exclude:
            continue
        colour = bank if agent.type == "pawn" else str(agent.religion)
        fighters.append({"token": token(agent.type, colour), "from": "agent", "at": card_id})
    return fighters


def city_fighters(t: Table, empire_id: str, source: str = "city") -> list[Fighter]:
    """The ruling class in an empire's cities, as fighters."""
    return [{"token": t.state["cities"][city_id], "from": source, "at": city_id}
            for city_id in cities_of(t, empire_id) if city_id in t.state["cities"]]


def border_fighters(t: Table, empire_id: str, role: str) -> list[Fighter]:
    """Pirates or concessions (`role`) on the borders of an empire, as fighters."""
    fighters: list[Fighter] = []
    for border_id in cat(t).empires[empire_id].borders:
        tok = t.state["borders"].get(border_id, {}).get(role)
        if tok:
            fighters.append({"token": tok, "from": "border", "at": border_id})
    return fighters


def repressed_fighters(t: Table, empire_id: str, kinds: Sequence[str]) -> list[Fighter]:
    return [{"token": tok, "from": "repressed", "at": empire_id}
            for tok in t.state["empires"][empire_id]["repressed"]
            if tok.split(":", 1)[0] in kinds]
