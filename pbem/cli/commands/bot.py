"""`pbem bot`: play a seat's pending decisions with a self-play policy (pbem.play.bot)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.typer_app import GameArg, app, boundary
from pbem.errors import UsageError

if TYPE_CHECKING:
    from pbem.delivery.mail import MailSettings
    from pbem.delivery.transport import Delivery

MAX_BLOCKS = 400  # one --apply run: a whole Age of Renaissance round is far fewer


@app.command(name="bot")
@boundary
def bot_command(
    game: GameArg,
    seat: Annotated[str, typer.Option("--seat", help="The seat the bot plays.")],
    key: Annotated[Path, typer.Option("--key", help="The seat's private key file, or a bot's "
                                                    "key the seat was handed to (bot on).")],
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
        handed = bot.check_key(opened, seat, private)  # a bot key the seat was handed to
        if handed is not None and not apply:
            raise UsageError("a block signed by a bot's key is applied on the host, which "
                             "logs that key with it: add --apply")
        if not bot.owes(opened, seat):
            break
        chooser = bot.new_policy(policy, opened, seat)
        lines = bot.orders_for(opened, seat, chooser, key)
        text = bot.signed(opened, seat, private, lines)
        if not apply:
            typer.echo(text, nl=False)
            return
        applied = apply_block(game, text, bot=handed)
        played += 1
        typer.echo(f"seq {applied.gf.seq}: {seat} (bot): {'; '.join(lines)}")
    opened = games.open_game(game, whole=False)
    if opened.gf.state.get("over"):
        typer.echo("the game is over")
        return
    owed, decision = decision_of(opened)
    if seat not in owed or not played:
        typer.echo(f"{seat} owes nothing now; waiting for {', '.join(owed)} to {decision}")


def bot_turns(game: Path, delivery: Delivery, settings: MailSettings,
              moment: datetime) -> list[str]:
    """Under cron (`pbem inbox`, after the mail): the owed seats whose keys the host keeps in
    GAME.bots/ play, and the new reports are mailed as after any applied block. Nothing to
    say (an empty list) when no bot played."""
    from pbem.delivery import queue
    from pbem.play.bot import play_bot_seats

    played = play_bot_seats(game, now=moment)
    if not played:
        return []
    moves = [f"{game.stem}: seq {seq}: {seat} (bot): {'; '.join(lines)}"
             for seq, seat, lines in played]
    return moves + queue.send_reports(game, delivery, settings, moment, queue=True)
