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
    lang: Annotated[str, typer.Option(
        "--lang", help="The language of what a card does (its name stays as printed): en, hu.")]
    = "en",
) -> None:
    """List the cards, or show the details of the cards whose name matches QUERY."""
    from pbem import i18n  # start-up: only `cards` checks a language here

    i18n.check_language(lang)
    rules = rulesets.ruleset_for(ruleset)
    catalog = rulesets.catalog_for(ruleset)
    found = rules.card_entries(catalog, query)
    if not found:
        raise UsageError(f"no card matches '{query}'; try a shorter part of the name")
    if as_json:
        typer.echo(json.dumps(found, ensure_ascii=False))
    elif query and len(found) <= 5:
        from pbem.views import cards  # start-up: only a card's details are said

        typer.echo("\n\n".join(cards.said(rules, catalog, entry, lang) for entry in found))
    else:
        for entry in found:
            typer.echo(rules.card_line(entry))
