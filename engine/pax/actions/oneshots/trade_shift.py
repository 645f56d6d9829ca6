"""Trade shift (H1): the busted disk on the card's emporium moves to the open emporium of the
same colour, repressing any token there for free; later trade fairs start from the freed one."""

from __future__ import annotations

from typing import Any

from engine.core.table import Event, Table, event
from engine.pax.actions.oneshots.common import agent_nodes, empire_name, one_shot
from engine.pax.model import (
    card_name,
    card_prestige,
    cat,
    describe_token,
    repress,
    tableau,
)

DISCOVERY = "discovery"


def destination(t: Table, shot: dict[str, Any]) -> str | None:
    """The open emporium of the same colour, which the disk will cover."""
    for emporium_id in shot["disk_moves_to_first_unbusted_of"]:
        if emporium_id not in t.state["busted"]:
            return str(emporium_id)
    return None


def discovery_elsewhere(t: Table, bank: str, card_id: str) -> int:
    """H1 Spice Islands requirement: Discovery prestige in the tableau, not counting the card
    being played (Old Maids are not in the tableau)."""
    return sum(card_prestige(t, c).count(DISCOVERY) for c in tableau(t, bank) if c != card_id)


class TradeShift:
    per_empire = False

    def possible(self, t: Table, bank: str, card_id: str, empire: str | None) -> bool:
        shot = one_shot(t, card_id)
        if shot["emporium"] not in t.state["busted"] or destination(t, shot) is None:
            return False
        needed = int(shot.get("requires_discovery_prestige", 0))
        return discovery_elsewhere(t, bank, card_id) >= needed

    def trigger(self, t: Table, bank: str, card_id: str, empire: str | None) -> list[Event]:
        shot = one_shot(t, card_id)
        freed, covered = str(shot["emporium"]), destination(t, shot)
        assert covered is not None
        cities = cat(t).cities
        busted = t.state["busted"]
        busted.remove(freed)
        busted.append(covered)
        busted.sort()
        side = cat(t).emporia[freed]["trade_fair"]
        events = [event("pax.oneshot.trade_shift", kind="oneshot:trade_shift", bank=bank,
                        card=card_name(t, card_id), source=cities[freed].name,
                        goal=cities[covered].name)]
        occupant = t.state["cities"].pop(covered, None)
        if occupant is not None:
            home = cities[covered].empire
            repress(t, occupant, home)
            events.append(event("pax.oneshot.trade_shift.repressed", token=describe_token(occupant),
                                city=cities[covered].name, empire=empire_name(t, home)))
        events.append(event("pax.oneshot.trade_shift.fairs", side=side, city=cities[freed].name))
        t.agenda[0:0] = agent_nodes(t, bank, card_id, optional=False)
        return events
