"""Commodities (9.1, 9.3.1, 9.6.1, J, M; rulings R06, R32, R39, R47): payouts, shortage and
surplus, their removal by the first player and Wind/Watermill.

A commodity's level runs from double surplus (-2) to double shortage (+2). A payout counts the
provinces the player dominates that produce it, shifted by Industry, shortage and surplus (each
one step, `payout` in tables.yaml), never below 0, and pays value x n squared.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.aor.board import holdings
from engine.aor.catalog import Catalog
from engine.aor.deck import Labeler, draw_to_hand
from engine.aor.dice import Roll, roll
from engine.aor.model import State, active_players, gain, owns, pay, player
from engine.core.chance import Chance
from engine.core.errors import IllegalOrder, InvariantViolation

INDUSTRY, WIND_WATERMILL = "industry", "wind_watermill"


def level(state: State, commodity: str) -> int:
    return int(state["markets"].get(commodity, 0))


def set_level(catalog: Catalog, state: State, commodity: str, value: int) -> None:
    low, high = catalog.numbers["shortage_surplus"]["level_range"]
    state["markets"][commodity] = max(low, min(high, value))
    state["markets"] = {c: v for c, v in sorted(state["markets"].items()) if v}


def counted(catalog: Catalog, state: State, pid: str, commodity: str) -> int:
    """R39: the n of value x n squared; 0 without a province of the commodity."""
    held = holdings(catalog, state, pid, commodity)
    if held == 0:
        return 0
    shift = catalog.numbers["payout"]
    n = held + (shift["industry"] if owns(state, pid, INDUSTRY) else 0)
    now = level(state, commodity)
    n += shift["shortage"] if now > 0 else shift["surplus"] if now < 0 else 0
    return max(0, int(n))


def payout(catalog: Catalog, state: State, pid: str, commodity: str) -> int:
    return catalog.commodities[commodity].value * counted(catalog, state, pid, commodity) ** 2


def play_commodity(catalog: Catalog, state: State, card: str, commodity: str) -> dict[str, int]:
    """9.3.1: every active player holding the commodity is paid; then the card clears one level
    of shortage or surplus (R06). Returns the payments, by player."""
    if commodity not in catalog.cards[card].commodities:
        raise IllegalOrder(f"{catalog.cards[card].name} does not pay {commodity}",
                           options=[f"commodity {c}" for c in catalog.cards[card].commodities])
    paid = {}
    for pid in sorted(active_players(state)):
        amount = payout(catalog, state, pid, commodity)
        if amount:
            gain(state, pid, amount)
            paid[pid] = amount
    now = level(state, commodity)
    set_level(catalog, state, commodity, now - 1 if now > 0 else now + 1 if now < 0 else 0)
    return paid


# --- phase 1: removal by the first player, Wind/Watermill (9.1, J) --------------------------------


def removal_options(catalog: Catalog, state: State, pid: str) -> list[str]:
    """The commodities whose marker the first player can pay off now, one level at a time."""
    if not state["order"] or state["order"][0] != pid:
        return []
    return [c for c in sorted(state["markets"])
            if player(state, pid)["cash"] >= catalog.commodities[c].value]


def remove_level(catalog: Catalog, state: State, pid: str, commodity: str) -> int:
    """9.1: the base value per marker removed (one of two may be removed). Returns the price."""
    if commodity not in removal_options(catalog, state, pid):
        raise IllegalOrder(f"{pid} cannot pay off {commodity} now",
                           options=[f"pay {c}" for c in removal_options(catalog, state, pid)])
    cost = catalog.commodities[commodity].value
    pay(state, pid, cost)
    now = level(state, commodity)
    set_level(catalog, state, commodity, now - 1 if now > 0 else now + 1)
    return cost


def miller(state: State) -> str | None:
    """J: the first player in the order who owns Wind/Watermill."""
    return next((p for p in state["order"] if owns(state, p, WIND_WATERMILL)), None)


def mill_options(catalog: Catalog, state: State, pid: str) -> list[tuple[str, int]]:
    """(commodity, +1 toward shortage or -1 toward surplus) within the level range."""
    if miller(state) != pid:
        return []
    low, high = catalog.numbers["shortage_surplus"]["level_range"]
    return [(c, step) for c in catalog.numbers["shortage_surplus"]["wind_watermill"]
            for step in (1, -1) if low <= level(state, c) + step <= high]


def mill(catalog: Catalog, state: State, pid: str, commodity: str, step: int) -> None:
    if (commodity, step) not in mill_options(catalog, state, pid):
        raise IllegalOrder(f"{pid} cannot move {commodity} by {step} now")
    set_level(catalog, state, commodity, level(state, commodity) + step)


# --- phase 6: the two rolls (9.6.1) ---------------------------------------------------------------


@dataclass(frozen=True)
class MarketRoll:
    dice: Roll
    commodities: tuple[str, ...]
    shortage: bool
    top: dict[str, str]  # commodity -> its single top holder, when there is one
    fines: dict[str, int]  # player -> ducats paid for a surplus
    cards: dict[str, str]  # player -> label of the free card drawn for a shortage


def rolled_commodities(catalog: Catalog, dice: Roll) -> tuple[str, ...]:
    total = dice.black + dice.white
    return tuple(sorted(c.id for c in catalog.commodities.values() if c.roll == total))


def top_holder(catalog: Catalog, state: State, commodity: str) -> str | None:
    """The one active player with the most provinces of the commodity; None on a tie (9.6.1)."""
    counts = {p: holdings(catalog, state, p, commodity) for p in active_players(state)}
    best = max(counts.values(), default=0)
    leaders = [p for p, n in counts.items() if n == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else None


def apply_market_roll(catalog: Catalog, state: State, dice: Roll, chance: Chance, purpose: str,
                      labeler: Labeler | None = None) -> MarketRoll:
    """One roll's effects: each named commodity moves one level toward shortage (green 1-3) or
    surplus (4-6); its single top holder draws a free card, or pays 1 ducat per province, capped
    at their cash (R32)."""
    numbers = catalog.numbers["shortage_surplus"]
    shortage = dice.green in numbers["shortage_green"]
    if not shortage and dice.green not in numbers["surplus_green"]:
        raise InvariantViolation(f"green {dice.green} names neither shortage nor surplus")
    commodities = rolled_commodities(catalog, dice)
    top: dict[str, str] = {}
    fines: dict[str, int] = {}
    cards: dict[str, str] = {}
    for commodity in commodities:
        set_level(catalog, state, commodity, level(state, commodity) + (1 if shortage else -1))
        holder = top_holder(catalog, state, commodity)
        if holder is None:
            continue
        top[commodity] = holder
        if shortage:
            label = draw_to_hand(state, chance, holder, f"{purpose} card {holder}", labeler)
            if label is not None:
                cards[holder] = label
        else:
            fine = min(holdings(catalog, state, holder, commodity), int(player(state, holder)["cash"]))
            pay(state, holder, fine)
            fines[holder] = fines.get(holder, 0) + fine
    return MarketRoll(dice, commodities, shortage, top, fines, cards)


def roll_markets(catalog: Catalog, state: State, chance: Chance,
                 labeler: Labeler | None = None) -> list[MarketRoll]:
    """9.6.1: last turn's markers are gone (they last one turn, R47); then two rolls of three
    public dice. A free card is a private draw naming its player."""
    state["markets"] = {}
    results = []
    for index in range(catalog.numbers["shortage_surplus"]["rolls_per_turn"]):
        purpose = f"market turn {state['turn']} roll {index + 1}"
        results.append(apply_market_roll(catalog, state, roll(chance, purpose), chance, purpose,
                                         labeler))
    return results
