"""Play a hand card (E2): the tableau side, the one-shot decision (E2.1), coronations and Old
Maids (I), then agents (E2.2). The one-shots themselves are in engine.pax.actions.oneshots."""

from __future__ import annotations

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event
from engine.pax.actions.common import Result, card_choice
from engine.pax.model import card, card_name, cat, player
from engine.pax.notation import short_empire

NO_ONESHOT = Choice("no oneshot", (), (), "no oneshot")
OLD_MAID = Choice("old maid", (), (), "old maid")


def play_options(t: Table, bank: str) -> list[Choice]:
    return [card_choice(t, "play", card_id) for card_id in player(t, bank)["hand"]]


def apply_play(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    card_id = choice.args[0]
    me = player(t, bank)
    data = card(t, card_id)
    name = card_name(t, card_id)
    if data.kind == "queen":
        # She stays in the hand until the coronation decision places her (every card is
        # always in exactly one zone).
        return Result([event("pax.play.queen", bank=bank, card=name)],
                      [new_node(t.state, "coronation", bank, card=card_id)])
    me["hand"].remove(card_id)
    me[data.deck].append(card_id)
    events = [event("pax.play.card", bank=bank, card=name, side=data.deck)]
    if data.one_shot is not None:
        return Result(events, [new_node(t.state, "oneshot", bank, card=card_id)])
    from engine.pax.actions.oneshots.common import agent_nodes  # start-up: loaded on first use

    return Result(events, agent_nodes(t, bank, card_id, optional=True))


class OneShot(Action):
    """E2: announce whether the card's one-shot occurs. `oneshot` (or `oneshot in EMPIRE` for a
    card of "The East"/"The West") is listed only when the one-shot is possible; then its agents
    must be deployed. `no oneshot` is always legal; its agents are optional."""

    name = "oneshot"
    decision = "trigger the card's one-shot or not"

    def options(self, t: Table, node: Node) -> list[Choice]:
        from engine.pax.actions.oneshots import oneshot_options  # start-up: on first use

        return oneshot_options(t, node["player"], node["args"]["card"]) + [NO_ONESHOT]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        from engine.pax.actions.oneshots import trigger  # start-up: loaded on first use
        from engine.pax.actions.oneshots.common import agent_nodes, kind_of

        card_id = node["args"]["card"]
        bank = node["player"]
        if node["args"].get("sold"):  # Machiavellianism: the sold card's one-shot, or nothing
            if choice.verb == "no oneshot":
                return []
            note = ability_event(Ability.SELL_TO_TRIGGER_ONE_SHOT, "pax.play.sold_oneshot", bank=bank,
                                 card=card_name(t, card_id))
            return [note, *trigger(t, bank, card_id, choice.args[0] if choice.args else None)]
        if choice.verb == "no oneshot":
            t.agenda[0:0] = agent_nodes(t, bank, card_id, optional=True)
            # The one-shot's kind names it, in each kind's own words.
            return [event(f"pax.play.no_oneshot.{kind_of(t, card_id)}", card=card_name(t, card_id))]
        return trigger(t, bank, card_id, choice.args[0] if choice.args else None)


class Coronation(Action):
    """I / I2: a queen marries an unmarried suitor King (in his throne or the player's own
    tableau), or goes under the player board as an Old Maid."""

    name = "coronation"
    decision = "crown the queen or keep her as an Old Maid"

    def options(self, t: Table, node: Node) -> list[Choice]:
        from engine.pax.actions.oneshots.coronation import suitors  # start-up: on first use

        marriages = [Choice("marry", (empire_id,), ("empire",),
                            f"marry {short_empire(cat(t), empire_id)}")
                     for empire_id in suitors(t, node["player"], node["args"]["card"])]
        return marriages + [OLD_MAID]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        card_id = node["args"]["card"]
        bank = node["player"]
        player(t, bank)["hand"].remove(card_id)
        if choice.verb == "marry":
            from engine.pax.actions.oneshots.coronation import marry  # start-up: first use

            events, follow = marry(t, bank, card_id, choice.args[0])
            t.agenda[0:0] = follow
            return events
        maids = player(t, bank)["old_maids"]
        maids.append(card_id)
        maids.sort()
        return [event("pax.play.old_maid", card=card_name(t, card_id), bank=bank)]
