"""Apostasy (K3): every tableau holding prestige of both named religions discards every card with
either of them, the active player's own included. No battle.

- The card's agents deploy first (E2.1), so a card that condemns itself deploys them before
  dying (martyr's disciples).
- An empire square returns to its throne with its vassals, bishop and repressed tokens; a royal
  couple returns to the throne together, still married, whichever half was condemned.
- Old Maids are not in the tableau: they neither count nor go.
"""

from __future__ import annotations

from typing import Any

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event, has_ability
from engine.pax.actions.oneshots.common import RESOLVE, agent_nodes, empire_name, one_shot
from engine.pax.model import (
    banks,
    card_name,
    card_prestige,
    cat,
    discard,
    empire_state,
    husband_of,
    is_square,
    remove_from_tableau,
    return_to_throne,
    tableau,
)


def religions(t: Table, card_id: str) -> tuple[str, str]:
    first, second = one_shot(t, card_id)["religions"]
    return str(first), str(second)


def held_prestige(t: Table, bank: str) -> set[str]:
    """The prestige kinds a tableau holds (Old Maids aside)."""
    return {kind for c in tableau(t, bank) for kind in card_prestige(t, c)}


def exposed_faiths(t: Table, bank: str) -> set[str]:
    """The kinds that put a tableau on trial and condemn it when an apostasy names two of
    them: all it holds, none under Epicurean Swerve (immune_to_apostasy)."""
    if has_ability(t, bank, Ability.IMMUNE_TO_APOSTASY):
        return set()
    return held_prestige(t, bank)


def _with_either(t: Table, bank: str, faiths: tuple[str, str]) -> list[str]:
    return [c for c in tableau(t, bank) if set(card_prestige(t, c)) & set(faiths)]


def on_trial(t: Table, bank: str, faiths: tuple[str, str]) -> list[str]:
    """The cards a tableau holds with either prestige, if it holds both (Old Maids aside)."""
    return _with_either(t, bank, faiths) if set(faiths) <= held_prestige(t, bank) else []


def condemned(t: Table, bank: str, faiths: tuple[str, str]) -> list[str]:
    """The cards a tableau must discard: on trial, and not immune (none when it is not on
    trial: a tableau holding both faiths holds a card with either)."""
    return _with_either(t, bank, faiths) if set(faiths) <= exposed_faiths(t, bank) else []


class Apostasy:
    per_empire = False

    def possible(self, t: Table, bank: str, card_id: str, empire: str | None) -> bool:
        """Only when some tableau would discard (R-402): a trial that condemns nobody changes
        nothing but the agents, which `no oneshot` places as well."""
        faiths = religions(t, card_id)
        return any(condemned(t, other, faiths) for other in banks(t))

    def trigger(self, t: Table, bank: str, card_id: str, empire: str | None) -> list[Event]:
        first, second = religions(t, card_id)
        events = [event("pax.apostasy.trigger", kind="oneshot:apostasy", bank=bank,
                        card=card_name(t, card_id), first=first, second=second)]
        trial = new_node(t.state, "apostasy", bank, card=card_id, religions=[first, second])
        t.agenda[0:0] = [*agent_nodes(t, bank, card_id, optional=False), trial]
        return events


def _send_home(t: Table, empire_id: str) -> Event:
    """A condemned square goes home, with its queen (a couple) and its vassals, if any."""
    data = empire_state(t, empire_id)
    queen = data.get("queen")
    moved = return_to_throne(t, empire_id, keep_queen=True)
    args: dict[str, Any] = {"empire": empire_name(t, empire_id)}
    if queen:
        args["queen"] = card_name(t, queen)
    freed = [empire_name(t, e) for e in moved[1:]]
    if freed:
        args["vassals"] = freed
    vassals = "" if not freed else ".vassal" if len(freed) == 1 else ".vassals"
    return event(f"pax.apostasy.home{'.couple' if queen else ''}{vassals}", **args)


class ApostasyTrial(Action):
    """K3 resolved once the card's agents are placed; a forced step, answered by itself."""

    name = "apostasy"
    decision = "resolve the apostasy"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [RESOLVE]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        first, second = node["args"]["religions"]
        faiths = (str(first), str(second))
        verdicts = {bank: condemned(t, bank, faiths) for bank in banks(t)}
        events: list[Event] = [
            ability_event(Ability.IMMUNE_TO_APOSTASY, "pax.apostasy.immune", bank=bank)
            for bank in banks(t) if on_trial(t, bank, faiths) and not verdicts[bank]]
        condemning = False
        for bank, cards in verdicts.items():
            if not cards:
                continue
            condemning = True
            events.append(event("pax.apostasy.loses", bank=bank, first=first, second=second,
                                cards=[card_name(t, c) for c in cards]))
            for card_id in cards:
                events += _condemn(t, card_id)
        if not condemning:
            events.append(event("pax.apostasy.nobody", first=first, second=second))
        return events


def _condemn(t: Table, card_id: str) -> list[Event]:
    if is_square(card_id):
        empire_id = cat(t).empire_of_square(card_id)
        if empire_state(t, empire_id)["ruler"] is None:
            return []  # already home, with a condemned spouse or suzerain
        return [_send_home(t, empire_id)]
    husband = husband_of(t, card_id)
    if husband is not None:
        if empire_state(t, husband)["ruler"] is None:
            return []
        return [_send_home(t, husband)]
    remove_from_tableau(t, card_id)
    discard(t, card_id)
    return [event("pax.apostasy.discarded", card=card_name(t, card_id))]
