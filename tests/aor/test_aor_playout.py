"""Whole turns of the pure rules, with every choice drawn from the legal options by a seeded
Chance (a stand-in for the agenda, which is not built yet). After each phase the invariants of
issue 8 must hold: each card in one zone, 36 tokens and 25 markers conserved, no market
overfilled outside a battle, cash >= 0, misery on a track space, the order a permutation of the
active players, prerequisites respected; and the same seed gives the same game."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from engine.aor.advances import buy_advance, can_raise_fleet, leaders_leave, purchase_options, raise_fleet
from engine.aor.battle import attack_options, fight
from engine.aor.cards import play_from_hand
from engine.aor.deck import draw_to_hand, join_set_aside
from engine.aor.economy import apply_relief, income_phase, stabilization_options, stabilize
from engine.aor.expansion import (
    bonus_card_winner,
    buy_card,
    can_buy_card,
    end_expansion,
    holy_indulgence,
    place,
    placement_limit,
)
from engine.aor.invariants import check_invariants
from engine.aor.market import play_commodity, roll_markets
from engine.aor.model import State, new_round, player, settle_advances
from engine.aor.order import apply_token_purchase, civil_war_to_last
from engine.aor.reach import reach
from engine.aor.setup import (
    apply_capital_bids,
    apply_opening_purchase,
    apply_return,
    capital_options,
    choose_capital,
    finish_returns,
    new_game,
)
from engine.aor.strength import attack_terms
from engine.core.chance import Chance, SeededChance
from tests import fast_yaml
from tests.aor.helpers import aor

NAMES = ("ada", "ben", "cy", "dee", "eve", "fay")


def pick(chance: Chance, purpose: str, options: list[str]) -> str:
    return chance.pick(f"test {purpose}", options)


def token_bids(state: State, chance: Chance) -> dict[str, int]:
    bids = {}
    for pid in state["order"] or sorted(state["players"]):
        cash = player(state, pid)["cash"]
        amounts = range(-min(cash, 2), min(cash, 14) + 1)
        bids[pid] = int(pick(chance, f"tokens {pid}", [str(n) for n in amounts]))
    return bids


def setup(n: int, chance: Chance) -> State:
    state = new_game(aor(), NAMES[:n], chance)
    for pid in NAMES[:n]:
        apply_return(state, pid, pick(chance, f"return {pid}", sorted(player(state, pid)["hand"])))
    finish_returns(aor(), state)
    apply_capital_bids(state, {p: int(pick(chance, f"bid {p}", ["0", "3", "5"])) for p in NAMES[:n]}, chance)
    while state["phase"] == "capital":
        pid = state["capital_queue"][0]
        choose_capital(aor(), state, pid, pick(chance, f"capital {pid}", capital_options(aor(), state)))
    apply_opening_purchase(state, token_bids(state, chance))
    return state


def playing(state: State) -> list[str]:
    return [p for p in list(state["order"]) if not player(state, p)["eliminated"]]


def play_cards(state: State, chance: Chance) -> None:
    for pid in playing(state):
        for label, card in sorted(player(state, pid)["hand"].items()):
            kind = aor().cards[card].kind
            if kind == "commodity" and pick(chance, f"play {label}", ["yes", "no"]) == "yes":
                play_from_hand(aor(), state, pid, label)
                paid = pick(chance, f"pays {label}", list(aor().cards[card].commodities))
                play_commodity(aor(), state, card, paid)
            elif kind == "leader":
                play_from_hand(aor(), state, pid, label)


def acquire(state: State, chance: Chance) -> None:
    for pid in playing(state):
        if can_raise_fleet(aor(), state, pid) and pick(chance, f"fleet {pid}", ["yes", "no"]) == "yes":
            raise_fleet(aor(), state, pid)
        for _ in range(2):
            options = {o.line: o for o in purchase_options(aor(), state, pid)}
            choice = pick(chance, f"buy {pid}", sorted(options) + ["done"])
            if choice == "done":
                break
            buy_advance(aor(), state, pid, options[choice].advance, options[choice].leader)
        ways = stabilization_options(aor(), state, pid)
        if ways:
            stabilize(aor(), state, pid, pick(chance, f"stabilize {pid}", ways))
        if not player(state, pid)["eliminated"]:
            apply_relief(aor(), state, pid)
    leaders_leave(aor(), state)


def expand(state: State, chance: Chance) -> None:
    civil_war_to_last(state)
    holy_indulgence(aor(), state)
    for pid in playing(state):
        for step in range(8):
            routes = reach(aor(), state, pid)
            moves = [f"place {w}" for w in routes if placement_limit(aor(), state, pid, w, routes)]
            moves += [f"attack {a.province}" for a in attack_options(aor(), state, pid)]
            move = pick(chance, f"move {pid} {step}", sorted(moves) + ["done"])
            verb, _, where = move.partition(" ")
            if verb == "done":
                break
            if verb == "place":
                place(aor(), state, pid, where, placement_limit(aor(), state, pid, where))
            else:
                fight(aor(), state, attack_terms(aor(), state, pid, where), chance)
            check_invariants(aor(), state)
        if can_buy_card(aor(), state, pid):
            buy_card(aor(), state, pid, chance)
    winner = bonus_card_winner(state)
    if winner:
        draw_to_hand(state, chance, winner, f"bonus card turn {state['turn']} {winner}")
    end_expansion(aor(), state)


def playout(n: int, seed: bytes, turns: int) -> State:
    chance = SeededChance(seed, "playout", 0)
    state = setup(n, chance)
    check_invariants(aor(), state)
    for turn in range(1, turns + 1):
        if turn == 2 and state["set_aside"]:
            join_set_aside(state)
        for pid in playing(state):
            draw_to_hand(state, chance, pid, f"draw {pid} turn {turn}")
        for phase in (play_cards, acquire, expand):
            phase(state, chance)
            check_invariants(aor(), state)
        income_phase(aor(), state)
        roll_markets(aor(), state, chance)
        settle_advances(state)
        check_invariants(aor(), state)
        state["round"] = new_round()
        apply_token_purchase(state, token_bids(state, chance))
        state["turn"] += 1
        check_invariants(aor(), state)
    return state


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_turns_of_random_legal_play_keep_every_invariant(n: int) -> None:
    state = playout(n, f"seed-{n}".encode(), 6)
    assert state["turn"] == 7
    assert sum(len(data["advances"]) for data in state["players"].values()) > 0
    assert any(d["marker"] and d["marker"] != player(state, d["marker"])["capital"]
               for d in state["provinces"].values() if d["marker"])
    again: dict[str, Any] = playout(n, f"seed-{n}".encode(), 6)
    assert again == state  # determinism
    assert fast_yaml.safe_load(yaml.safe_dump(state)) == state
