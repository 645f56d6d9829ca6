"""Pax Renaissance scenario starts: a seeded setup adjusted by card moves, deletions and
patches (the keys of `given`, docs/scenarios.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core.agenda import new_node
from engine.core.chance import SeededChance
from engine.core.table import Event, Table
from engine.pax.ruleset import PAX
from pbem.play.scenarios.paths import (
    ScenarioError,
    ScenarioRules,
    check_keys,
    delete_path,
    get_path,
    set_path,
)
from pbem.rulesets import pax_catalog

GIVEN_KEYS = ("players", "seed", "options", "turn", "clear", "move", "delete", "patch")
MOVE_KEYS = ("card", "from", "to")
SORTED_ZONES = ("hand", "old_maids", "box", "discard")
SEATS = ("a", "b", "c", "d")


# --- card moves ---------------------------------------------------------------------------


def _card_lists(state: dict[str, Any]) -> Iterator[list[str]]:
    for segments in state["decks"].values():
        yield from segments
    for data in state["players"].values():
        for zone in ("hand", "west", "east", "old_maids"):
            yield data[zone]
    yield state["box"]
    yield state["discard"]


def take_card(state: dict[str, Any], card_id: str) -> None:
    """Remove a card from whichever zone holds it."""
    for cards in _card_lists(state):
        if card_id in cards:
            cards.remove(card_id)
            return
    for row in state["market"].values():
        for slot in row:
            if slot["card"] == card_id:
                slot["card"] = None
                return
    for side, preview in state.get("preview", {}).items():
        if preview == card_id:
            state["preview"][side] = None
            return
    raise ScenarioError(f"move: card {card_id} is in no zone")


def put_card(state: dict[str, Any], card_id: str, path: str) -> None:
    target = get_path(state, path)
    if isinstance(target, dict) and "card" in target:  # a market slot
        if target["card"] is not None:
            state["box"].append(target["card"])
            state["box"].sort()
        target["card"] = card_id
    elif isinstance(target, list):
        target.append(card_id)
        if path.split(".")[-1] in SORTED_ZONES:
            target.sort()
    elif path.startswith("preview.") and target is None:
        set_path(state, path, card_id)
    else:
        raise ScenarioError(f"move: '{path}' is not a card zone or market slot")


def clear_zone(state: dict[str, Any], path: str) -> None:
    """Send every card at `path` (a deck, a deck segment, a card list, a market slot) to the
    box, the pile of cards out of the game."""
    target = get_path(state, path)
    if isinstance(target, dict) and "card" in target:
        cards = [target["card"]] if target["card"] else []
        target["card"] = None
    elif isinstance(target, list) and all(isinstance(item, list) for item in target):
        cards = [card for segment in target for card in segment]
        for segment in target:
            segment.clear()
    elif isinstance(target, list) and all(isinstance(item, str) for item in target):
        cards = list(target)
        target.clear()
    else:
        raise ScenarioError(f"clear: '{path}' is not a card zone, deck or market slot")
    state["box"] = sorted(state["box"] + cards)


def apply_move(state: dict[str, Any], move: dict[str, Any]) -> None:
    if "card" in move:
        card_id = str(move["card"])
        if card_id not in pax_catalog().cards:
            raise ScenarioError(f"move: unknown card '{card_id}'")
    else:
        slot = get_path(state, move["from"])
        if not isinstance(slot, dict) or not slot.get("card"):
            raise ScenarioError(f"move: '{move['from']}' is not a market slot holding a card")
        card_id = slot["card"]
    take_card(state, card_id)
    put_card(state, card_id, str(move["to"]))


def build_table(given: dict[str, Any]) -> tuple[Table, SeededChance, list[Event]]:
    given = check_given(given)
    players = int(given["players"])
    chance = SeededChance(str(given["seed"]).encode(), "scenario", 0)
    table, events = PAX.setup(pax_catalog(), "scenario", list(SEATS[:players]),
                              dict(given.get("options") or {}), chance)
    state = table.state
    if "turn" in given:
        bank = given["turn"]
        if bank not in state["order"]:
            raise ScenarioError(f"given.turn: {bank} is not in this game ({state['order']}); "
                                "pick another seed")
        state["turn"] = {"number": 1, "player": bank, "actions": 0, "used": [], "usury": []}
        table.agenda[:] = [new_node(state, "turn", bank)]
    for path in given.get("clear") or []:
        clear_zone(state, str(path))
    for move in given.get("move") or []:
        apply_move(state, move)
    for path in given.get("delete") or []:
        delete_path(state, str(path))
    for path, value in (given.get("patch") or {}).items():
        set_path(state, str(path), value)
    for key in ("cities", "borders", "bishops"):
        state[key] = dict(sorted(state[key].items()))
    PAX.check_invariants(table)
    return table, chance, events




def check_given(raw: Any) -> dict[str, Any]:
    given = check_keys("given", raw, GIVEN_KEYS, ("players", "seed"))
    for index, move in enumerate(given.get("move", [])):
        check_keys(f"given.move[{index}]", move, MOVE_KEYS, ("to",))
        if ("card" in move) == ("from" in move):
            raise ScenarioError(f"given.move[{index}]: give exactly one of 'card' or 'from'")
    return given


RULES = ScenarioRules(start=build_table)
