"""`pbem map`: the board as one self-contained SVG, drawn from the report's own model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.typer_app import GameArg, app, boundary
from pbem.errors import UsageError


@app.command(name="map")
@boundary
def map_command(
    game: GameArg,
    for_player: Annotated[
        str | None, typer.Option("--for", help="Player id; omit for the public picture.")
    ] = None,
    seq: Annotated[int | None, typer.Option(help="Draw the board as it stood after this seq.")] = None,
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write the SVG here (default: stdout).")
                   ] = None,
    png: Annotated[bool, typer.Option("--png", help="Write a PNG image instead (for forums' [img]).")
                   ] = False,
) -> None:
    """Draw the board as an SVG (or a PNG): what the player (or the public) sees in the report."""
    from pbem.pipeline import opening as games  # start-up: --help need not open games
    from pbem.views import board  # start-up: only this command draws
    from pbem.views.board.png import to_png

    opened = games.open_game(game, head_only=False)
    gf = opened.gf
    if for_player is not None and gf.roster_entry(for_player.lower()) is None:
        raise UsageError(f"unknown player '{for_player}'; players: {', '.join(gf.player_ids())}")
    if out is not None and (out.is_dir() or not out.parent.is_dir()):
        raise UsageError(f"cannot write {out}: give a file name in an existing folder")
    svg = board.draw(opened, for_player.lower() if for_player else None, seq)
    picture = to_png(svg) if png else svg.encode("utf-8")
    if out is None:
        typer.echo(picture, nl=False)
        return
    out.write_bytes(picture)


@app.command()
@boundary
def history(
    game: GameArg,
    out: Annotated[Path, typer.Option("-o", "--out", help="The site's folder (made if missing).")],
    lang: Annotated[str | None, typer.Option(
        help="The pages' language: en, hu; default: the game's.")] = None,
) -> None:
    """Write the game's history as a static site: an index of every seq and one page per seq
    with the public board as it stood then. A re-run writes only the pages of new seqs."""
    from pbem import i18n  # start-up: only this command renders the site
    from pbem.pipeline import opening as games
    from pbem.views import history as site
    from pbem.views import model as views

    if lang is not None:
        i18n.check_language(lang)
    opened = games.open_game(game, head_only=False)
    lang = views.reader_language(opened.ruleset, lang or views.game_language(opened.gf))
    written = site.build(opened, out, lang)
    typer.echo(f"wrote {len(written) - 1} page(s) and the index: {out / 'index.html'}")
