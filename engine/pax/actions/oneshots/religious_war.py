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
from engine.pax.actions.oneshots.common import (
    agent_fighters,
    agent_nodes,
    border_fighters,
    city_fighters,
    empire_name,
    kind_of,
    one_shot,
    word,
)
from engine.pax.battle import Fighter, start_battle
from engine.pax.model import card_name, cat, token_colour, token_kind


def believers(t: Table, card_id: str) -> str:
    return str(one_shot(t, card_id)["attacker"])


def heretic_colours(t: Table, card_id: str) -> list[str]:
    return [str(r) for r in one_shot(t, card_id)["defenders"]]


def attackers(t: Table, bank: str, card_id: str, target: str) -> list[Fighter]:
    faith = believers(t, card_id)
    fighters = agent_fighters(t, bank, card_id, exclude=("bishop", "pawn"))
    fighters += [f for f in city_fighters(t, target) if token_colour(f["token"]) == faith]
    fighters += [f for f in border_fighters(t, target, "pirate")
                 if token_colour(f["token"]) == faith]
    for neighbour in cat(t).empires[target].adjacent:
        fighters += [f for f in city_fighters(t, neighbour, "adjacent")
                     if token_kind(f["token"]) == "knight" and token_colour(f["token"]) == faith]
    return fighters


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
        events = [event(f"{bank.title()} launches the {word(kind)} of {card_name(t, card_id)} "
                        f"in {empire_name(t, empire)}: {faith} believers against the heretics.",
                        kind=f"oneshot:{kind}")]
        started, battle = start_battle(
            t, bank, target=empire, kind=kind,
            attackers=attackers(t, bank, card_id, empire),
            defenders=defenders(t, card_id, empire),
            victory={"cause": "religious_war", "religion": faith})
        t.agenda[0:0] = [battle, *agent_nodes(t, bank, card_id, optional=False,
                                              types=("bishop", "pawn"))]
        return events + started
