"""Play a hand card (E2): the tableau side, the one-shot decision, Old Maids, then agents."""

from __future__ import annotations

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.actions.common import Result, card_choice
from engine.pax.model import card, card_name, player

ONE_SHOT_WORDS = {
    "apostasy": "apostasy", "conspiracy": "conspiracy", "coronation": "coronation",
    "crusade": "crusade", "jihad": "jihad", "peasant_revolt": "peasant revolt",
    "reformation": "reformation", "trade_shift": "trade shift",
}


def play_options(t: Table, bank: str) -> list[Choice]:
    return [card_choice(t, "play", card_id) for card_id in player(t, bank)["hand"]]


def agent_nodes(t: Table, bank: str, card_id: str, *, optional: bool) -> list[Node]:
    """One placement decision per agent icon on the card (E2.2)."""
    agents = card(t, card_id).agents
    return [
        new_node(t.state, "agent", bank, card=card_id, type=agent.type,
                 religion=agent.religion, index=index + 1, of=len(agents),
                 optional=optional, placed=[])
        for index, agent in enumerate(agents)
    ]


def apply_play(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    card_id = choice.args[0]
    me = player(t, bank)
    me["hand"].remove(card_id)
    data = card(t, card_id)
    name = card_name(t, card_id)
    if data.kind == "queen":
        return Result([event(f"{bank.title()} plays the queen {name}.")],
                      [new_node(t.state, "coronation", bank, card=card_id)])
    me[data.deck].append(card_id)
    side = "East" if data.deck == "east" else "West"
    events = [event(f"{bank.title()} plays {name} to the {side} of their tableau.")]
    if data.one_shot is not None:
        return Result(events, [new_node(t.state, "oneshot", bank, card=card_id)])
    return Result(events, agent_nodes(t, bank, card_id, optional=True))


class OneShot(Action):
    """E2: announce whether the card's one-shot occurs. Only implemented one-shots are offered."""

    name = "oneshot"
    decision = "trigger the card's one-shot or not"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [Choice("no oneshot", (), (), "no oneshot")]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        card_id = node["args"]["card"]
        kind = card(t, card_id).one_shot or {}
        word = ONE_SHOT_WORDS.get(str(kind.get("type")), "one-shot")
        events = [event(f"{card_name(t, card_id)} is played without its {word} one-shot "
                        "(one-shots are not yet available in this version of pbem).")]
        t.agenda[0:0] = agent_nodes(t, node["player"], card_id, optional=True)
        return events


class Coronation(Action):
    """I / I2: a queen marries a suitor King, or goes under the player board as an Old Maid."""

    name = "coronation"
    decision = "crown the queen or keep her as an Old Maid"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [Choice("old maid", (), (), "old maid")]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        card_id = node["args"]["card"]
        bank = node["player"]
        maids = player(t, bank)["old_maids"]
        maids.append(card_id)
        maids.sort()
        return [event(f"{card_name(t, card_id)} becomes an Old Maid under {bank.title()}'s "
                      "player board (coronations are not yet available in this version).")]
