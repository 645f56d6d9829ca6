"""`pbem cards` for Pax Renaissance: each card as data (name, ops, one-shot, agents, prestige)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.choice import fold
from engine.pax.catalog import Card, Catalog
from engine.pax.messages.cards import (
    COMET,
    one_shot_args,
    one_shot_words,
    op_args,
    op_words,
    prestige_words,
)


# A card's words as messages (ids and arguments), so the edge can say them in the reader's
# language; the rules name the ids here (tests/engine/test_messages.py), the catalog words them.
def op_said(row: Mapping[str, Any]) -> dict[str, Any]:
    """One op as a message, from its op catalog row."""
    return {"msg": f"pax.card.op.{row['type']}", "args": op_args(row)}


def one_shot_said(shot: Mapping[str, Any] | None,
                  empire_names: Mapping[str, str]) -> dict[str, Any] | None:
    """A card's one-shot as a message, or None."""
    if not shot:
        return None
    return {"msg": f"pax.card.oneshot.{shot['type']}", "args": one_shot_args(shot, empire_names)}


def describe(catalog: Catalog, card: Card) -> dict[str, Any]:
    one_shot = dict(card.one_shot) if card.one_shot else None
    return {
        "id": card.id,
        "name": card.name,
        "deck": card.deck,
        "kind": card.kind,
        "set": card.set,
        "location": (catalog.empires[card.location].name if card.location in catalog.empires
                     else f"the {card.location.title()}" if card.location
                     else "none (takes her husband's empire)"),
        "prestige": list(card.prestige),
        "ops": [f"{op} ({catalog.ops[op]['type']})" for op in card.ops],
        "one_shot": one_shot,
        "agents": [f"{a.religion + ' ' if a.religion else ''}{a.type}" for a in card.agents],
        "abilities": {a: str(catalog.abilities[a]["summary"]) for a in card.abilities},
        "sell_value": card.sell_value,
        # The same card in words, for people (the keys above are data, for scripts).
        "words": {
            "ops": [op_words(catalog.ops[op]) for op in card.ops],
            "one_shot": one_shot_words(card.one_shot, {e: x.name for e, x in
                                                        catalog.empires.items()}),
            "abilities": [str(catalog.abilities[a]["summary"]) for a in card.abilities],
            "comet": COMET if card.kind == "comet" else None,
        },
    }


def said(catalog: Catalog, card_id: str) -> dict[str, Any]:
    """A card's words (`describe`'s "words") as messages (ids and arguments), so the edge can
    say them in the reader's language."""
    card = catalog.cards[card_id]
    return {
        "ops": [op_said(catalog.ops[op]) for op in card.ops],
        "one_shot": one_shot_said(card.one_shot, {e: x.name for e, x in catalog.empires.items()}),
        "abilities": [{"key": f"ability:pax.{a}", "text": str(catalog.abilities[a]["summary"])}
                      for a in card.abilities],
        "comet": {"msg": "pax.card.comet", "args": {}} if card.kind == "comet" else None,
    }


def matching(catalog: Catalog, query: str) -> list[Card]:
    words = fold(query)
    exact = [c for c in catalog.cards.values() if words in (fold(c.id), fold(c.name))]
    if exact:
        return exact
    return sorted((c for c in catalog.cards.values() if words in fold(c.name)),
                  key=lambda c: c.id)


def text(details: dict[str, Any]) -> str:
    """A card as a player reads it: what it is, where it goes, and what it does in words."""
    words = details["words"]
    kind = {"regular": "", "queen": "queen, ", "comet": "COMET, "}[details["kind"]]
    lines = [f"{details['id']}  {details['name']}",
             f"  {kind}{details['deck']} deck; location: {details['location']}; "
             f"sells for {details['sell_value']}",
             f"  prestige: {prestige_words(details['prestige'])}"]
    if words["comet"]:
        lines.append(f"  {words['comet']}.")
    for op in words["ops"]:
        lines.append(f"  op: {op}")
    if words["one_shot"]:
        lines.append(f"  one-shot when played: {words['one_shot']}")
    if details["agents"]:
        lines.append(f"  agents when played: {', '.join(details['agents'])}")
    for summary in words["abilities"]:
        lines.append(f"  ability: {summary}")
    return "\n".join(lines)


def entries(catalog: Catalog, query: str | None) -> list[dict[str, Any]]:
    """Every card by id; with a query, the exact id or name matches, else names containing it."""
    found = matching(catalog, query) if query else sorted(catalog.cards.values(),
                                                          key=lambda c: c.id)
    return [describe(catalog, card) for card in found]


def line(entry: dict[str, Any]) -> str:
    return f"{entry['id']:9} {entry['deck']:4} {entry['kind']:7} {entry['name']}"
