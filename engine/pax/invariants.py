"""Checks that hold after every decision; a failure is an engine bug, never a player's fault."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from engine.core.errors import InvariantViolation
from engine.core.table import Table
from engine.pax.abilities import HAND_LIMIT, Ability, hand_limit, has_ability
from engine.pax.catalog import Catalog
from engine.pax.model import cat, concession_owner, supply_of, tokens_in_play
from engine.pax.places import off_map


def _cards(state: dict[str, Any]) -> list[str]:
    """Every zone's cards, in a fixed order (each card should be in exactly one): lists
    joined, not a chain of generators (this runs after every answer)."""
    cards: list[str] = []
    for segments in state["decks"].values():
        for segment in segments:
            cards += segment
    for row in state["market"].values():
        cards += [slot["card"] for slot in row if slot["card"]]
    for data in state["players"].values():
        cards += data["hand"]
        cards += data["west"]
        cards += data["east"]
        cards += data["old_maids"]
    cards += [e["queen"] for e in state["empires"].values() if e.get("queen")]
    cards += state["box"]
    cards += state["discard"]
    cards += [card for card in state.get("preview", {}).values() if card]
    return cards


def check_invariants(t: Table) -> None:
    problems = list(_problems(t))
    if problems:
        raise InvariantViolation("; ".join(problems))


@cache
def _expected_cards(catalog: Catalog, promo_map: bool) -> frozenset[str]:
    """The cards a game holds: the base set, and the promo cards on the promo map (the catalog
    is hashed by identity)."""
    return frozenset(c.id for c in catalog.cards.values() if c.set == "base" or promo_map)


@cache
def _supplies(catalog: Catalog) -> dict[str, int]:
    """Every token the catalog supplies, with its supply (`supply_of` of each): one dict read
    per token in play, not a cache keyed by the catalog and the token."""
    return {f"{kind}:{colour}": supply_of(catalog, f"{kind}:{colour}")
            for kind, colours in catalog.supply.items() if ":" not in kind for colour in colours}


def _problems(t: Table) -> list[str]:
    state = t.state
    problems = []
    cards = _cards(state)
    seen = set(cards)
    if len(seen) != len(cards):  # some card counted twice: name each
        problems += [f"card {card_id} is in {count} zones"
                     for card_id, count in Counter(cards).items() if count != 1]
    catalog = cat(t)
    expected = _expected_cards(catalog, state["options"]["map"] == "age_of_reformation")
    missing = expected - seen if seen != expected else ()  # equal: the usual case, no new set
    if missing:
        problems.append(f"cards in no zone: {sorted(missing)[:5]}")
    supplies = _supplies(catalog)
    for tok, used in tokens_in_play(state).items():
        supply = supplies.get(tok)
        if supply is None:  # a token the catalog does not list (damage): supply_of says 0
            supply = supply_of(catalog, tok)
        if used > supply:
            problems.append(f"{used} {tok} in play, supply is {supply}")
    for bank, data in state["players"].items():
        if data["florins"] < 0:
            problems.append(f"{bank} has {data['florins']} florins")
        if len(data["hand"]) <= HAND_LIMIT:  # within any limit (the larger one is none)
            continue
        limit = hand_limit(t, bank)
        discarding = any(n["action"] == "hand_discard" and n["player"] == bank
                         for n in t.agenda)
        if limit is not None and len(data["hand"]) > limit and not discarding:
            problems.append(f"{bank} holds {len(data['hand'])} cards")
    for side, row in state["market"].items():
        if any(slot["florins"] < 0 for slot in row):
            problems.append(f"negative florins in the {side} market")
    for border_id, content in state["borders"].items():
        if len(content) < 2:  # one token: nothing to share
            continue
        owner = concession_owner(t, border_id)
        shared = owner is not None and has_ability(t, owner, Ability.CONCESSIONS_IMMUNE_TO_PIRATES)
        if not shared:
            problems.append(f"{border_id} holds {sorted(content.values())}")
    for city_id in off_map(t, state["cities"]):
        problems.append(f"{city_id} holds a token but is not on the map")
    for city_id in state["cities"]:
        if city_id in state["busted"]:
            problems.append(f"busted emporium {city_id} holds a token")
    for node in t.agenda:
        if node.get("player") not in state["order"]:
            problems.append(f"agenda node {node['id']} for {node.get('player')} out of the game")
    if state["over"] and t.agenda:
        problems.append("the game is over but decisions are pending")
    if not state["over"] and not t.agenda:
        problems.append("the game is not over but nothing is pending")
    return problems
