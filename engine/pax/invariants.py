"""Checks that hold after every decision; a failure is an engine bug, never a player's fault."""

from __future__ import annotations

from collections import Counter

from engine.core.errors import InvariantViolation
from engine.core.table import Table
from engine.pax.abilities import Ability, hand_limit, has_ability
from engine.pax.model import cat, concession_owner, supply_of, tokens_in_play
from engine.pax.places import cities_of


def card_zones(t: Table) -> Counter[str]:
    """How many times each card appears across every zone of the game."""
    state = t.state
    seen: Counter[str] = Counter()
    for segments in state["decks"].values():
        for segment in segments:
            seen.update(segment)
    for row in state["market"].values():
        seen.update(slot["card"] for slot in row if slot["card"])
    for data in state["players"].values():
        for zone in ("hand", "west", "east", "old_maids"):
            seen.update(data[zone])
    seen.update(e["queen"] for e in state["empires"].values() if e.get("queen"))
    seen.update(state["box"])
    seen.update(state["discard"])
    seen.update(card for card in state.get("preview", {}).values() if card)
    return seen


def check_invariants(t: Table) -> None:
    problems = list(_problems(t))
    if problems:
        raise InvariantViolation("; ".join(problems))


def _problems(t: Table) -> list[str]:
    state = t.state
    problems = []
    zones = card_zones(t)
    for card_id, count in zones.items():
        if count != 1:
            problems.append(f"card {card_id} is in {count} zones")
    expected = {c.id for c in cat(t).cards.values()
                if c.set == "base" or state["options"]["map"] == "age_of_reformation"}
    missing = expected - set(zones)
    if missing:
        problems.append(f"cards in no zone: {sorted(missing)[:5]}")
    for tok, used in tokens_in_play(state).items():
        if used > supply_of(cat(t), tok):
            problems.append(f"{used} {tok} in play, supply is {supply_of(cat(t), tok)}")
    for bank, data in state["players"].items():
        if data["florins"] < 0:
            problems.append(f"{bank} has {data['florins']} florins")
        limit = hand_limit(t, bank)
        discarding = any(n["action"] == "hand_discard" and n["player"] == bank
                         for n in t.agenda)
        if limit is not None and len(data["hand"]) > limit and not discarding:
            problems.append(f"{bank} holds {len(data['hand'])} cards")
    for side, row in state["market"].items():
        if any(slot["florins"] < 0 for slot in row):
            problems.append(f"negative florins in the {side} market")
    for border_id, content in state["borders"].items():
        owner = concession_owner(t, border_id)
        shared = owner is not None and has_ability(t, owner, Ability.CONCESSIONS_IMMUNE_TO_PIRATES)
        if len(content) > 1 and not shared:
            problems.append(f"{border_id} holds {sorted(content.values())}")
    for city_id in state["cities"]:
        if city_id not in cities_of(t, cat(t).cities[city_id].empire):
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
