"""What follows at once when the game changes under an ability (run after every decision).

- HAND: a bank holding more cards than its hand limit (its larger-hand ability silenced, sold,
  beheaded or lost to apostasy) discards down to two, a card of its choice at a time.
- G4 Venetian Condottieri, and the promo map's conditional cities: a token left in a slot that
  no longer exists is discarded (Venice back to a single token; Kviv once Hungary is a
  theocracy; Constantinople's third slot once the Ottoman Empire is medieval again).
- PIRATE (Arsenal/Dalmatians): a concession sharing its border with a pirate dies as soon as
  its owner loses the immunity.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.errors import Reason
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import HAND_LIMIT, Ability, ability_event, hand_limit, has_ability
from engine.pax.actions.common import card_choice
from engine.pax.model import (
    banks,
    cat,
    city_name,
    concession_owner,
    describe_token,
    discard,
    player,
    remove_from_border,
)
from engine.pax.places import off_map


def upkeep(t: Table) -> list[Event]:
    if t.state["over"]:
        return []
    events = _stray_tokens(t) + _unprotected_concessions(t)
    _hand_discards(t)
    return events


def _stray_tokens(t: Table) -> list[Event]:
    events: list[Event] = []
    # Whether a slot exists does not depend on the tokens: the strays are known at once.
    for city_id in off_map(t, list(t.state["cities"])):
        tok = t.state["cities"].pop(city_id)
        name = city_name(t, city_id)
        if city_id == "venice_2":
            events.append(ability_event(Ability.CONDOTTIERE_VENICE_TWO_GOLD_TOKENS,
                                        "pax.upkeep.venice", token=describe_token(tok)))
        else:
            events.append(event("pax.upkeep.stray", city=name, token=describe_token(tok)))
    return events


def _unprotected_concessions(t: Table) -> list[Event]:
    events = []
    for border_id, content in list(t.state["borders"].items()):
        if "pirate" not in content:
            continue
        owner = concession_owner(t, border_id)
        if owner is None:
            continue
        if has_ability(t, owner, Ability.CONCESSIONS_IMMUNE_TO_PIRATES):
            continue
        remove_from_border(t, border_id, "concession")
        events.append(ability_event(Ability.CONCESSIONS_IMMUNE_TO_PIRATES, "pax.upkeep.unprotected",
                                    owner=owner, border=cat(t).borders[border_id].name))
    return events


def _hand_discards(t: Table) -> None:
    over = [b for b in banks(t) if len(player(t, b)["hand"]) > HAND_LIMIT]  # else within any limit
    if not over:
        return
    pending = {n["player"] for n in t.agenda if n["action"] == HandDiscard.name}
    nodes: list[Node] = []
    for bank in over:
        limit = hand_limit(t, bank)
        if limit is not None and len(player(t, bank)["hand"]) > limit and bank not in pending:
            nodes.append(new_node(t.state, HandDiscard.name, bank))
    t.agenda[0:0] = nodes


class HandDiscard(Action):
    """HAND: the larger hand size is lost; discard one card of your choice (again until the
    hand is down to the limit)."""

    name = "hand_discard"
    decision = "discard a card down to the hand limit"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [card_choice(t, "discard", c) for c in player(t, node["player"])["hand"]]

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return options[0]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        bank = node["player"]
        card_id = choice.args[0]
        player(t, bank)["hand"].remove(card_id)
        discard(t, card_id)
        return [ability_event(Ability.UNLIMITED_HAND_SIZE, "pax.upkeep.hand_discard", bank=bank)]


class Upkept(Action):
    """An action whose every answer is followed by the upkeep."""

    def __init__(self, inner: Action) -> None:
        self.inner = inner
        self.name = inner.name
        self.decision = inner.decision

    def options(self, t: Table, node: Node) -> list[Choice]:
        return self.inner.options(t, node)

    def listed(self, t: Table, node: Node) -> Sequence[Choice]:
        return self.inner.listed(t, node)

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return self.inner.auto(t, node, options)

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return self.inner.default(t, node, options)

    def explain(self, t: Table, node: Node, line: str) -> str | Reason | None:
        return self.inner.explain(t, node, line)

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        return self.inner.apply(t, node, choice, chance) + upkeep(t)
