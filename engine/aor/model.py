"""The Age of Renaissance state as plain data, read and changed through named operations.

The state is a dict of lists, dicts, strings and integers (YAML-safe, sorted wherever order means
nothing). Its layout:

    turn, phase, epoch             turn number (0 during setup), phase name, Epoch of the deck
    players_at_start               N of 8.2 and 9.6 (income stays based on it, 9.4.3)
    seats                          the roster ids, as given at setup
    order                          the Order of Play, first player first (active players only)
    capital_choosers               8.3: players in the order they chose a capital (9.7 ties)
    players.<id>                   cash, recorded_cash (9.7 log sheet), misery (a track space),
                                   stock (tokens on the mat), purchased (bought for this turn),
                                   fleet {stage, box}, advances, new_advances (bought this turn,
                                   no credit yet, 9.4.2), hand {label: card}, capital, eliminated
    provinces.<id>                 only provinces holding something: marker (a player or None),
                                   tokens {player: n} (coloured), new {player: n} (placed this
                                   turn, white side up, 9.5)
    markets.<commodity>            shortage (+1, +2) or surplus (-1, -2); absent when clear
    deck, epochs.<2|3>, set_aside, reusable, removed     the History cards, each a sorted list
    wars                           Wars still undecided after a tie: [declarer, target] (A.2)
    obsolete                       cards made unplayable for the rest of the game (7.2, A.2)
    round                          facts of this turn that rules consult (see `new_round`)
    next_label                     counter for the default hand labels

Tokens are conserved by layout: stock + purchased + on the board is always the start figure
(36); domination markers in stock are derived (25 less those on the board).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.aor.catalog import Catalog
from engine.core.errors import InvariantViolation

State = dict[str, Any]
Player = dict[str, Any]
FLEET_NONE = "none"


def new_round() -> dict[str, Any]:
    """Facts that last one turn: cards played, leaders in play and their claims, Papal Decree,
    Cathedral uses, cards bought for tokens, tokens placed, fleet raises, Civil War victims,
    Renaissance swaps, tokens shipped into each province ({player: {province: n}}, 9.4.1)."""
    return {"played": [], "leaders": [], "claims": {}, "leader_uses": {}, "papal_decree": None,
            "cathedral": {}, "card_buys": [], "placed": {}, "fleet_raised": [], "civil_war": [],
            "swapped": [], "written_record": [], "shipped": {}}


def new_player(catalog: Catalog) -> Player:
    start = catalog.numbers["start"]
    return {"cash": start["cash"], "recorded_cash": start["cash"], "misery": start["misery"],
            "stock": start["tokens"], "purchased": 0, "fleet": {"stage": FLEET_NONE, "box": 0},
            "advances": [], "new_advances": [], "hand": {}, "capital": None, "eliminated": False}


def new_state(catalog: Catalog, players: Sequence[str]) -> State:
    return {"turn": 0, "phase": "setup", "epoch": 1, "players_at_start": len(players),
            "seats": list(players), "order": [], "capital_choosers": [],
            "players": {p: new_player(catalog) for p in sorted(players)}, "provinces": {},
            "markets": {}, "deck": [], "epochs": {}, "set_aside": [], "reusable": [], "removed": [],
            "wars": [], "obsolete": [], "round": new_round(), "next_label": 0}


# --- players -------------------------------------------------------------------------------------


def player(state: State, pid: str) -> Player:
    data: Player = state["players"][pid]
    return data


def active_players(state: State) -> list[str]:
    """Players still in the game, in the Order of Play once it exists, else by id."""
    if state["order"]:
        return list(state["order"])
    return [p for p in sorted(state["players"]) if not player(state, p)["eliminated"]]


def opponents(state: State, pid: str) -> list[str]:
    return [p for p in sorted(state["players"]) if p != pid and not player(state, p)["eliminated"]]


def pay(state: State, pid: str, amount: int) -> None:
    data = player(state, pid)
    if amount < 0 or amount > data["cash"]:
        raise InvariantViolation(f"{pid} cannot pay {amount} ducats with {data['cash']}")
    data["cash"] -= amount


def gain(state: State, pid: str, amount: int) -> None:
    if amount < 0:
        raise InvariantViolation(f"{pid} cannot gain {amount} ducats")
    player(state, pid)["cash"] += amount


def owns(state: State, pid: str, advance: str) -> bool:
    data = player(state, pid)
    return advance in data["advances"] or advance in data["new_advances"]


def all_advances(state: State, pid: str) -> list[str]:
    data = player(state, pid)
    return sorted(data["advances"] + data["new_advances"])


def add_advance(state: State, pid: str, advance: str) -> None:
    data = player(state, pid)
    if owns(state, pid, advance):
        raise InvariantViolation(f"{pid} already owns {advance}")
    data["new_advances"] = sorted(data["new_advances"] + [advance])


def settle_advances(state: State) -> None:
    """End of turn (6): the boxes of this turn's Advances are filled in; their credit counts now."""
    for data in state["players"].values():
        data["advances"] = sorted(data["advances"] + data["new_advances"])
        data["new_advances"] = []


def home_region(catalog: Catalog, state: State, pid: str) -> str | None:
    capital = player(state, pid)["capital"]
    return None if capital is None else catalog.provinces[capital].region


# --- the Misery Index ---------------------------------------------------------------------------


def misery_space(catalog: Catalog, state: State, pid: str) -> int:
    """The index of the player's space on the track (0 for space "0")."""
    return catalog.misery_track.index(player(state, pid)["misery"])


def misery_up(catalog: Catalog, state: State, pid: str, steps: int) -> bool:
    """Move `steps` spaces up; past the last space the player is eliminated (R09). Returns True
    when this move eliminated them."""
    if steps < 0:
        raise InvariantViolation(f"misery_up by {steps}")
    track, data = catalog.misery_track, player(state, pid)
    if data["eliminated"]:
        return False
    index = misery_space(catalog, state, pid) + steps
    if index >= len(track):
        data["misery"] = track[-1]
        eliminate(catalog, state, pid)
        return True
    data["misery"] = track[index]
    return False


def misery_down(catalog: Catalog, state: State, pid: str, steps: int) -> int:
    """Move up to `steps` spaces down, never below 0 (9.4.3); returns the steps actually moved."""
    if steps < 0:
        raise InvariantViolation(f"misery_down by {steps}")
    index = misery_space(catalog, state, pid)
    moved = min(steps, index)
    player(state, pid)["misery"] = catalog.misery_track[index - moved]
    return moved


def eliminate(catalog: Catalog, state: State, pid: str) -> None:
    """9.4.3, 11.3: out of the game; pieces stay on the board; the hand goes to the reusable pile
    (circled Epochs) or out of the game (squared)."""
    data = player(state, pid)
    data["eliminated"] = True
    for card in sorted(data["hand"].values()):
        discard(catalog, state, card)
    data["hand"] = {}
    if pid in state["order"]:
        state["order"].remove(pid)


# --- History cards ------------------------------------------------------------------------------


def hand_cards(state: State, pid: str) -> list[str]:
    return sorted(player(state, pid)["hand"].values())


def hand_size(state: State, pid: str) -> int:
    return len(player(state, pid)["hand"])


def add_to_hand(state: State, pid: str, card: str, label: str) -> None:
    hand = player(state, pid)["hand"]
    if label in hand:
        raise InvariantViolation(f"label {label} is already in {pid}'s hand")
    hand[label] = card
    player(state, pid)["hand"] = dict(sorted(hand.items()))


def take_from_hand(state: State, pid: str, label: str) -> str:
    card: str = player(state, pid)["hand"].pop(label)
    return card


def label_of(state: State, pid: str, card: str) -> str:
    """The label of a card in hand; with two identical cards, the lower card id (R36)."""
    for label, held in sorted(player(state, pid)["hand"].items(), key=lambda kv: (kv[1], kv[0])):
        if held == card:
            return str(label)
    raise InvariantViolation(f"{pid} does not hold {card}")


def discard(catalog: Catalog, state: State, card: str) -> None:
    """A card leaves play: circled Epochs to the reusable pile, squared ones out (4.7, 7.2)."""
    zone = "reusable" if catalog.cards[card].after_play == "returns" else "removed"
    state[zone] = sorted(state[zone] + [card])


def played_this_turn(state: State, card: str) -> bool:
    return any(entry[1] == card for entry in state["round"]["played"])


def cards_played_by(state: State, pid: str) -> list[str]:
    return [card for who, card in state["round"]["played"] if who == pid]
