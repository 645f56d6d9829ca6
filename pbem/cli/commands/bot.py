"""`pbem bot`: play a seat's pending decisions with a self-play policy (pbem.play.bot)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.typer_app import GameArg, app, boundary

MAX_BLOCKS = 400  # one --apply run: a whole Age of Renaissance round is far fewer


@app.command(name="bot")
@boundary
def bot_command(
    game: GameArg,
    seat: Annotated[str, typer.Option("--seat", help="The seat the bot plays.")],
    key: Annotated[Path, typer.Option("--key", help="The seat's private key file.")],
    policy: Annotated[str, typer.Option(
        help="greedy (plays to win), random or coverage.")] = "greedy",
    apply: Annotated[bool, typer.Option(
        "--apply", help="Apply the blocks (until the seat owes nothing) instead of printing "
                        "the next one.")] = False,
) -> None:
    """Answer a seat's pending decisions with a self-play policy: print the signed block to
    send, or apply the blocks. It sees what the seat may see: in a moderated game with hidden
    hands, only the seat's own legal lines."""
    from pbem.orders.signatures import load_private_key
    from pbem.pipeline import opening as games
    from pbem.pipeline.apply import apply_block
    from pbem.pipeline.queries import decision_of
    from pbem.play import bot

    bot.check_policy(policy)
    private = load_private_key(key)
    seat = seat.lower()
    played = 0
    while played < MAX_BLOCKS:
        opened = games.open_game(game)
        bot.check_key(opened, seat, private)
        if not bot.owes(opened, seat):
            break
        chooser = bot.new_policy(policy, opened, seat)
        lines = bot.orders_for(opened, seat, chooser, key)
        text = bot.signed(opened, seat, private, lines)
        if not apply:
            typer.echo(text, nl=False)
            return
        applied = apply_block(game, text)
        played += 1
        typer.echo(f"seq {applied.gf.seq}: {seat} (bot): {'; '.join(lines)}")
    opened = games.open_game(game, whole=False)
    if opened.gf.state.get("over"):
        typer.echo("the game is over")
        return
    owed, decision = decision_of(opened)
    if seat not in owed or not played:
        typer.echo(f"{seat} owes nothing now; waiting for {', '.join(owed)} to {decision}")
