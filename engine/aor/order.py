"""The Order of Play (8.5, 9.7, Q, A.2 Civil War): token purchase, ranks and swaps.

The purchase is a sealed decision: these functions take the bids once all are in. Fewest tokens
go first; equal bids go to the player who chose a capital later (8.3). The rank used in battle is
the Order-of-Play space of the position (2, 4, 6 with three players; R10).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.aor.catalog import Catalog
from engine.aor.model import State, active_players, owns, pay, player
from engine.core.errors import IllegalOrder, InvariantViolation

RENAISSANCE = "renaissance"


def token_bid_range(state: State, pid: str) -> range:
    """9.7: any whole number whose size the player can pay; negative buys a place, not tokens."""
    cash = int(player(state, pid)["cash"])
    return range(-cash, cash + 1)


def check_token_bid(state: State, pid: str, bid: int) -> None:
    if bid not in token_bid_range(state, pid):
        cash = player(state, pid)["cash"]
        raise IllegalOrder(f"a bid of {bid} needs {abs(bid)} ducats; {pid} has {cash}",
                           options=[f"tokens {-cash}", "tokens 0", f"tokens {cash}"])


def order_from_bids(state: State, bids: Mapping[str, int]) -> list[str]:
    """Fewest tokens first; ties to the later capital chooser (8.3, 9.7)."""
    choosers = state["capital_choosers"]
    later = {pid: -choosers.index(pid) if pid in choosers else 0 for pid in bids}
    return sorted(bids, key=lambda pid: (bids[pid], later[pid], pid))


def apply_token_purchase(state: State, bids: Mapping[str, int]) -> list[str]:
    """8.5 and 9.7 with every bid in: pay 1 ducat a token (the size of a negative bid), take the
    tokens the stock holds, record the cash left, and set the order. Returns the new order."""
    expected = set(active_players(state)) if state["order"] else {
        p for p, d in state["players"].items() if not d["eliminated"]}
    if set(bids) != expected:
        raise InvariantViolation(f"bids from {sorted(bids)}, expected {sorted(expected)}")
    for pid, bid in sorted(bids.items()):
        check_token_bid(state, pid, bid)
    for pid, bid in sorted(bids.items()):
        data = player(state, pid)
        pay(state, pid, abs(bid))
        taken = min(max(bid, 0), data["stock"])
        data["stock"] -= taken
        data["purchased"] += taken
        data["recorded_cash"] = data["cash"]
    state["order"] = order_from_bids(state, bids)
    return list(state["order"])


def rank(catalog: Catalog, state: State, pid: str) -> int:
    """The Order-of-Play space: the starting count's spaces, filled from the front (R10)."""
    spaces = catalog.by_players[state["players_at_start"]].order_of_play
    return int(spaces[state["order"].index(pid)])


def swap_options(state: State, pid: str) -> list[str]:
    """Q, R20: the neighbours (before, then after) a Renaissance owner may swap with now."""
    order = state["order"]
    if not owns(state, pid, RENAISSANCE) or pid in state["round"]["swapped"] or pid not in order:
        return []
    at = order.index(pid)
    neighbours = [order[i] for i in (at - 1, at + 1) if 0 <= i < len(order)]
    return [other for other in neighbours if not owns(state, other, RENAISSANCE)]


def swap(state: State, pid: str, other: str) -> None:
    if other not in swap_options(state, pid):
        raise IllegalOrder(f"{pid} cannot swap places with {other}",
                           options=[f"swap {o}" for o in swap_options(state, pid)])
    order = state["order"]
    a, b = order.index(pid), order.index(other)
    order[a], order[b] = order[b], order[a]
    state["round"]["swapped"] = sorted(state["round"]["swapped"] + [pid])


def renaissance_owners_in_order(state: State) -> list[str]:
    """Who is asked at the start of a phase, earliest first (Q: the current order is observed)."""
    return [pid for pid in state["order"] if swap_options(state, pid)]


def civil_war_to_last(state: State) -> None:
    """A.2 Civil War: at the start of the Expansion Phase each victim becomes the last player
    (several victims keep their order among themselves, R50)."""
    victims = [p for p in state["order"] if p in state["round"]["civil_war"]]
    state["order"] = [p for p in state["order"] if p not in victims] + victims
