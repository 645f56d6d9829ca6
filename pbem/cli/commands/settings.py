"""The moderator's commands: timeouts, deadlines and the NMR policy, the roster (time zones,
digests, e-mail addresses) and replacing a player. Settings changes are logged entries, signed
by the moderator in a game with one (pbem.pipeline.clock)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.commands.delivery import ConfigOpt, NowOpt, OutboxOpt, echo_lines, now_from
from pbem.cli.typer_app import GameArg, app, boundary, read_input, read_key_file
from pbem.errors import IOFailure, UsageError
from pbem.lazy import lazy
from pbem.orders.signatures import parse_public_key
from pbem.words import public_texts, say, sentences

if TYPE_CHECKING:
    from pbem.delivery import deadlines, gitplay, mail, queue, transport
    from pbem.pipeline import clock, handover, replace
    from pbem.pipeline import opening as games
    from pbem.pipeline import timeout as timeouts
    from pbem.store import gamefile, sandbox
else:
    (deadlines, gitplay, mail, queue, transport, games, clock, handover, replace, timeouts,
     gamefile, sandbox) = (
        lazy(f"pbem.{name}") for name in (
            "delivery.deadlines", "delivery.gitplay", "delivery.mail", "delivery.queue",
            "delivery.transport", "pipeline.opening", "pipeline.clock", "pipeline.handover",
            "pipeline.replace", "pipeline.timeout", "store.gamefile", "store.sandbox"))

ModKeyOpt = Annotated[Path | None, typer.Option(
    "--key", help="The moderator's private key file (a game with a moderator).")]
ModBlockOpt = Annotated[str | None, typer.Option(
    "--block", help="Apply a block the moderator signed elsewhere (a file, or -).")]
PrintOpt = Annotated[bool, typer.Option(
    "--print", help="Only print the moderator's signed block (to mail to the host).")]


def _pairs(items: list[str], what: str) -> dict[str, str]:
    pairs = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise UsageError(f"'{item}' is not {what}")
        pairs[name.strip().lower()] = value.strip()
    return pairs


def _settings(game: Path, changes: dict[str, str | None], nmr: str | None,
              emails: dict[str, str], key: Path | None, block: str | None,
              print_block: bool, seats: dict[str, dict[str, str]] | None = None,
              absence: str | None = None, language: str | None = None) -> bool:
    """Log a settings change; True when only the moderator's signed block was printed."""
    printed = handover.apply_settings(
        game, changes=changes, nmr=nmr, emails=emails, key=key, seats=seats, absence=absence,
        language=language,
        block_text=read_input(block) if block is not None else None, print_only=print_block)
    if printed is not None:
        typer.echo(printed, nl=False)
    return printed is not None


def echo_bot_moves(played: list[tuple[int, str, list[str]]]) -> list[tuple[int, str, list[str]]]:
    for seq, seat, lines in played:
        typer.echo(f"seq {seq}: {seat} (bot): {'; '.join(lines)}")
    return played


@app.command()
@boundary
def timeout(
    game: GameArg,
    player: Annotated[list[str] | None, typer.Option(
        help="Only this player; repeat for several.")] = None,
    force: Annotated[bool, typer.Option(help="Apply the defaults now, deadline or not: the "
                                             "moderator's call, signed with --key.")] = False,
    key: ModKeyOpt = None, block: ModBlockOpt = None, print_block: PrintOpt = False,
    send_mail: Annotated[bool, typer.Option("--mail", help="Mail the new reports.")] = False,
    outbox: OutboxOpt = None, mail_config: ConfigOpt = None, now: NowOpt = None,
) -> None:
    """Apply the default answer for overdue decisions; the log marks it automatic."""
    if send_mail or outbox:
        sandbox.refuse_file(game, "timeout --mail")  # a sandbox's timeouts are never mailed
    block_text = read_input(block) if block is not None else None
    moment = now_from(now)
    settings = mail.mail_settings_for_sending(game, mail_config) \
        if send_mail or outbox else None
    only = [p.lower() for p in player or []]
    players = games.open_game(game, whole=False).gf.player_ids()
    unknown = [p for p in only if p not in players]
    if unknown:
        raise UsageError(f"unknown player '{unknown[0]}'; players: {', '.join(players)}")
    if print_block:
        return typer.echo(timeouts.forced_block(game, only, key), nl=False)
    # Seats played by a bot whose key the host keeps in GAME.bots/ answer at once (issue 24).
    from pbem.play.bot import play_bot_seats  # start-up: only a game with bots loads them

    played = play_bot_seats(game, now=moment)
    echo_bot_moves(played)
    # The clock and the decision are read under the same locks (the post book's, then the
    # game's, as the inbox takes them), so an apply cannot slip in between.
    results: list[timeouts.TimedOut] = []
    try:
        with mail.open_book(game) as book:
            gf, results = timeouts.run_timeout(game, lambda seen: book.since(seen, moment),
                                               moment, force=force, only=only, key=key,
                                               block_text=block_text)
    except IOFailure as error:  # the post book, after the game file: the timeouts stand
        if not any(r.lines for r in results):
            raise
        typer.echo(f"note: {error}; the timeouts below stand, and the deadline clocks "
                   "restart on the next mail run", err=True)
    for result in results:
        typer.echo(f"{result.player}: {result.note}" if not result.lines else
                   f"{result.player}: {sentences(public_texts(result.events))}")
    if any(r.lines for r in results):  # a default answer can leave a bot seat to act
        played += echo_bot_moves(play_bot_seats(game, now=moment))
    if not results and not played:
        typer.echo("no decision is pending")
    if settings is None:
        return
    delivery = transport.delivery_for(outbox, settings)
    if played or any(r.lines for r in results):
        echo_lines(queue.send_reports(game, delivery, settings, moment, queue=True))
    else:  # a mail run: what an earlier run left queued goes now
        sent, failed = queue.flush(game, delivery)
        echo_lines(sent + queue.queued_note(failed))


@app.command(name="deadlines")
@boundary
def deadlines_command(
    game: GameArg,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="DECISION=DURATION, e.g. default=72h or agent=1d; repeat.")] = None,
    unset: Annotated[list[str] | None, typer.Option(help="Remove a decision's deadline.")] = None,
    nmr: Annotated[str | None, typer.Option(
        help="Missed main turns: wait (the default) or skip (apply the default answer).")] = None,
    absence: Annotated[str | None, typer.Option(
        help="Each player's absence allowance in this game, e.g. 21d (`away until DATE`).")
    ] = None,
    for_player: Annotated[str | None, typer.Option(
        "--for", help="Show times in this player's timezone.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    now: NowOpt = None, key: ModKeyOpt = None, block: ModBlockOpt = None,
    print_block: PrintOpt = False,
) -> None:
    """Show or set the deadline of each decision and the NMR policy (a logged change, signed
    with the moderator's --key in a game with a moderator)."""
    changes: dict[str, str | None] = dict(_pairs(set_ or [], "DECISION=DURATION"))
    changes.update({name.lower(): None for name in unset or []})
    moment = now_from(now)  # every argument is checked before anything is written
    if for_player is not None:
        players = games.open_game(game, whole=False).gf.player_ids()
        if for_player.lower() not in players:
            raise UsageError(f"unknown player '{for_player}'; players: {', '.join(players)}")
    if (changes or nmr or absence is not None or block is not None) and _settings(
            game, changes, nmr, {}, key, block, print_block, absence=absence):
        return
    # Showing reads only: the clock of the pending decision is started by the mail run that
    # sends its report (inbox, send, remind, timeout --mail), never by looking at it or by
    # setting its deadline, so a host who sets deadlines before mailing finds nobody late.
    gf = gamefile.load(game)
    started = mail.Book.load(game).started(gf)
    policy = deadlines.policy_of(gf)
    if for_player is not None and gf.roster_entry(for_player.lower()) is None:
        raise UsageError(f"unknown player '{for_player}'; players: {', '.join(gf.player_ids())}")
    zone_for = for_player.lower() if for_player else None
    rows, waiting = [], set()
    for due in deadlines.due_now(gf, started or moment):
        if started is None and due.deadline is not None:
            waiting.add(due.player)
        deadline = due.deadline if started is not None else None  # no clock, no deadline yet
        rows.append({"player": due.player, "decision": due.decision,
                     "deadline": deadlines.iso(deadline) if deadline else None,
                     "local": deadlines.local_time(deadline, deadlines.zone_of(
                         gf, zone_for or due.player)) if deadline else None,
                     "late": bool(deadline) and due.is_late(moment),
                     "paused": due.started is None})
    if as_json:
        typer.echo(json.dumps({"decisions": policy.decisions, "nmr": policy.nmr,
                               "absence": policy.absence, "due": rows,
                               "clock": deadlines.iso(started) if started else None}))
        return
    shown = ", ".join(f"{k} {v}" for k, v in policy.decisions.items()) or "none"
    allowance = f"; absence allowance: {policy.absence}" if policy.absence else ""
    typer.echo(f"deadlines: {shown}; NMR policy: {policy.nmr}{allowance}")
    for row in rows:
        when = f"by {row['local']}" + (" (late)" if row["late"] else "") if row["local"] \
            else "paused" if row["paused"] else \
            "no deadline yet: its clock starts when a mail run sends the report" \
            if row["player"] in waiting else "no deadline"
        typer.echo(f"{row['player']} must {row['decision']}: {when}")


@app.command()
@boundary
def roster(
    game: GameArg,
    allowed_signers: Annotated[bool, typer.Option(
        help="Print an OpenSSH allowed_signers file of the players' keys.")] = False,
    timezone: Annotated[list[str] | None, typer.Option(
        help="PLAYER=ZONE, e.g. medici=Europe/Lisbon; repeat.")] = None,
    digest: Annotated[list[str] | None, typer.Option(
        help="PLAYER=each|daily: other players' moves mailed as each short digest, or once a "
             "day (`pbem digest`); repeat.")] = None,
    language: Annotated[list[str] | None, typer.Option(
        help="PLAYER=LANG, e.g. ada=hu: the language of the player's mail and reports "
             "(order lines stay as written); repeat.")] = None,
    email: Annotated[list[str] | None, typer.Option(
        help="PLAYER=ADDRESS: a new e-mail address (a logged change, signed with the "
             "moderator's --key in a game with a moderator); repeat.")] = None,
    game_language: Annotated[str | None, typer.Option(
        "--game-language", help="LANG, e.g. hu: the game's own language, for the public post "
                                "and every seat without a --language of its own.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    key: ModKeyOpt = None, block: ModBlockOpt = None, print_block: PrintOpt = False,
) -> None:
    """Show the players (id, name, e-mail, timezone, key fingerprint, language); set timezones,
    digests, languages and e-mail addresses (logged changes, signed with the moderator's --key
    in a game with a moderator; a game begun before format 4 sets a seat's own settings
    unlogged)."""
    # a seat's own settings (pbem.pipeline.clock.SEAT_SETTINGS): one option and one line here
    seats = {key: {name.lower(): value for name, value in _pairs(items or [], form).items()}
             for key, items, form in (("timezone", timezone, "PLAYER=ZONE"),
                                      ("digest", digest, "PLAYER=each|daily"),
                                      ("language", language, "PLAYER=LANG"))}
    seats = {key: values for key, values in seats.items() if values}
    addresses = {name.lower(): value for name, value in
                 _pairs(email or [], "PLAYER=ADDRESS").items()}
    logged = seats if seats and clock.binds_seats(gamefile.load(game)) else {}
    if (addresses or logged or block is not None or game_language is not None) and _settings(
            game, {}, None, addresses, key, block, print_block, logged,
            language=game_language.lower() if game_language is not None else None):
        return
    if seats and not logged:
        deadlines.set_roster_fields(game, seats.get("timezone", {}), {
            name: value.lower() for name, value in seats.get("digest", {}).items()},
            clock.check_seats({"language": seats.get("language", {})}).get("language", {}))
    gf = gamefile.load(game)
    if allowed_signers:
        typer.echo(gitplay.allowed_signers(gf), nl=False)
        return
    rows = [{"id": p["id"], "name": p.get("name", ""), "email": p.get("email", ""),
             "timezone": p.get("timezone"), "digest": p.get("digest", "each"),
             "language": p.get("language") or None,
             "key": parse_public_key(p["key"]).fingerprint()}
            for p in [*gf.roster["players"],
                      *([{"id": "moderator", **gf.roster["moderator"]}]
                        if gf.roster.get("moderator") else [])]]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    for row in rows:
        typer.echo(f"{row['id']}: {row['name']} <{row['email']}> "
                   f"{row['timezone'] or 'UTC'} {row['key']}"
                   + (f" reads {row['language']}" if row["language"] else ""))


@app.command(name="replace-player")
@boundary
def replace_player(
    game: GameArg,
    player: Annotated[str | None, typer.Argument(help="The player (bank) to hand over.")] = None,
    key: ModKeyOpt = None,
    pub: Annotated[Path | None, typer.Option(help="The new player's .pub file.")] = None,
    email: Annotated[str | None, typer.Option(help="The new e-mail address.")] = None,
    name: Annotated[str | None, typer.Option(help="The new player's name.")] = None,
    zone: Annotated[str | None, typer.Option("--timezone", help="The new timezone.")] = None,
    language: Annotated[str | None, typer.Option(
        help="The new player's language (default: the one their .pub names, if any).")] = None,
    print_block: PrintOpt = False, block: ModBlockOpt = None,
) -> None:
    """Give a player's seat to someone new (key, e-mail): a moderator-signed roster change."""
    if block is not None:
        text = read_input(block)
    else:
        if player is None or key is None:
            raise UsageError("give PLAYER and --key MODERATOR.key, or --block FILE")
        new_key = parse_public_key(read_key_file(pub)) if pub else None
        chosen = language or (new_key.language if new_key else None)  # checked, as stored
        change = replace.Replacement(
            player.lower(), new_key.roster_text() if new_key else None,
            email or (new_key.email if new_key else None),
            name or (new_key.name if new_key else None), zone,
            clock.SEAT_SETTINGS["language"](chosen) if chosen else None)
        text = replace.replacement_block(gamefile.load(game), change, key)
        if print_block:
            typer.echo(text, nl=False)
            return
    gf = handover.apply_replacement(game, text)
    typer.echo(f"seq {gf.seq}: {say(gf.log[-1]['events'][0])}")
