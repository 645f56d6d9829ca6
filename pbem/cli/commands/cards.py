"""`pbem cards`: look cards up while writing orders (name, ops, one-shot, agents, prestige)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from engine.core.choice import fold
from engine.pax.catalog import Card, Catalog
from pbem.cli.app import app, boundary
from pbem.errors import UsageError
from pbem.resources import pax_catalog


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


def _text(details: dict[str, Any]) -> str:
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


@app.command(name="cards")
@boundary
def cards_command(
    query: Annotated[str | None, typer.Argument(help="Card id or part of a name.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
    ruleset: Annotated[str, typer.Option(help="The game's ruleset.")] = "pax",
) -> None:
    """List the cards, or show the details of the cards whose name matches QUERY."""
    if ruleset == "aor":
        _aor_cards(query, as_json)
        return
    if ruleset != "pax":
        raise UsageError(f"unknown ruleset '{ruleset}'; rulesets: pax, aor")
    catalog = pax_catalog()
    found = matching(catalog, query) if query else sorted(catalog.cards.values(),
                                                          key=lambda c: c.id)
    if not found:
        raise UsageError(f"no card matches '{query}'; try a shorter part of the name")
    if as_json:
        typer.echo(json.dumps([describe(catalog, c) for c in found], ensure_ascii=False))
    elif query and len(found) <= 5:
        typer.echo("\n\n".join(_text(describe(catalog, c)) for c in found))
    else:
        for card in found:
            typer.echo(f"{card.id:9} {card.deck:4} {card.kind:7} {card.name}")


def _aor_cards(query: str | None, as_json: bool) -> None:
    from pbem.cli.commands import aor_cards
    from pbem.resources import aor_catalog

    found = aor_cards.entries(aor_catalog(), query)
    if not found:
        raise UsageError(f"no card or Advance matches '{query}'; try a shorter part of the name")
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False))
    elif query and len(found) <= 5:
        typer.echo("\n\n".join(aor_cards.text(e) for e in found))
    else:
        for entry in found:
            typer.echo(aor_cards.line(entry))
