"""`pbem fork`: a what-if sandbox of a game (issue 24; pbem.pipeline.fork)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.typer_app import GameArg, app, boundary, read_key_file


@app.command()
@boundary
def fork(
    game: GameArg,
    out: Annotated[Path, typer.Option(help="The sandbox's game file to create (never replaced).")],
    at: Annotated[int | None, typer.Option(
        help="Fork the game as it stood after this seq (default: as it stands now).")] = None,
    for_player: Annotated[str | None, typer.Option(
        "--for", help="Whose sandbox: that seat's view only (a moderated game hiding cards: "
                      "the rest is dealt afresh), and that seat's key signs for every seat. "
                      "Default: the seat whose key --key is, if any.")
    ] = None,
    key: Annotated[Path | None, typer.Option(
        help="The .pub file of the key that signs for every seat (default: the --for seat's "
             "key, else the moderator's).")] = None,
    seed: Annotated[str | None, typer.Option(
        help="Seed text for a reproducible sandbox (default: a fresh random seed).")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--id", help="The sandbox's game id (default: the --out file's name).")] = None,
) -> None:
    """Make a what-if sandbox: a new game marked as a sandbox, with a fresh seed, holding only
    what the forker may see. Try turns ahead in it with sign, apply, options and report; inbox,
    send and post refuse it, so it is never mailed as the real game."""
    from pbem.orders.signatures import parse_public_key
    from pbem.pipeline.fork import ForkRequest
    from pbem.pipeline.fork import fork as fork_game

    forker = parse_public_key(read_key_file(key)) if key is not None else None
    sandbox = fork_game(game, out, ForkRequest(at=at, seat=for_player, key=forker,
                                               seed_text=seed, game_id=game_id))
    mark = sandbox.game["sandbox"]
    whose = f" as {mark['for']} sees it" if mark["for"] else ""
    typer.echo(f"sandbox {sandbox.game_id} of game {mark['of']} at seq {mark['at']}{whose}: "
               f"wrote {out}")
    if sandbox.randomness.get("mode") != "open":
        typer.echo(f"its seed file: {out.with_suffix('.seed')} (the sandbox's own, with a "
                   "fresh seed)")
    typer.echo("every seat signs with the same key: pbem sign ORDERS --key YOUR.key --game "
               f"{out}")
