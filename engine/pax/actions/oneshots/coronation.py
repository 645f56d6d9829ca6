"""Coronation (I, I1): a queen marries one of her suitors, an unmarried King in his throne or in
the player's own tableau. The couple sits on the King's side of the tableau (the queen is kept
on her husband's empire, `empires.<e>.queen`, and takes his Location), and the marriage is a
REGIME CHANGE: a King from the throne joins the tableau with his bishop, and the player may
place a concession and emancipate.

Star Chamber (coronation_claims_married_or_opponent_kings) also lets its owner claim a King
already married (his queen is discarded) or sitting in an opponent's tableau (taken from it,
losing its court, as in any regime change from an enemy)."""

from __future__ import annotations

from engine.core.agenda import Node
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event, active_abilities, has_ability
from engine.pax.actions.oneshots.common import empire_name, one_shot
from engine.pax.model import card_name, discard, empire_state
from engine.pax.regime import regime_change


def _free(data: dict[str, object], bank: str) -> bool:
    return not data.get("queen") and data["ruler"] in (None, bank)


def suitors(t: Table, bank: str, queen_id: str) -> list[str]:
    """The suitors she may marry now: King side up, unmarried, in his throne or `bank`'s
    tableau (a vassal in that tableau is a King there too); any King-side suitor with Star
    Chamber."""
    claims = has_ability(t, bank, Ability.CORONATION_CLAIMS_MARRIED_OR_OPPONENT_KINGS)
    eligible = []
    for empire_id in one_shot(t, queen_id)["suitors"]:
        data = empire_state(t, str(empire_id))
        if data["side"] == "king" and (claims or _free(data, bank)):
            eligible.append(str(empire_id))
    return eligible


def marry(t: Table, bank: str, queen_id: str, empire_id: str) -> tuple[list[Event], list[Node]]:
    data = empire_state(t, empire_id)
    events: list[Event] = []
    if not _free(data, bank):
        events.append(ability_event(Ability.CORONATION_CLAIMS_MARRIED_OR_OPPONENT_KINGS,
                                    "pax.coronation.star_chamber", bank=bank,
                                    empire=empire_name(t, empire_id)))
    rival = data.get("queen")
    if rival:
        discard(t, rival)
        events.append(event("pax.coronation.rival", card=card_name(t, rival)))
    taken = data["ruler"] not in (None, bank)
    # where the King was: on his throne, in an opponent's tableau or in the player's own
    where = "throne" if data["ruler"] is None else "opponent" if taken else "own"
    changed: list[Event] = []
    follow: list[Node] = []
    if taken:  # the regime change from an enemy comes first, so she is not lost with his court
        changed, follow = regime_change(t, bank, empire_id, cause="coronation")
    data["queen"] = queen_id
    events.append(event(f"pax.coronation.{where}", kind="oneshot:coronation", bank=bank,
                        card=card_name(t, queen_id), empire=empire_name(t, empire_id)))
    if not taken:
        changed, follow = regime_change(t, bank, empire_id, cause="coronation")
    if Ability.PORTUGAL_FRANCE_NOT_ADJACENT in active_abilities(t, queen_id):
        changed.append(ability_event(Ability.PORTUGAL_FRANCE_NOT_ADJACENT,
                                     "pax.coronation.not_adjacent", card=card_name(t, queen_id)))
    return events + changed, follow
