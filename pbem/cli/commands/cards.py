"""`pbem cards`: look cards up while writing orders (the ruleset says what a card shows)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from pbem import rulesets
from pbem.cli.typer_app import app, boundary
from pbem.errors import UsageError


@app.command(name="cards")
@boundary
def cards_command(
    query: Annotated[str | None, typer.Argument(help="Card id or part of a name.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON output.")] = False,
    ruleset: Annotated[str, typer.Option(help="The game's ruleset.")] = rulesets.DEFAULT,
) -> None:
    """List the cards, or show the details of the cards whose name matches QUERY."""
    rules = rulesets.ruleset_for(ruleset)
    found = rules.card_entries(rulesets.catalog_for(ruleset), query)
    if not found:
        raise UsageError(f"no card matches '{query}'; try a shorter part of the name")
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False))
    elif query and len(found) <= 5:
        typer.echo("\n\n".join(rules.card_text(entry) for entry in found))
    else:
        for entry in found:
            typer.echo(rules.card_line(entry))
