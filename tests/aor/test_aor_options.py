"""The Expansion and Acquisition Phases' option lists are computed with shortcuts (engine.aor
.battle.expansion_moves: one pass, a floor under an attack's tokens, records read directly, the
reach kept by the player's facts; purchase_options: no Reason built, facts read once). Here, at
every such decision of seeded random games, they are checked against the rules asked one by
one: each reachable province's placement limit from its `presence`, an attack listed exactly
when `attack_problem` finds nothing wrong, a purchase exactly when `purchase_problem` does."""

from __future__ import annotations

import random

import pytest

from engine.aor.advances import Purchase, price, purchase_options, purchase_problem, usable_leaders
from engine.aor.battle import attack_options, attack_problem, expansion_moves
from engine.aor.board import controller, markers_in_stock, presence, tokens_in
from engine.aor.catalog import Catalog
from engine.aor.model import State, owns, player
from engine.aor.reach import _land_reach, _sea_reach, bases, enterable, reach, shipped
from engine.aor.ruleset import AOR
from engine.aor.strength import attack_terms
from engine.core.adjudicate import answer, settle
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import SeededChance
from tests.aor.helpers import aor


def fresh_reach(catalog: Catalog, state: State, pid: str) -> dict[str, int | None]:
    """`reach` computed afresh (nothing kept between calls but the galleys' map-only reach)."""
    home, regions = bases(state, pid), enterable(catalog, state, pid)
    found = _sea_reach(catalog, state, pid, home, regions)
    land = _land_reach(catalog, home, regions)
    if owns(state, pid, "caravan"):  # a second land step through a province no opponent controls
        for middle in {m for base in home for m in catalog.provinces[base].land}:
            if catalog.provinces[middle].region in regions and \
                    controller(catalog, state, middle) in (None, pid):
                land |= {w for w in catalog.provinces[middle].land
                         if catalog.provinces[w].region in regions}
    for where in land:
        found[where] = None
    return dict(sorted(found.items()))


def placement_by_the_rules(catalog: Catalog, state: State, pid: str, where: str,
                           ship: int | None) -> int:
    market = catalog.provinces[where].market
    limit = min(market - sum(presence(catalog, state, where).values()),
                market - tokens_in(state, where, pid), int(player(state, pid)["purchased"]))
    if ship is not None:
        limit = min(limit, ship - max(shipped(state, pid, where),
                                      tokens_in(state, where, pid, new=True)))
    return max(0, limit)


def check_expansion(catalog: Catalog, state: State, pid: str) -> int:
    routes = reach(catalog, state, pid)
    assert routes == fresh_reach(catalog, state, pid)
    limits, attacks = expansion_moves(catalog, state, pid, routes)
    assert limits == {w: placement_by_the_rules(catalog, state, pid, w, ship)
                      for w, ship in routes.items()}
    stock = markers_in_stock(catalog, state, pid)
    expected = [attack for attack in (attack_terms(catalog, state, pid, w) for w in routes)
                if attack_problem(catalog, state, attack, routes, stock) is None]
    assert attacks == expected == attack_options(catalog, state, pid)
    return len(attacks)


def check_purchases(catalog: Catalog, state: State, pid: str) -> int:
    expected = [Purchase(advance, leader, price(catalog, state, pid, advance, leader))
                for advance in sorted(catalog.advances, key=lambda a: catalog.advances[a].letter)
                for leader in [None, *usable_leaders(catalog, state, pid, advance)]
                if purchase_problem(catalog, state, pid, advance, leader) is None]
    assert purchase_options(catalog, state, pid) == expected
    return len(expected)


@pytest.mark.parametrize("players,seed", [(3, "options-a"), (6, "options-b")])
def test_expansion_options_match_the_rules_province_by_province(players: int, seed: str) -> None:
    catalog, chance = aor(), SeededChance(seed.encode(), seed, 0)
    table, _ = AOR.setup(catalog, seed, [f"p{i}" for i in range(players)],
                         {"end": "advances"}, chance)
    pick = random.Random(seed)
    checked = attacks = purchases = 0
    _, known = settle(AOR, table, chance)
    while not AOR.is_over(table) and checked < 150:
        who = waiting_for(table.agenda)[0]
        node = next_pending(table.agenda)
        if node is not None and node["action"] == "expand" and \
                player(table.state, who)["purchased"] >= 1:
            attacks += check_expansion(catalog, table.state, who)
            checked += 1
        if node is not None and node["action"] == "acquire":
            purchases += check_purchases(catalog, table.state, who)
        answer(AOR, table, pick.choice(known[who]), chance, who)
        _, known = settle(AOR, table, chance)
    # enough expansion turns, with battles on offer, and Advances to buy
    assert checked >= 50 and attacks >= 50 and purchases >= 50
