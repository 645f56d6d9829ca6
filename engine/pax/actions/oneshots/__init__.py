"""One-shots (E2.1, H-K): trade shift, coronation, civil wars, religious wars, apostasy.

`HANDLERS` maps each one-shot verb of the card data to its handler; `oneshot_options` lists
the legal `oneshot` / `oneshot in EMPIRE` lines for a card just played, and `trigger` does it.
Coronations are asked by the queen's own decision (engine.pax.actions.play.Coronation).
"""

from __future__ import annotations

from engine.core.choice import Choice
from engine.core.table import Event, Table
from engine.pax.actions.oneshots.apostasy import Apostasy
from engine.pax.actions.oneshots.civil_war import CONSPIRACY, PEASANT_REVOLT, CivilWar
from engine.pax.actions.oneshots.common import Handler, kind_of
from engine.pax.actions.oneshots.religious_war import ReligiousWar
from engine.pax.actions.oneshots.trade_shift import TradeShift
from engine.pax.model import card, cat
from engine.pax.notation import short_empire

HANDLERS: dict[str, Handler] = {
    "trade_shift": TradeShift(),
    CONSPIRACY: CivilWar(CONSPIRACY),
    PEASANT_REVOLT: CivilWar(PEASANT_REVOLT),
    "crusade": ReligiousWar(),
    "jihad": ReligiousWar(),
    "reformation": ReligiousWar(),
    "apostasy": Apostasy(),
}


def oneshot_options(t: Table, bank: str, card_id: str) -> list[Choice]:
    """The legal ways to trigger the card's one-shot: `oneshot`, or for a card of "The East"/
    "The West" whose one-shot strikes an empire, `oneshot in EMPIRE` (LOCATION)."""
    handler = HANDLERS[kind_of(t, card_id)]
    location = card(t, card_id).location
    if handler.per_empire and location in ("east", "west"):
        return [Choice("oneshot in", (empire_id,), ("empire",),
                       f"oneshot in {short_empire(cat(t), empire_id)}")
                for empire_id in cat(t).region_empires(location)
                if handler.possible(t, bank, card_id, empire_id)]
    empire = location if location in cat(t).empires else None
    if handler.possible(t, bank, card_id, empire):
        return [Choice("oneshot", (), (), "oneshot")]
    return []


def trigger(t: Table, bank: str, card_id: str, empire: str | None) -> list[Event]:
    location = card(t, card_id).location
    if empire is None and location in cat(t).empires:
        empire = location
    return HANDLERS[kind_of(t, card_id)].trigger(t, bank, card_id, empire)
