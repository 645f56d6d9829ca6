"""`pbem cards` for Pax Renaissance: each card as data (name, ops, one-shot, agents, prestige)."""

from __future__ import annotations

from typing import Any

from engine.core.choice import fold
from engine.pax.catalog import Card, Catalog


def describe(catalog: Catalog, card: Card) -> dict[str, Any]:
    one_shot = dict(card.one_shot) if card.one_shot else None
    return {
        "id": card.id,
        "name": card.name,
        "deck": card.deck,
        "kind": card.kind,
        "set": card.set,
        "location": card.location or "none (takes her husband's empire)",
        "prestige": list(card.prestige),
        "ops": [f"{op} ({catalog.ops[op]['type']})" for op in card.ops],
        "one_shot": one_shot,
        "agents": [f"{a.religion + ' ' if a.religion else ''}{a.type}" for a in card.agents],
        "abilities": {a: str(catalog.abilities[a]["summary"]) for a in card.abilities},
        "sell_value": card.sell_value,
    }


def matching(catalog: Catalog, query: str) -> list[Card]:
    words = fold(query)
    exact = [c for c in catalog.cards.values() if words in (fold(c.id), fold(c.name))]
    if exact:
        return exact
    return sorted((c for c in catalog.cards.values() if words in fold(c.name)),
                  key=lambda c: c.id)


def text(details: dict[str, Any]) -> str:
    lines = [f"{details['id']}  {details['name']}"]
    for key in ("deck", "kind", "location", "sell_value"):
        lines.append(f"  {key}: {details[key]}")
    for key in ("prestige", "ops", "agents"):
        lines.append(f"  {key}: {', '.join(details[key]) or 'none'}")
    shot = details["one_shot"]
    lines.append("  one-shot: " + (", ".join(f"{k}={v}" for k, v in shot.items()) if shot
                                   else "none"))
    for ability, summary in details["abilities"].items():
        lines.append(f"  ability {ability}: {summary}")
    return "\n".join(lines)


def entries(catalog: Catalog, query: str | None) -> list[dict[str, Any]]:
    """Every card by id; with a query, the exact id or name matches, else names containing it."""
    found = matching(catalog, query) if query else sorted(catalog.cards.values(),
                                                          key=lambda c: c.id)
    return [describe(catalog, card) for card in found]


def line(entry: dict[str, Any]) -> str:
    return f"{entry['id']:9} {entry['deck']:4} {entry['kind']:7} {entry['name']}"
