"""What one player (or the public) may see: a plain dict for reports and templates.

Hands, face-down market cards and deck contents are hidden by leaving them out.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.table import Table
from engine.core.words import render
from engine.pax.cards_view import one_shot_said, op_said
from engine.pax.catalog import PRESTIGE, Catalog
from engine.pax.messages import MESSAGES
from engine.pax.messages.cards import COMET, one_shot_words, op_words
from engine.pax.model import (
    card_location,
    card_name,
    card_ops,
    card_prestige,
    cat,
    city_name,
    describe_token,
    husband_of,
    is_square,
    levy_token,
    open_emporium,
    player,
    side_cards,
    tableau,
)
from engine.pax.notation import border_line_name
from engine.pax.places import cities_of


def _role(t: Table, card_id: str) -> dict[str, Any] | None:
    """How a card sits in a tableau when it is not there on its own, as a message: a crowned
    queen beside her King, a vassal empire under its suzerain."""
    catalog = cat(t)
    if is_square(card_id):
        suzerain = t.state["empires"][catalog.empire_of_square(card_id)].get("suzerain")
        return {"msg": "pax.card.vassal_of", "args": {"empire": catalog.empires[suzerain].name}} \
            if suzerain else None
    husband = husband_of(t, card_id) if catalog.cards[card_id].kind == "queen" else None
    return {"msg": "pax.card.queen_of", "args": {"empire": catalog.empires[husband].name}} \
        if husband else None


@cache
def _op_text(catalog: Catalog, op: str) -> str:
    """An op's words: the catalog's alone decide them (a frozen catalog, hashed by identity),
    so each is rendered once, not for every card of every view (the greedy policy scores a
    whole view per candidate)."""
    return op_words(catalog.ops[op])


@cache
def _one_shot_text(catalog: Catalog, card_id: str) -> str | None:
    """A card's one-shot in words, rendered once per catalog and card, as `_op_text`."""
    names = {e: empire.name for e, empire in catalog.empires.items()}
    return one_shot_words(catalog.cards[card_id].one_shot, names)


def _card(t: Table, card_id: str) -> dict[str, Any]:
    """A card as a player reads it: name, place, prestige, and what it does in words."""
    catalog = cat(t)
    location = card_location(t, card_id)
    bishop = t.state["bishops"].get(card_id)
    data = None if is_square(card_id) else catalog.cards[card_id]
    kind = "square" if data is None else data.kind
    names = {e: empire.name for e, empire in catalog.empires.items()}
    role = _role(t, card_id)
    return {
        "id": card_id,
        "kind": kind,
        "name": card_name(t, card_id),
        "location": catalog.empires[location].name if location in catalog.empires
        else (f"the {location.title()}" if location else "none"),
        "prestige": list(card_prestige(t, card_id)),
        "bishop": bishop,
        "role": render(role, MESSAGES) if role else None,
        "ops": [_op_text(catalog, op) for op in card_ops(t, card_id)],
        "one_shot": _one_shot_text(catalog, card_id) if data else None,
        "abilities": [str(catalog.abilities[a]["summary"]) for a in data.abilities] if data
        else [],
        "comet": COMET if kind == "comet" else None,
        # the same words as messages (id and arguments), for a reader in another language
        "said": {"role": role, "ops": [op_said(catalog.ops[op]) for op in card_ops(t, card_id)],
                 "one_shot": one_shot_said(data.one_shot, names) if data else None,
                 "comet": {"msg": "pax.card.comet", "args": {}} if kind == "comet" else None,
                 "abilities": [{"key": f"ability:pax.{a}", "text": str(catalog.abilities[a]["summary"])}
                               for a in data.abilities] if data else []},
    }


def _player(t: Table, bank: str, viewer: str | None) -> dict[str, Any]:
    data = player(t, bank)
    show_hand = viewer == bank or t.state["options"].get("open_hands")
    concessions = sum(1 for c in t.state["borders"].values() if c.get("concession") == f"pawn:{bank}")
    cards = tableau(t, bank)
    icons = [card_prestige(t, c) for c in cards]  # what `prestige` counts, read once per kind
    return {
        "bank": bank,
        "florins": data["florins"],
        "hand_size": len(data["hand"]),
        "hand": [_card(t, c) for c in data["hand"]] if show_hand else None,
        # Couples and vassals sit beside their King or suzerain, so every card counted in
        # the tableau is listed.
        "west": [_card(t, c) for c in reversed(side_cards(t, bank, "west"))],
        "east": [_card(t, c) for c in side_cards(t, bank, "east")],
        "old_maids": [_card(t, c) for c in data["old_maids"]],
        "prestige": {kind: sum(each.count(kind) for each in icons) for kind in PRESTIGE},
        "concessions": concessions,
        "tableau_size": len(cards),
    }


def _market(t: Table) -> dict[str, list[dict[str, Any]]]:
    rows = {}
    for side, row in t.state["market"].items():
        slots = []
        for column, slot in enumerate(row):
            face_up = column > 0 and slot["card"] is not None
            slots.append({
                "column": column,
                "cost": column,
                "face_up": face_up,
                "card": _card(t, slot["card"]) if face_up else None,
                "florins": slot["florins"],
                "empty": slot["card"] is None,
            })
        rows[side] = slots
    return rows


def _map(t: Table) -> list[dict[str, Any]]:
    empires = []
    catalog = cat(t)
    for empire_id, empire in catalog.empires.items():
        data = t.state["empires"][empire_id]
        cities = []
        for city_id in cities_of(t, empire_id):
            busted = city_id in t.state["busted"]
            occupant = t.state["cities"].get(city_id)
            cities.append({
                "id": city_id,
                "name": city_name(t, city_id),
                "capital": catalog.cities[city_id].capital,
                "busted": busted,
                "token": describe_token(occupant) if occupant else None,
                "levy": None if busted else describe_token(levy_token(t, city_id)),
            })
        borders = []
        for border_id in empire.borders:
            content = t.state["borders"].get(border_id, {})
            borders.append({
                "name": border_line_name(catalog, border_id),
                "sea": catalog.borders[border_id].sea,
                "concession": content["concession"].split(":")[1] if "concession" in content
                else None,
                "pirate": describe_token(content["pirate"]) if "pirate" in content else None,
            })
        square = catalog.squares[empire_id]
        empires.append({
            "id": empire_id,
            "name": empire.name,
            "region": empire.region,
            "religion": data["religion"],
            "ruler": data["ruler"] or "throne",
            "side": data["side"],
            "square": square.king.name if data["side"] == "king" else square.republic.name,
            "repressed": [describe_token(tok) for tok in data["repressed"]],
            "bishop": t.state["bishops"].get(f"empire_square_{empire_id}"),
            "suzerain": data.get("suzerain"),  # the empire this one is a vassal of, if any
            "cities": cities,
            "borders": borders,
        })
    return empires


def _routes(t: Table) -> dict[str, dict[str, Any]]:
    routes = {}
    for side in ("east", "west"):
        emporium = open_emporium(t, side)
        steps = []
        for step in cat(t).routes[emporium].sequence:
            if step in cat(t).empires:
                steps.append(cat(t).empires[step].name)
        routes[side] = {"emporium": city_name(t, emporium), "empires": steps}
    return routes


def view_for(t: Table, viewer: str | None) -> dict[str, Any]:
    state = t.state
    return {
        "viewer": viewer,
        "options": dict(state["options"]),
        "turn": dict(state["turn"]),
        "order": list(state["order"]),
        "eliminated": list(state["eliminated"]),
        "players": [_player(t, bank, viewer) for bank in state["seats"]
                    if bank in state["players"]],
        "market": _market(t),
        "decks": {side: sum(len(s) for s in segments) + (1 if state["preview"].get(side) else 0)
                  for side, segments in state["decks"].items()},
        "preview": {side: (_card(t, c) if c else None) for side, c in state["preview"].items()},
        "map": _map(t),
        "routes": _routes(t),
        "victory": dict(state["victory"]),
        "discard_count": len(state["discard"]),
        "over": state["over"],
        "winners": list(state["winners"]),
        "result": state["result"],
    }
