"""`pbem map`: the board as one self-contained SVG, drawn from the report's own model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.typer_app import GameArg, app, boundary
from pbem.errors import UsageError
from pbem.pipeline import opening as games


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
) -> None:
    """Draw the board as an SVG: what the player (or the public) sees in the report."""
    from pbem.views import board  # start-up: only this command draws

    opened = games.open_game(game, head_only=False)
    gf = opened.gf
    if for_player is not None and gf.roster_entry(for_player.lower()) is None:
        raise UsageError(f"unknown player '{for_player}'; players: {', '.join(gf.player_ids())}")
    svg = board.draw(opened, for_player.lower() if for_player else None, seq)
    if out is None:
        typer.echo(svg, nl=False)
        return
    if out.is_dir() or not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: give a file name in an existing folder")
    out.write_text(svg, encoding="utf-8")
