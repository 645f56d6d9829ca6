"""The War card (A.2, 11.1; rulings R16, R49): the roll, misery, cessions, ties carried over.

Each side rolls one public die, plus Nationalism and each military advantage in effect (the
card's `params`). The winner gains `winner_misery` steps, the loser `loser_misery`, and the loser
cedes as many provinces as the difference: provinces under their marker that the winner can
support. A tie costs both `tie_misery` and the war goes on in later Play Cards phases.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.aor.board import markers_in_stock, markers_on_board, overseas_held, put_marker, remove_marker
from engine.aor.catalog import Catalog
from engine.aor.dice import roll_die
from engine.aor.model import State, misery_up, owns, player
from engine.aor.reach import OCEAN, can_enter, fleet
from engine.aor.strength import effective_advantages
from engine.core.chance import Chance
from engine.core.errors import IllegalOrder

WAR, NATIONALISM = "war", "nationalism"


@dataclass(frozen=True)
class WarRoll:
    declarer: str
    target: str
    dice: dict[str, int]
    totals: dict[str, int]
    winner: str | None  # None on a tie
    loser: str | None
    owed: int  # provinces the loser must cede


def war_modifier(catalog: Catalog, state: State, pid: str, opponent: str) -> int:
    """R49: Nationalism counts wherever the War is; each military card in effect counts unless
    the opponent's card negates it, as in a battle."""
    params = catalog.cards[WAR].params
    bonus = params["nationalism"] if owns(state, pid, NATIONALISM) else 0
    cards = effective_advantages(catalog, state, pid, [opponent])
    return int(bonus + params["military_advantage"] * len(cards))


def settle_war(catalog: Catalog, state: State, declarer: str, target: str,
               dice: dict[str, int]) -> WarRoll:
    """The roll's consequences: misery for both, the war carried over on a tie (R16)."""
    params = catalog.cards[WAR].params
    totals = {declarer: dice[declarer] + war_modifier(catalog, state, declarer, target),
              target: dice[target] + war_modifier(catalog, state, target, declarer)}
    pair = [declarer, target]
    state["wars"] = [w for w in state["wars"] if w != pair]
    if totals[declarer] == totals[target]:
        for pid in pair:
            misery_up(catalog, state, pid, params["tie_misery"])
        if not any(player(state, pid)["eliminated"] for pid in pair):
            state["wars"] = sorted(state["wars"] + [pair])
        return WarRoll(declarer, target, dice, totals, None, None, 0)
    winner, loser = sorted(pair, key=lambda pid: -totals[pid])
    misery_up(catalog, state, winner, params["winner_misery"])
    misery_up(catalog, state, loser, params["loser_misery"])
    return WarRoll(declarer, target, dice, totals, winner, loser, abs(totals[declarer] - totals[target]))


def roll_war(catalog: Catalog, state: State, declarer: str, target: str, chance: Chance) -> WarRoll:
    """One resolution: a public die each, declarer first."""
    dice = {pid: roll_die(chance, f"war turn {state['turn']} {pid}") for pid in (declarer, target)}
    return settle_war(catalog, state, declarer, target, dice)


def cedable(catalog: Catalog, state: State, loser: str, winner: str) -> list[str]:
    """Provinces under the loser's marker (their capital included) that the winner can support:
    a region the winner may enter (R, T, U), an overseas box only with a free ocean-going slot;
    reach by the fleet does not matter (A.2). None if the winner has no marker left."""
    if markers_in_stock(catalog, state, winner) <= 0:
        return []
    stage, capacity = fleet(catalog, state, winner)
    free_slot = stage == OCEAN and len(overseas_held(catalog, state, winner)) < capacity
    return [w for w in markers_on_board(state, loser) if can_enter(catalog, state, winner, w)
            and (free_slot or not catalog.regions[catalog.provinces[w].region].overseas)]


def cedable_together(catalog: Catalog, state: State, winner: str, provinces: list[str]) -> bool:
    """Whether all of `provinces`, each cedable now, can be ceded one after another: each
    takes one of the winner's markers, and an overseas one a free ocean-going slot. When they
    cannot, which of them go is the loser's choice (A.2)."""
    if len(provinces) > markers_in_stock(catalog, state, winner):
        return False
    held = overseas_held(catalog, state, winner)
    slots_needed = sum(1 for w in provinces if w not in held
                       and catalog.regions[catalog.provinces[w].region].overseas)
    return not slots_needed or len(held) + slots_needed <= fleet(catalog, state, winner)[1]


def cede(catalog: Catalog, state: State, loser: str, winner: str, where: str) -> None:
    """The loser's marker leaves; the winner's takes its place."""
    if where not in cedable(catalog, state, loser, winner):
        raise IllegalOrder(f"{where} cannot be ceded to {winner}",
                           options=[f"cede {w}" for w in cedable(catalog, state, loser, winner)])
    remove_marker(state, where)
    put_marker(catalog, state, winner, where)


def cannot_cede(catalog: Catalog, state: State, loser: str, missing: int) -> None:
    """A.2: one misery step for each province owed that cannot be ceded."""
    misery_up(catalog, state, loser, missing)


def final_war_attempts(state: State, declarer: str) -> int:
    """11.1: in the final card play a War is resolved at most once for the declarer and once
    more for each player still due to play after them."""
    order = state["order"]
    return int(len(order) - order.index(declarer))
