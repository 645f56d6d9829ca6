"""Sell (E3): a card from hand, tableau or the Old Maids, for its sale value from China."""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.table import Table, event
from engine.pax.actions.common import Result, card_choice
from engine.pax.model import card, card_name, discard, player, tableau


def sell_options(t: Table, bank: str) -> list[Choice]:
    me = player(t, bank)
    sellable = sorted(set(me["hand"]) | set(tableau(t, bank)) | set(me["old_maids"]))
    return [card_choice(t, "sell", card_id) for card_id in sellable]


def apply_sell(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    card_id = choice.args[0]
    me = player(t, bank)
    where = "hand"
    for zone in ("hand", "west", "east", "old_maids"):
        if card_id in me[zone]:
            me[zone].remove(card_id)
            where = {"west": "tableau", "east": "tableau", "old_maids": "Old Maids"}.get(zone, zone)
            break
    value = card(t, card_id).sell_value
    discard(t, card_id)
    me["florins"] += value
    text = f"{bank.title()} sells {card_name(t, card_id)} from their {where} for {value} florins."
    return Result([event(text)], [])
