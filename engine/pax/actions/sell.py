"""Sell (E3): a card from hand, tableau or the Old Maids, for its sale value from China.

An empire square goes back to its throne with its vassals, queen and tokens; a royal couple is
sold as a set for both values.
"""

from __future__ import annotations

from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.table import Table, event
from engine.pax.actions.common import Result, card_choice
from engine.pax.model import (
    card,
    card_name,
    cat,
    discard,
    empire_state,
    husband_of,
    is_square,
    player,
    return_to_throne,
    tableau,
)

SQUARE_SALE = 2


def sell_options(t: Table, bank: str) -> list[Choice]:
    me = player(t, bank)
    in_tableau = [c for c in tableau(t, bank) if is_square(c) or husband_of(t, c) is None]
    sellable = sorted(set(me["hand"]) | set(in_tableau) | set(me["old_maids"]))
    return [card_choice(t, "sell", card_id) for card_id in sellable]


def apply_sell(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    card_id = choice.args[0]
    me = player(t, bank)
    name = card_name(t, card_id)
    if is_square(card_id):
        empire_id = cat(t).empire_of_square(card_id)
        queen = empire_state(t, empire_id).get("queen")
        value = SQUARE_SALE + (card(t, queen).sell_value if queen else 0)
        return_to_throne(t, empire_id, keep_queen=True)
        me["florins"] += value
        what = f"the royal couple {name}" if queen else name
        text = (f"{bank.title()} sells {what} for {value} florins; "
                f"{cat(t).empires[empire_id].name} returns to its throne.")
        return Result([event(text)], [])
    where = "hand"
    for zone in ("hand", "west", "east", "old_maids"):
        if card_id in me[zone]:
            me[zone].remove(card_id)
            where = {"west": "tableau", "east": "tableau", "old_maids": "Old Maids"}.get(zone, zone)
            break
    value = card(t, card_id).sell_value
    discard(t, card_id)
    me["florins"] += value
    text = f"{bank.title()} sells {name} from their {where} for {value} florins."
    return Result([event(text)], [])
