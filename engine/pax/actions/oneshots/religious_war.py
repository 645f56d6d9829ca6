"""Religious wars (K1, K2): a crusade, reformation or jihad in the card's Location, fought by the
believers (the one-shot's religion) against the heretics (the other two).

Attackers (all must fight): the card's agents except bishops and pawns; believer knights and
rooks in the empire's cities; believer pirates on its borders; believer knights in every
adjacent empire (diagonals included). Defenders: heretic knights and rooks in its cities and
heretic pirates on its borders. Repressed tokens never fight. The bloody rule: no heretics, no
war. Bishop and pawn agents are placed after the battle. A victory makes the empire a theocracy
of the believers' religion (battle.BattleWon), then a REGIME CHANGE.
"""

from __future__ import annotations

from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event, has_ability
from engine.pax.actions.oneshots.common import (
    agent_fighters,
    agent_nodes,
    border_fighters,
    city_fighters,
    empire_name,
    kind_of,
    one_shot,
)
from engine.pax.battle import Fighter, start_battle
from engine.pax.model import card_name, cat, token_colour, token_kind
from engine.pax.places import adjacent, separated


def believers(t: Table, card_id: str) -> str:
    return str(one_shot(t, card_id)["attacker"])


def heretic_colours(t: Table, card_id: str) -> list[str]:
    return [str(r) for r in one_shot(t, card_id)["defenders"]]


def rooks_join(t: Table, bank: str, card_id: str) -> bool:
    """Knights Hospitaller: in the owner's crusades, adjacent gold rooks fight as knights."""
    return kind_of(t, card_id) == "crusade" and has_ability(
        t, bank, Ability.CRUSADE_ROOKS_COUNT_AS_KNIGHTS)


def _adjacent_believers(t: Table, empire_id: str, faith: str, kinds: tuple[str, ...]
                        ) -> list[Fighter]:
    return [f for f in city_fighters(t, empire_id, "adjacent")
            if token_kind(f["token"]) in kinds and token_colour(f["token"]) == faith]


def attackers(t: Table, bank: str, card_id: str, target: str) -> list[Fighter]:
    faith = believers(t, card_id)
    fighters = agent_fighters(t, bank, card_id, exclude=("bishop", "pawn"))
    fighters += [f for f in city_fighters(t, target) if token_colour(f["token"]) == faith]
    fighters += [f for f in border_fighters(t, target, "pirate")
                 if token_colour(f["token"]) == faith]
    kinds = ("knight", "rook") if rooks_join(t, bank, card_id) else ("knight",)
    for neighbour in adjacent(t, target):
        fighters += _adjacent_believers(t, neighbour, faith, kinds)
    return fighters


def ability_notes(t: Table, bank: str, card_id: str, target: str) -> list[Event]:
    """The abilities that changed who fights (Knights Hospitaller, Catherine of Navarre)."""
    faith = believers(t, card_id)
    notes = []
    if rooks_join(t, bank, card_id):
        rooks = sum(len(_adjacent_believers(t, n, faith, ("rook",))) for n in adjacent(t, target))
        if rooks:
            notes.append(ability_event(Ability.CRUSADE_ROOKS_COUNT_AS_KNIGHTS,
                                       "pax.oneshot.crusade_rooks", count=rooks))
    cut = [n for n in cat(t).empires[target].adjacent if separated(t, target, n)
           and _adjacent_believers(t, n, faith, ("knight",))]
    if cut:
        notes.append(ability_event(Ability.PORTUGAL_FRANCE_NOT_ADJACENT,
                                   "pax.oneshot.not_adjacent", empire=empire_name(t, cut[0])))
    return notes


def defenders(t: Table, card_id: str, target: str) -> list[Fighter]:
    heretics = heretic_colours(t, card_id)
    fighters = [f for f in city_fighters(t, target) if token_colour(f["token"]) in heretics]
    fighters += [f for f in border_fighters(t, target, "pirate")
                 if token_colour(f["token"]) in heretics]
    return fighters


class ReligiousWar:
    per_empire = True

    def possible(self, t: Table, bank: str, card_id: str, empire: str | None) -> bool:
        """K1c, the bloody rule: heretics to kill; and a battle needs an attacker (R-401)."""
        if empire is None:
            return False
        return bool(defenders(t, card_id, empire)) and bool(attackers(t, bank, card_id, empire))

    def trigger(self, t: Table, bank: str, card_id: str, empire: str | None) -> list[Event]:
        assert empire is not None
        kind = kind_of(t, card_id)
        faith = believers(t, card_id)
        events = [event(f"pax.oneshot.holy_war.{kind}", kind=f"oneshot:{kind}", bank=bank,
                        card=card_name(t, card_id), empire=empire_name(t, empire), religion=faith)]
        events += ability_notes(t, bank, card_id, empire)
        started, battle = start_battle(
            t, bank, target=empire, kind=kind,
            attackers=attackers(t, bank, card_id, empire),
            defenders=defenders(t, card_id, empire),
            victory={"cause": "religious_war", "religion": faith})
        t.agenda[0:0] = [battle, *agent_nodes(t, bank, card_id, optional=False,
                                              types=("bishop", "pawn"))]
        return events + started
