"""Preparing to play (8.1-8.5): cards and money, regions, capital bids, misery, the first order.

The secret decisions (the card returned, the capital bid, the first token purchase) are inputs:
each `apply_` function takes the answers once they are all in, so the core can collect them in
parallel or sealed nodes. Dealing uses private draws whose purposes name the player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.aor.board import put_marker
from engine.aor.catalog import Catalog
from engine.aor.deck import Labeler, draw_to_hand, epoch_cards, join_set_aside, return_to_deck
from engine.aor.dice import FACES
from engine.aor.model import State, hand_size, new_round, new_state, pay, player
from engine.aor.order import apply_token_purchase
from engine.core.chance import Chance
from engine.core.errors import IllegalOrder, InvariantViolation
from engine.core.errors import SetupError as CoreSetupError


class SetupError(CoreSetupError):
    pass


def regions_in_play(catalog: Catalog, state: State) -> tuple[str, ...]:
    """8.2: by the starting number of players (the overseas regions always, R40)."""
    return catalog.by_players[state["players_at_start"]].regions


def new_game(catalog: Catalog, players: Sequence[str], chance: Chance,
             labeler: Labeler | None = None) -> State:
    """8.1, 8.4: set aside five cards, deal three Epoch-1 cards to each player (private draws in
    seat order), 40 ducats each, misery 0. Epochs 2 and 3 wait in their own piles."""
    limits = catalog.numbers["players"]
    if not limits["min"] <= len(players) <= limits["max"] or len(set(players)) != len(players):
        raise SetupError(f"Age of Renaissance takes {limits['min']} to {limits['max']} different "
                         f"players, not {list(players)}")
    state = new_state(catalog, players)
    state["set_aside"] = sorted(catalog.set_aside)
    state["deck"] = sorted(set(epoch_cards(catalog, 1)) - set(catalog.set_aside))
    state["epochs"] = {str(e): epoch_cards(catalog, e) for e in (2, 3)}
    for pid in state["seats"]:
        for index in range(catalog.numbers["start"]["deal"]):
            draw_to_hand(state, chance, pid, f"deal {pid} {index + 1}", labeler)
    state["phase"] = "return"
    return state


def apply_return(state: State, pid: str, label: str) -> str:
    """8.1: one of the three dealt cards goes back to the undealt cards (a hidden answer)."""
    hand = player(state, pid)["hand"]
    if state["phase"] != "return" or len(hand) <= 2:
        raise IllegalOrder(f"{pid} has no card to return now")
    if label not in hand:
        raise IllegalOrder(f"no card labelled '{label}' in the hand",
                           options=[f"return {x}" for x in sorted(hand)])
    return return_to_deck(state, pid, label)


def finish_returns(catalog: Catalog, state: State) -> None:
    """After every return: with 3-4 players the set-aside cards join the deck now (8.1)."""
    keep = catalog.numbers["start"]["keep"]
    if any(hand_size(state, pid) != keep for pid in state["players"]):
        raise InvariantViolation("a player still holds more than the cards kept")
    if catalog.by_players[state["players_at_start"]].set_aside_joins == "setup":
        join_set_aside(state)
    state["phase"] = "capital_bid"


def bid_range(state: State, pid: str) -> range:
    return range(0, int(player(state, pid)["cash"]) + 1)


def tie_order(players: Sequence[str], chance: Chance, purpose: str) -> list[str]:
    """8.3: tied players roll a die each, highest first; those still tied roll again."""
    if len(players) < 2:
        return list(players)
    faces = [str(f) for f in FACES]
    rolls = {pid: int(chance.pick(f"{purpose} {pid}", faces)) for pid in sorted(players)}
    ranked: list[str] = []
    for face in sorted(set(rolls.values()), reverse=True):
        group = [pid for pid in sorted(players) if rolls[pid] == face]
        ranked += tie_order(group, chance, f"{purpose} again") if len(group) > 1 else group
    return ranked


def apply_capital_bids(state: State, bids: Mapping[str, int], chance: Chance) -> list[str]:
    """8.3 with every bid in: each bidder pays their bid; the highest chooses first, ties by a
    public die roll. Returns the choosing order (kept in `capital_queue`)."""
    if state["phase"] != "capital_bid" or set(bids) != set(state["players"]):
        raise InvariantViolation(f"capital bids from {sorted(bids)} in phase {state['phase']}")
    for pid, bid in sorted(bids.items()):
        if bid not in bid_range(state, pid):
            raise IllegalOrder(f"a capital bid of {bid} is not 0 to {player(state, pid)['cash']}")
    for pid, bid in sorted(bids.items()):
        pay(state, pid, bid)
    queue: list[str] = []
    for amount in sorted(set(bids.values()), reverse=True):
        queue += tie_order([p for p in sorted(bids) if bids[p] == amount], chance,
                           f"capital tie {amount}")
    state["capital_queue"] = queue
    state["phase"] = "capital"
    return queue


def capital_options(catalog: Catalog, state: State) -> list[str]:
    """The capitals of 8.2 still free, in the table's order."""
    taken = {player(state, p)["capital"] for p in state["players"]}
    return [c for c in catalog.by_players[state["players_at_start"]].capitals if c not in taken]


def choose_capital(catalog: Catalog, state: State, pid: str, capital: str) -> None:
    """8.3: the next chooser takes a free capital and puts a domination marker there."""
    queue = state.get("capital_queue", [])
    if not queue or queue[0] != pid:
        raise IllegalOrder(f"it is not {pid}'s turn to choose a capital")
    if capital not in capital_options(catalog, state):
        raise IllegalOrder(f"{capital} is not a free capital",
                           options=[f"capital {c}" for c in capital_options(catalog, state)])
    queue.pop(0)
    player(state, pid)["capital"] = capital
    put_marker(catalog, state, pid, capital)
    state["capital_choosers"].append(pid)
    if not queue:
        del state["capital_queue"]
        state["phase"] = "opening_purchase"


def apply_opening_purchase(state: State, bids: Mapping[str, int]) -> list[str]:
    """8.5: the first token purchase, as 9.7, sets the order of turn 1, which starts with its
    draw phase (R01)."""
    if state["phase"] != "opening_purchase":
        raise InvariantViolation(f"opening purchase in phase {state['phase']}")
    order = apply_token_purchase(state, bids)
    state.update(turn=1, phase="draw", round=new_round())
    return order
