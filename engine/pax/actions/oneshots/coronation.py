"""Coronation (I, I1): a queen marries one of her suitors, an unmarried King in his throne or in
the player's own tableau. The couple sits on the King's side of the tableau (the queen is kept
on her husband's empire, `empires.<e>.queen`, and takes his Location), and the marriage is a
REGIME CHANGE: a King from the throne joins the tableau with his bishop, and the player may
place a concession and emancipate."""

from __future__ import annotations

from engine.core.agenda import Node
from engine.core.table import Event, Table, event
from engine.pax.actions.oneshots.common import empire_name, one_shot
from engine.pax.model import card_name, empire_state
from engine.pax.regime import regime_change


def suitors(t: Table, bank: str, queen_id: str) -> list[str]:
    """The suitors she may marry now: King side up, unmarried, in his throne or `bank`'s
    tableau (a vassal in that tableau is a King there too)."""
    eligible = []
    for empire_id in one_shot(t, queen_id)["suitors"]:
        data = empire_state(t, str(empire_id))
        if data["side"] == "king" and not data.get("queen") and data["ruler"] in (None, bank):
            eligible.append(str(empire_id))
    return eligible


def marry(t: Table, bank: str, queen_id: str, empire_id: str) -> tuple[list[Event], list[Node]]:
    data = empire_state(t, empire_id)
    where = "from his throne" if data["ruler"] is None else "in their tableau"
    data["queen"] = queen_id
    events = [event(f"{bank.title()} crowns {card_name(t, queen_id)}: she marries the King of "
                    f"{empire_name(t, empire_id)} {where}, forming a royal couple.",
                    kind="oneshot:coronation")]
    changed, follow = regime_change(t, bank, empire_id, cause="coronation")
    return events + changed, follow
