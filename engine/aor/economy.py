"""Misery and money over a turn (9.4.3, 9.6, L, Z, D; rulings R08, R11, R31): stabilization,
misery relief, income, Interest & Profit, Middle Class and Enlightenment. Every number comes
from games/aor (`stabilization`, `misery_relief`, `income` in tables.yaml; the Advances' rows).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.aor.board import markers_on_board
from engine.aor.catalog import Catalog
from engine.aor.model import (
    State,
    active_players,
    gain,
    hand_size,
    misery_down,
    misery_up,
    owns,
    pay,
    player,
)
from engine.core.errors import IllegalOrder

MIDDLE_CLASS, INTEREST, ENLIGHTENMENT = "middle_class", "interest_and_profit", "enlightenment"


# --- stabilization (9.4.3) ------------------------------------------------------------------------


def stabilization_cost(catalog: Catalog, state: State, pid: str) -> int:
    """1 + 2 + ... + n ducats for n cards in hand; Middle Class halves it, rounding up (R11)."""
    n = hand_size(state, pid)
    cost = n * (n + 1) // 2
    if owns(state, pid, MIDDLE_CLASS):
        divisor = int(catalog.numbers["stabilization"]["middle_class_divisor"])
        cost = -(-cost // divisor)
    return cost


def misery_steps_for(catalog: Catalog, space: int, cost: int) -> int:
    """R11: spaces to move from `space` until the rise is at least the unpaid cost (a rise past
    the last space counts as one more step, which eliminates)."""
    track, index, steps = catalog.misery_track, catalog.misery_track.index(space), 0
    while cost > 0 and index + steps < len(track) and track[index + steps] - space < cost:
        steps += 1
    return steps


def stabilization_options(catalog: Catalog, state: State, pid: str) -> list[str]:
    """`pay` when the player has the cash, `misery` always; nothing to decide with no cost."""
    cost = stabilization_cost(catalog, state, pid)
    if cost == 0:
        return []
    return (["pay"] if player(state, pid)["cash"] >= cost else []) + ["misery"]


def stabilize(catalog: Catalog, state: State, pid: str, how: str) -> int:
    """Settle the whole cost in ducats, or none of it on the Misery Index (no part payment).
    Returns the ducats paid or the spaces moved."""
    if how not in stabilization_options(catalog, state, pid):
        raise IllegalOrder(f"cannot stabilize by '{how}'",
                           options=[f"stabilize {o}" for o in stabilization_options(catalog, state, pid)])
    cost = stabilization_cost(catalog, state, pid)
    if how == "pay":
        pay(state, pid, cost)
        return cost
    steps = misery_steps_for(catalog, player(state, pid)["misery"], cost)
    misery_up(catalog, state, pid, steps)
    return steps


# --- misery relief (9.4.3, R08) -------------------------------------------------------------------


def relief_steps(catalog: Catalog, state: State, pid: str) -> int:
    """Steps for owning the first two, three or all Advances (by letter) of every relief group."""
    relief = catalog.numbers["misery_relief"]
    levels = []
    for group in relief["groups"]:
        letters = sorted((a.letter, a.id) for a in catalog.advances.values() if a.group == group)
        owned = 0
        while owned < len(letters) and owns(state, pid, letters[owned][1]):
            owned += 1
        levels.append(relief["all"] if owned == len(letters) else relief["first_three"]
                      if owned >= 3 else relief["first_two"] if owned >= 2 else 0)
    return int(min(levels))


def apply_relief(catalog: Catalog, state: State, pid: str) -> int:
    """At the end of the player's acquisitions, every turn (R08); never below space 0."""
    return misery_down(catalog, state, pid, relief_steps(catalog, state, pid))


# --- income (9.6) ---------------------------------------------------------------------------------


def income(catalog: Catalog, state: State, pid: str) -> int:
    """15 + markers on the board x the starting number of players, +10 with Middle Class (Z)."""
    numbers = catalog.numbers["income"]
    total = numbers["base"] + len(markers_on_board(state, pid)) * state["players_at_start"]
    return int(total + (numbers["middle_class"] if owns(state, pid, MIDDLE_CLASS) else 0))


def interest(catalog: Catalog, state: State, pid: str) -> int:
    """L: the cash left after expansion is doubled, by at most the income (Middle Class included)."""
    if not owns(state, pid, INTEREST):
        return 0
    return min(int(player(state, pid)["cash"]), income(catalog, state, pid))


@dataclass(frozen=True)
class Income:
    interest: int
    income: int
    enlightenment: int  # misery steps relieved


def income_phase(catalog: Catalog, state: State) -> dict[str, Income]:
    """9.6 for every active player (R31: none for the eliminated): Interest & Profit on the cash
    in hand first, then income, then Enlightenment's step down the Misery Index."""
    paid = {}
    for pid in sorted(active_players(state)):
        extra, amount = interest(catalog, state, pid), income(catalog, state, pid)
        gain(state, pid, extra + amount)
        relief = misery_down(catalog, state, pid, 1) if owns(state, pid, ENLIGHTENMENT) else 0
        paid[pid] = Income(extra, amount, relief)
    return paid
