"""Sell (E3): a card from hand, tableau or the Old Maids, for its sale value from China.

An empire square goes back to its throne with its vassals, queen and tokens; a royal couple is
sold as a set for both values.

Sales abilities (E3 "Sales Abilities") work only when the card is sold from the tableau,
unsilenced: Sells for four (4 florins instead of 2), Cryptography (borrow an opponent's
political op, engine.pax.actions.ops.borrow) and Enclosure (emancipate in the West).
Machiavellianism (sell_to_trigger_one_shot) is an ability of the seller's tableau, so it
works for any card sold, from the hand too: the sold card's civil war, crusade or apostasy
may then be resolved, with its agents.
"""

from __future__ import annotations

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event, active_abilities, has_ability
from engine.pax.actions.common import Result, card_choice
from engine.pax.model import (
    card,
    card_name,
    cat,
    discard,
    empire_state,
    is_square,
    player,
    return_to_throne,
    tableau,
)

SALE = SQUARE_SALE = 2
FOUR = 4
MACHIAVELLIAN = ("peasant_revolt", "conspiracy", "crusade", "apostasy")


def sell_options(t: Table, bank: str) -> list[Choice]:
    me = player(t, bank)
    queens = {data.get("queen") for data in t.state["empires"].values()}  # husband_of, at once
    in_tableau = [c for c in tableau(t, bank) if is_square(c) or c not in queens]
    sellable = sorted(set(me["hand"]) | set(in_tableau) | set(me["old_maids"]))
    return [card_choice(t, "sell", card_id) for card_id in sellable]


def _value(t: Table, card_id: str, active: tuple[str, ...]) -> tuple[int, list[Event]]:
    if Ability.SELLS_FOR_FOUR in active:
        return FOUR, [ability_event(Ability.SELLS_FOR_FOUR, "pax.sell.for_four",
                                    card=card_name(t, card_id), florins=FOUR)]
    return SALE, []  # E3: 2 florins (the data's 4 is the value under the ability)


def apply_sell(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    card_id = choice.args[0]
    me = player(t, bank)
    name = card_name(t, card_id)
    if is_square(card_id):
        empire_id = cat(t).empire_of_square(card_id)
        queen = empire_state(t, empire_id).get("queen")
        value, notes = _value(t, queen, active_abilities(t, queen)) if queen else (0, [])
        value += SQUARE_SALE
        return_to_throne(t, empire_id, keep_queen=True)
        me["florins"] += value
        sold = event("pax.sell.couple" if queen else "pax.sell.square", bank=bank, card=name,
                     florins=value, empire=cat(t).empires[empire_id].name)
        return Result([*notes, sold], [])
    from_tableau = card_id in tableau(t, bank)
    active = active_abilities(t, card_id) if from_tableau else ()
    machiavelli = has_ability(t, bank, Ability.SELL_TO_TRIGGER_ONE_SHOT)
    where = "hand"  # the message names where the card was sold from: hand, tableau, old_maids
    for zone in ("hand", "west", "east", "old_maids"):
        if card_id in me[zone]:
            me[zone].remove(card_id)
            where = {"west": "tableau", "east": "tableau"}.get(zone, zone)
            break
    value, notes = _value(t, card_id, active)
    discard(t, card_id)
    me["florins"] += value
    sold = event(f"pax.sell.from.{where}", bank=bank, card=name, florins=value)
    follow = _sale_follow_ups(t, bank, card_id, active, machiavelli)
    return Result([sold, *notes], follow)


def _emancipation_options(t: Table, empire: str) -> list[Choice]:
    from engine.pax.regime import emancipation_options  # start-up: only with the ability

    return emancipation_options(t, empire)


def _sale_follow_ups(t: Table, bank: str, card_id: str, active: tuple[str, ...],
                     machiavelli: bool) -> list[Node]:
    follow = []
    if Ability.SELL_TO_BORROW_OPPONENT_PURPLE_OP in active:
        follow.append(new_node(t.state, "borrow", bank, card=card_id))
    west = cat(t).region_empires("west")
    if Ability.SELL_TO_EMANCIPATE_WEST in active and any(
            _emancipation_options(t, e) for e in west):
        follow.append(new_node(t.state, "emancipate", bank, empires=west,
                               ability=Ability.SELL_TO_EMANCIPATE_WEST.value))
    shot = card(t, card_id).one_shot
    if machiavelli and shot is not None and shot["type"] in MACHIAVELLIAN:
        follow.append(new_node(t.state, "oneshot", bank, card=card_id, sold=True))
    return follow
