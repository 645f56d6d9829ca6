"""Civil wars (J): a conspiracy (J1) or a peasant revolt (J2) in the card's Location, fought as a
BATTLE against the ruling class; victory is a REGIME CHANGE.

Attackers (all must fight):
- both: the card's agents except bishops, and every pirate on the empire's borders;
- conspiracy: the knights and rooks repressed on the empire's square;
- peasant revolt: the player's own concessions on its borders and every serf (a repressed pawn
  of any colour, even another player's) on its square.
Defenders: every knight and rook in its cities, whatever the colour. Bishop agents are placed
after the battle.
"""

from __future__ import annotations

from engine.core.table import Event, Table, event
from engine.pax.actions.oneshots.common import (
    agent_fighters,
    agent_nodes,
    border_fighters,
    city_fighters,
    empire_name,
    repressed_fighters,
)
from engine.pax.battle import Fighter, start_battle
from engine.pax.model import card_name, token

CONSPIRACY, PEASANT_REVOLT = "conspiracy", "peasant_revolt"


def attackers(t: Table, bank: str, card_id: str, target: str, kind: str) -> list[Fighter]:
    fighters = agent_fighters(t, bank, card_id, exclude=("bishop",))
    fighters += border_fighters(t, target, "pirate")
    if kind == CONSPIRACY:
        fighters += repressed_fighters(t, target, ("knight", "rook"))
    else:
        fighters += [f for f in border_fighters(t, target, "concession")
                     if f["token"] == token("pawn", bank)]
        fighters += repressed_fighters(t, target, ("pawn",))
    return fighters


class CivilWar:
    per_empire = True

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def possible(self, t: Table, bank: str, card_id: str, empire: str | None) -> bool:
        """A battle needs at least one attacker (R-401: no empty attacks)."""
        return empire is not None and bool(attackers(t, bank, card_id, empire, self.kind))

    def trigger(self, t: Table, bank: str, card_id: str, empire: str | None) -> list[Event]:
        assert empire is not None
        events = [event(f"pax.oneshot.launch.{self.kind}", kind=f"oneshot:{self.kind}", bank=bank,
                        card=card_name(t, card_id), empire=empire_name(t, empire))]
        started, battle = start_battle(
            t, bank, target=empire, kind=self.kind,
            attackers=attackers(t, bank, card_id, empire, self.kind),
            defenders=city_fighters(t, empire), victory={"cause": self.kind})
        t.agenda[0:0] = [battle, *agent_nodes(t, bank, card_id, optional=False,
                                              types=("bishop",))]
        return events + started
