"""The Expansion Phase around the battles (9.5, 9.5.1, 9.5.3, 9.5.4, F; rulings R03, R04, R19):
Holy Indulgence, peaceful placement, a card for tokens, the bonus card and consolidation.

A placement without a battle keeps the province within its market size and the player's own
tokens within it too; ships bring at most their capacity into one province a turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.aor.battle import expansion_moves
from engine.aor.board import consolidate, place_tokens
from engine.aor.catalog import Catalog
from engine.aor.deck import Labeler, draw_to_hand
from engine.aor.model import State, active_players, gain, misery_up, owns, pay, player
from engine.aor.reach import reach, record_shipped
from engine.core.chance import Chance
from engine.core.errors import IllegalOrder

HOLY_INDULGENCE = "holy_indulgence"


@dataclass(frozen=True)
class Indulgence:
    tokens: dict[str, int]  # tokens gained (+) or given up (-)
    ducats: dict[str, int]  # paid by the bank (+) or to it (-)
    misery: dict[str, int]  # steps for tokens that could not be paid


def holy_indulgence(catalog: Catalog, state: State) -> Indulgence:
    """F: each owner takes 2 tokens per non-owner from their stock (1 ducat from the bank per
    token the stock lacks); each non-owner gives back 2 bought tokens per owner, paying 1 ducat
    per token they lack and taking a misery step per token they cannot pay (R19). The order
    stays as it is."""
    players = active_players(state)
    owners = [p for p in players if owns(state, p, HOLY_INDULGENCE)]
    others = [p for p in players if p not in owners]
    tokens: dict[str, int] = {}
    ducats: dict[str, int] = {}
    misery: dict[str, int] = {}
    if not owners or not others:
        return Indulgence(tokens, ducats, misery)
    for pid in owners:
        data, due = player(state, pid), 2 * len(others)
        taken = min(due, data["stock"])
        data["stock"] -= taken
        data["purchased"] += taken
        tokens[pid] = taken
        if due > taken:
            gain(state, pid, due - taken)
            ducats[pid] = due - taken
    for pid in others:
        data, due = player(state, pid), 2 * len(owners)
        given = min(due, data["purchased"])
        data["purchased"] -= given
        data["stock"] += given
        tokens[pid] = -given
        paid = min(due - given, data["cash"])
        if paid:
            pay(state, pid, paid)
            ducats[pid] = -paid
        if due - given - paid:
            misery[pid] = due - given - paid
            misery_up(catalog, state, pid, misery[pid])
    return Indulgence(tokens, ducats, misery)


def placement_limit(catalog: Catalog, state: State, pid: str, where: str,
                    routes: dict[str, int | None] | None = None) -> int:
    """The most tokens the player may place here now without a battle (9.5, 9.5.2, 9.4.1).
    `routes` is the player's `reach`, when the caller already has it."""
    routes = reach(catalog, state, pid) if routes is None else routes
    if where not in routes:
        return 0
    return placement_limits(catalog, state, pid, {where: routes[where]})[where]


def placement_limits(catalog: Catalog, state: State, pid: str,
                     routes: dict[str, int | None]) -> dict[str, int]:
    """placement_limit for every province of `routes` (the player's `reach`)."""
    return expansion_moves(catalog, state, pid, routes, attacks=False)[0]


def place(catalog: Catalog, state: State, pid: str, where: str, count: int) -> None:
    """Place tokens, white side up; they count toward the bonus card (R04)."""
    routes = reach(catalog, state, pid)
    limit = placement_limit(catalog, state, pid, where, routes)
    if not 1 <= count <= limit:
        raise IllegalOrder(f"{pid} may place 1 to {limit} tokens in {where} now, not {count}"
                           if limit else f"{pid} cannot place tokens in {where} without a battle")
    place_tokens(state, pid, where, count)
    if routes[where] is not None:  # carried by ship: it uses up the fleet's capacity (9.4.1)
        record_shipped(state, pid, where, count)
    placed = state["round"]["placed"]
    placed[pid] = placed.get(pid, 0) + count
    state["round"]["placed"] = dict(sorted(placed.items()))


def card_price(catalog: Catalog, state: State) -> int | None:
    """9.5.1: 3 tokens for the first buyer this phase, then 6, 9 ... 18; None once all sold."""
    prices = catalog.numbers["prices"]["card_for_tokens"]
    bought = len(state["round"]["card_buys"])
    return int(prices[bought]) if bought < len(prices) else None


def can_buy_card(catalog: Catalog, state: State, pid: str) -> bool:
    """R03: once a phase, in the buyer's own expansion turn (the agenda sees to the turn)."""
    cost = card_price(catalog, state)
    return (cost is not None and pid not in state["round"]["card_buys"]
            and player(state, pid)["purchased"] >= cost)


def buy_card(catalog: Catalog, state: State, pid: str, chance: Chance,
             labeler: Labeler | None = None) -> str | None:
    """Pay bought tokens back to stock for one private draw. Returns the new card's label."""
    cost = card_price(catalog, state)
    if cost is None or not can_buy_card(catalog, state, pid):
        raise IllegalOrder(f"{pid} cannot buy a card with tokens now")
    data = player(state, pid)
    data["purchased"] -= cost
    data["stock"] += cost
    state["round"]["card_buys"].append(pid)
    return draw_to_hand(state, chance, pid, f"card for tokens turn {state['turn']} {pid}", labeler)


def bonus_card_winner(state: State) -> str | None:
    """9.5.3, R04: who placed the most tokens this phase; a tie goes to the earlier player."""
    placed = state["round"]["placed"]
    best = max((placed.get(p, 0) for p in state["order"]), default=0)
    return next((p for p in state["order"] if best and placed.get(p, 0) == best), None)


def end_expansion(catalog: Catalog, state: State) -> None:
    """9.5, 9.5.4: unplaced tokens go back to stock (they are not saved); tokens turn over and
    full markets become domination markers."""
    for data in state["players"].values():
        data["stock"] += data["purchased"]
        data["purchased"] = 0
    consolidate(catalog, state)
