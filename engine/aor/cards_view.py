"""`pbem cards` for Age of Renaissance: the History cards and the Advances of Age of Renaissance."""

from __future__ import annotations

from typing import Any

from engine.aor.catalog import Advance, Card, Catalog
from engine.core.choice import fold


def describe_card(catalog: Catalog, card: Card) -> dict[str, Any]:
    return {
        "id": card.id, "name": card.name, "type": "history", "kind": card.kind,
        "epoch": card.epoch, "after_play": card.after_play,
        "commodities": [catalog.commodities[c].name for c in card.commodities],
        "event": card.verb, "params": dict(card.params),
        "interactions": dict(card.interactions),
        "discounts": {catalog.advances[a].name: n for a, n in card.discounts.items()},
    }


def describe_advance(catalog: Catalog, advance: Advance) -> dict[str, Any]:
    return {
        "id": advance.id, "name": advance.name, "type": "advance", "letter": advance.letter,
        "group": advance.group, "cost": advance.cost, "credit": advance.credit,
        "requires": [catalog.advances[a].name for a in advance.requires],
        "misery": advance.misery,
    }


def entries(catalog: Catalog, query: str | None) -> list[dict[str, Any]]:
    """Every card then every Advance; with a query, the exact id/name/letter matches, else
    those whose name contains it."""
    cards = [describe_card(catalog, c) for c in sorted(catalog.cards.values(),
                                                         key=lambda c: (c.epoch, c.id))]
    advances = [describe_advance(catalog, a) for a in sorted(catalog.advances.values(),
                                                             key=lambda a: a.letter)]
    everything = cards + advances
    if not query:
        return everything
    words = fold(query)
    exact = [e for e in everything
             if words in (fold(e["id"]), fold(e["name"]), fold(str(e.get("letter", ""))))]
    return exact or [e for e in everything if words in fold(e["name"])]


def line(entry: dict[str, Any]) -> str:
    if entry["type"] == "advance":
        return (f"{entry['letter']:3} advance  {entry['group']:13} {entry['cost']:3}/"
                f"{entry['credit']:<3} {entry['name']}")
    return f"E{entry['epoch']}  {entry['kind']:9} {entry['after_play']:13} {entry['name']} ({entry['id']})"


def text(entry: dict[str, Any]) -> str:
    shown = [f"{entry['id']}  {entry['name']}"]
    for key, value in entry.items():
        if key in ("id", "name") or value in ({}, [], None):
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        shown.append(f"  {key}: {value}")
    return "\n".join(shown)
