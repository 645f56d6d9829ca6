"""Fighting for a province (9.5.2, H, A.2 military cards; rulings R05, R21, R44-R46): the
placements and attacks open to a player, Cathedral, and the battle itself. The strengths and
the tokens an attack needs are engine.aor.strength's; the dice are engine.aor.dice's.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.aor.board import (
    add_token_from_stock,
    marker_of,
    markers_in_stock,
    place_tokens,
    presence,
    put_marker,
    remove_marker,
    remove_tokens,
    tokens_in,
)
from engine.aor.catalog import Catalog
from engine.aor.dice import Cathedral, Outcome, Roll, Terms, resolve, roll
from engine.aor.model import State, owns, player
from engine.aor.order import rank
from engine.aor.reach import reach, record_shipped, shipped
from engine.aor.reasons import why
from engine.aor.strength import Attack, Sides, has_advantage, uses_advance
from engine.core.chance import Chance
from engine.core.errors import IllegalOrder, Reason

PROSELYTISM, CATHEDRAL = "proselytism", "cathedral"


# --- Cathedral (H, R21) ---------------------------------------------------------------------------


def cathedral_free(state: State, user: str, against: str) -> bool:
    """An owner may win one battle a turn against each player who does not own Cathedral."""
    return (uses_advance(state, user, CATHEDRAL) and not owns(state, against, CATHEDRAL)
            and against not in state["round"]["cathedral"].get(user, []))


def may_use_cathedral(state: State, pid: str) -> bool:
    """Whether the player's Cathedral works at all: without it, attacker_may_declare is False
    for every attack (an option list asks once)."""
    return uses_advance(state, pid, CATHEDRAL)


def attacker_may_declare(state: State, attack: Attack) -> bool:
    """The attacker's Cathedral must be free against every defender (R45)."""
    return bool(attack.defenders) and all(cathedral_free(state, attack.attacker, d) for d in attack.defenders)


def defenders_who_may_declare(state: State, attack: Attack) -> list[str]:
    """Defenders to ask out of turn before the dice (R21)."""
    return [d for d in attack.defenders if cathedral_free(state, d, attack.attacker)]


def _record_cathedral(state: State, user: str, against: list[str]) -> None:
    uses = state["round"]["cathedral"]
    uses[user] = sorted(set(uses.get(user, [])) | set(against))
    state["round"]["cathedral"] = dict(sorted(uses.items()))


def attack_options(catalog: Catalog, state: State, pid: str,
                   routes: dict[str, int | None] | None = None) -> list[Attack]:
    """Every attack the player can make now, by province (`routes`: the player's `reach`, when
    the caller already has it)."""
    if player(state, pid)["purchased"] < 1:  # an attack places at least one token (R44)
        return []
    routes = reach(catalog, state, pid) if routes is None else routes
    return expansion_moves(catalog, state, pid, routes)[1]


def expansion_moves(catalog: Catalog, state: State, pid: str, routes: dict[str, int | None], *,
                    attacks: bool = True, stock: int | None = None
                    ) -> tuple[dict[str, int], list[Attack]]:
    """The most tokens the player may place in each province of `routes` (their `reach`)
    without a battle, and (with `attacks`) every attack they can make there, in one pass: each
    province's record read once. A placement stays within the market, the player's own tokens
    within it too, and what the ships may still carry there (a ship limit is a number only when
    ships alone reach it). The attacks are those for which attack_problem is None, found
    without building a Reason for the many left out, and weighed only where one may fit.
    `stock` is the player's markers in stock, when the caller already has it."""
    purchased = int(player(state, pid)["purchased"])
    board, provinces = state["provinces"], catalog.provinces
    carried = state["round"].get("shipped", {}).get(pid, {})  # as `shipped`
    sides = Sides(catalog, state, pid) if attacks and purchased >= 1 else None  # R44
    if sides and stock is None:  # the markers in stock: the same for each attack
        stock = markers_in_stock(catalog, state, pid)
    no_marker = stock is not None and stock <= 0
    limits, found = {}, []
    for where, ship in routes.items():
        province = provinces[where]
        market, data = province.market, board.get(where)
        if data is None:  # empty: the market and the tokens bought bound it; no opponent
            limit = min(market, purchased)
            if ship is not None:
                limit = min(limit, ship - max(int(carried.get(where, 0)), 0))
            limits[where] = limit if limit > 0 else 0
            continue
        tokens, new, marker = data["tokens"], data["new"], data["marker"]
        fresh = int(new.get(pid, 0))
        present = fresh + int(tokens.get(pid, 0))  # tokens_in
        weight = sum(tokens.values()) + sum(new.values()) + (market if marker else 0)  # presence's
        room = None if ship is None else ship - max(int(carried.get(where, 0)), fresh)
        limit = min(market - weight, market - present, purchased)
        if room is not None and room < limit:
            limit = room
        limits[where] = limit if limit > 0 else 0
        if sides is None or (no_marker and not province.satellite):
            continue  # no_marker, whatever the strengths
        if len(tokens) - (pid in tokens) <= 0 and len(new) - (pid in new) <= 0 \
                and marker in (None, pid):
            continue  # no_opponent: nobody else in `presence`
        # attack_tokens and fleet_carries for a floor under the tokens to place: the market
        # size + 1 less the opponents' weight (only an overfilled market is fought over, R44),
        # or more from the strengths; less the attacker's tokens there
        others = weight - present - (market if marker == pid else 0)  # the opponents' weight
        least = sides.least_required(where, others)
        need = max(1, (market + 1 - others if least is None else least) - present)
        if need > purchased or (room is not None and need > room):
            continue
        attack = sides.terms(where, presence(catalog, state, where), present)
        if attack.new_tokens <= purchased and (room is None or attack.new_tokens <= room):
            found.append(attack)  # the tokens bought cover it and the fleet carries them
    return limits, found


# --- the battle ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Battle:
    attack: Attack
    dice: Roll | None  # None when a Cathedral settled it before the roll
    outcome: Outcome
    took_marker_from: str | None  # whose domination marker the attacker took (Written Record)


def attack_problem(catalog: Catalog, state: State, attack: Attack,
                   routes: dict[str, int | None] | None = None,
                   stock: int | None = None) -> Reason | None:
    """Why this attack cannot be made now; None if it can. `routes` is the attacker's `reach`
    and `stock` its markers in stock, when the caller already has them."""
    routes = reach(catalog, state, attack.attacker) if routes is None else routes
    where = catalog.provinces[attack.province].name
    if attack.province not in routes:
        return why("out_of_reach", province=where, player=attack.attacker)
    ship_limit = routes[attack.province]
    if not attack.defenders:
        return why("no_opponent", province=where)
    if attack.new_tokens > player(state, attack.attacker)["purchased"]:
        return why("attack_tokens", province=where, needed=attack.new_tokens,
                   player=attack.attacker, held=player(state, attack.attacker)["purchased"])
    carried = max(shipped(state, attack.attacker, attack.province),
                  tokens_in(state, attack.province, attack.attacker, new=True))
    if ship_limit is not None and carried + attack.new_tokens > ship_limit:
        return why("fleet_carries", limit=ship_limit, province=where)
    satellite = catalog.provinces[attack.province].satellite
    stock = markers_in_stock(catalog, state, attack.attacker) if stock is None else stock
    if not satellite and stock <= 0:
        return why("no_marker", player=attack.attacker)
    return None


def fight(catalog: Catalog, state: State, attack: Attack, chance: Chance, *,
          cathedral: Cathedral = Cathedral.NONE, defender_cathedral: str | None = None) -> Battle:
    """Place the tokens, then settle the battle: by a declared Cathedral, else by three public
    dice. The loser's pieces go back to stock; a winner takes the province with a marker (one
    token in a satellite)."""
    where, attacker = attack.province, attack.attacker
    routes = reach(catalog, state, attacker)
    problem = attack_problem(catalog, state, attack, routes)
    if problem:
        legal = attack_options(catalog, state, attacker)
        raise IllegalOrder(problem, options=[f"attack {a.province}" for a in legal])
    if cathedral is Cathedral.ATTACKER and not attacker_may_declare(state, attack):
        raise IllegalOrder(f"{attacker} cannot use Cathedral against everyone in {where}")
    if cathedral is Cathedral.DEFENDER and defender_cathedral not in defenders_who_may_declare(state, attack):
        raise IllegalOrder(f"{defender_cathedral} cannot use Cathedral against {attacker}")
    place_tokens(state, attacker, where, attack.new_tokens)
    if routes[where] is not None:  # shipped: lost or not, they used the fleet's capacity (9.4.1)
        record_shipped(state, attacker, where, attack.new_tokens)
    placed = state["round"]["placed"]
    placed[attacker] = placed.get(attacker, 0) + attack.new_tokens
    state["round"]["placed"] = dict(sorted(placed.items()))
    dice = None
    terms = Terms(rank(catalog, state, attacker), has_advantage(catalog, state, attacker),
                  uses_advance(state, attacker, PROSELYTISM), cathedral)
    if cathedral is Cathedral.ATTACKER:
        _record_cathedral(state, attacker, list(attack.defenders))
    elif cathedral is Cathedral.DEFENDER and defender_cathedral:
        _record_cathedral(state, defender_cathedral, [attacker])
    else:
        dice = roll(chance, f"battle turn {state['turn']} {attacker} {where}")
    # a declared Cathedral decides before any die is read, so no roll is drawn for it
    outcome = resolve(dice or Roll(1, 1, 1), terms, catalog.battle)
    taken = None
    if outcome.attacker_wins:
        taken = marker_of(state, where)
        for loser in attack.defenders:
            remove_tokens(state, loser, where)
        remove_marker(state, where)
        remove_tokens(state, attacker, where)
        if catalog.provinces[where].satellite:
            add_token_from_stock(state, attacker, where, new=True)
        else:
            put_marker(catalog, state, attacker, where)
    else:
        remove_tokens(state, attacker, where)
    return Battle(attack, dice, outcome, taken)
