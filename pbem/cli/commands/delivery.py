"""Commands for the post office: send, inbox, post, remind, timeout, deadlines, roster,
replace-player. The guide is docs/delivery.md."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem.cli.typer_app import GameArg, app, boundary, check_format, read_input, read_key_file
from pbem.errors import IOFailure, UsageError
from pbem.lazy import lazy
from pbem.orders.signatures import parse_public_key
from pbem.store import gamefile
from pbem.words import deadline_passed_text, public_texts, say, sentences

if TYPE_CHECKING:
    from pbem.delivery import (
        bounces,
        deadlines,
        digests,
        gitplay,
        inbox,
        mail,
        mailboxes,
        queue,
        transport,
    )
    from pbem.pipeline import handover, replace
    from pbem.pipeline import opening as games
    from pbem.pipeline import timeout as timeouts
    from pbem.views import model as views
    from pbem.views import report
else:
    (bounces, deadlines, digests, gitplay, inbox, mail, mailboxes, queue, transport, games,
     handover, replace, timeouts, report, views) = (
        lazy(f"pbem.{name}") for name in ("delivery.bounces", "delivery.deadlines",
                                          "delivery.digests",
                                          "delivery.gitplay",
                                          "delivery.inbox", "delivery.mail", "delivery.mailboxes",
                                          "delivery.queue", "delivery.transport",
                                          "pipeline.opening", "pipeline.handover",
                                          "pipeline.replace", "pipeline.timeout",
                                          "views.report", "views.model"))

OutboxOpt = Annotated[Path | None, typer.Option(
    help="Write .eml files into this directory instead of sending by SMTP.")]
ConfigOpt = Annotated[Path | None, typer.Option(
    "--mail-config", "--smtp-config",
    help="Mail settings (TOML); default: pbem.toml beside the game file.")]
NowOpt = Annotated[str | None, typer.Option(
    help="Act as if it were this time (ISO 8601, e.g. 2027-03-05T18:00Z); default: now.")]
ModKeyOpt = Annotated[Path | None, typer.Option(
    "--key", help="The moderator's private key file (a game with a moderator).")]
ModBlockOpt = Annotated[str | None, typer.Option(
    "--block", help="Apply a block the moderator signed elsewhere (a file, or -).")]
PrintOpt = Annotated[bool, typer.Option(
    "--print", help="Only print the moderator's signed block (to mail to the host).")]


def _now(text: str | None) -> datetime:
    return deadlines.parse_time(text) if text else datetime.now(UTC)


def _echo(lines: list[str]) -> None:
    for line in lines:
        typer.echo(line)


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
              print_block: bool) -> bool:
    """Log a settings change; True when only the moderator's signed block was printed."""
    printed = handover.apply_settings(
        game, changes=changes, nmr=nmr, emails=emails, key=key,
        block_text=read_input(block) if block is not None else None, print_only=print_block)
    if printed is not None:
        typer.echo(printed, nl=False)
    return printed is not None


@app.command()
@boundary
def send(
    game: GameArg,
    to: Annotated[list[str] | None, typer.Option(
        help="Only this player (or 'moderator'); repeat for several.")] = None,
    outbox: OutboxOpt = None, mail_config: ConfigOpt = None, now: NowOpt = None,
) -> None:
    """Mail every player their own report; the moderator gets the public one."""
    settings = mail.mail_settings_for_sending(game, mail_config)
    only = [name.lower() for name in to or []]
    readers = [*games.open_game(game, whole=False).gf.player_ids(), deadlines.MODERATOR]
    unknown = [name for name in only if name not in readers]
    if unknown:
        raise UsageError(f"unknown reader '{unknown[0]}'; readers: {', '.join(readers)}")
    _echo(queue.send_reports(game, transport.delivery_for(outbox, settings), settings,
                             _now(now), only=only)
          or ["no one to mail: the roster has no e-mail addresses"])


@app.command(name="inbox")
@boundary
def inbox_command(
    games: Annotated[list[Path], typer.Argument(help="The game file(s); blocks go to their "
                                                     "game by the 'game:' header.")],
    maildir: Annotated[Path | None, typer.Option(help="Read this Maildir.")] = None,
    mbox: Annotated[Path | None, typer.Option(help="Read this mbox file.")] = None,
    imap: Annotated[str | None, typer.Option(
        help="Read unseen mail from imaps://USER@HOST/FOLDER (default: the imap url in "
             "the mail settings).")] = None,
    outbox: OutboxOpt = None, mail_config: ConfigOpt = None, now: NowOpt = None,
    verbose: Annotated[bool, typer.Option(
        help="List every message, also those earlier runs looked at.")] = False,
) -> None:
    """Apply the order blocks in new mail, reply to each sender, mail the new reports.

    Quiet under cron: a run lists only what it did, and prints nothing when there is nothing
    new. A message that cannot be handled is set aside (flagged) with its reason in the post
    book, and the run goes on."""
    # Every handled message is answered: without a From address the answers would be lost.
    settings = mail.mail_settings_for_sending(games[0], mail_config)
    chosen = [x for x in (maildir, mbox, imap) if x is not None]
    if len(chosen) > 1:
        raise UsageError("choose one of --maildir, --mbox and --imap")
    delivery, moment = transport.delivery_for(outbox, settings), _now(now)
    if maildir is not None or mbox is not None:
        items = mailboxes.read_maildir(maildir) if maildir is not None else \
            mailboxes.read_mbox(mbox)  # type: ignore[arg-type]
        _echo(inbox.process(items, games, delivery, settings, moment, verbose=verbose))
        return
    url = imap or settings.imap_url
    if url is None:
        raise UsageError("say where the mail is: --maildir DIR, --mbox FILE or --imap URL")
    with mailboxes.imap_messages(url, settings) as items:
        _echo(inbox.process(items, games, delivery, settings, moment, verbose=verbose))


@app.command()
@boundary
def post(
    game: GameArg,
    fmt: Annotated[str, typer.Option("--format", help="bbcode, bgg, markdown or text.")] = "bbcode",
    out: Annotated[Path | None, typer.Option(help="Write the post to this file.")] = None,
    channel: Annotated[str, typer.Option(
        help="Where the post goes (a forum thread); each covers all since its last post.")
    ] = "forum",
    since: Annotated[int | None, typer.Option(
        help="Cover what happened after this seq (default: the channel's last post).")] = None,
    image: Annotated[Path | None, typer.Option(
        help="Also write the public board as a PNG here, to upload beside the post.")] = None,
    now: NowOpt = None,
) -> None:
    """The public forum post: what happened since the channel's last post, the board and who
    must act; no private hands. The post book remembers what each channel was shown."""
    check_format(fmt)
    if image is not None and (image.is_dir() or not image.parent.is_dir()):
        raise UsageError(f"cannot write {image}: give a file name in an existing folder")
    opened = games.open_game(game, whole=False, head_only=False)
    gf = opened.gf
    moment = _now(now)
    with mail.open_book(game) as book:
        key = f"post:{channel}"
        model = views.report_model(opened, None, mail.last_posted(book, key)
                                   if since is None else since)
        started = book.started(gf) or moment  # a post never starts a clock
        model["deadlines"] = [
            {"who": mail.who(gf, d.player), "when": deadlines.local_time(d.deadline, None)}
            for d in deadlines.due_now(gf, started) if d.deadline]
        text = report.render(model, fmt)
        if image is not None:
            from pbem.views.board import draw_model  # start-up: only --image draws
            from pbem.views.board.png import to_png

            image.write_bytes(to_png(draw_model(model)))  # the post's own model: the public board
        if out is not None:  # written before the mark: a post that fails moves no mark
            gamefile.write_atomic(out, text)
        mail.mark_posted(book, key, gf.seq)
    if out is None:
        typer.echo(text, nl=False)
        return
    typer.echo(f"wrote {out}" + (f" and {image}" if image is not None else ""))


@app.command()
@boundary
def remind(
    game: GameArg,
    again: Annotated[bool, typer.Option(help="Remind even players reminded already.")] = False,
    outbox: OutboxOpt = None, mail_config: ConfigOpt = None, now: NowOpt = None,
) -> None:
    """Mail a reminder, with their report, to each player past their deadline."""
    settings, moment = mail.load_settings(game, mail_config), _now(now)
    with mail.open_book(game) as book:
        gf = games.open_game(game, whole=False).gf  # the head: the whole log only to compose
        since = book.since(gf, moment)
        reminded = book.data["clock"].setdefault("reminded", [])
        messages, names = [], []
        for due in deadlines.due_now(gf, since):
            if not due.is_late(moment) or (due.player in reminded and not again):
                continue
            opened = games.open_game(game, head_only=False)
            assert due.deadline is not None
            when = deadlines.local_time(due.deadline, deadlines.zone_of(gf, due.player))
            policy = deadlines.policy_of(gf).nmr if due.action in \
                deadlines.MAIN_TURN_ACTIONS else "default"
            intro = [deadline_passed_text(opened.ruleset.name, due.action, when),
                     "Please send your orders soon: " + (
                         "the game waits for you." if policy == "wait" else
                         "the moderator may apply the default answer (`pbem timeout`).")]
            message = mail.compose(opened, due.player, kind="reminder", intro=intro,
                                   subject=mail.subject_for(opened, due.player),
                                   settings=settings, book=book, now=moment)
            if message is not None:
                mail.thread(message, book, gf, due.player, settings)
                messages.append(message)
                names.append(due.player)
        sent = transport.deliver(transport.delivery_for(outbox, settings), messages)
        reminded.extend(name for name in names if name not in reminded)
        late = [d.player for d in deadlines.due_now(gf, since) if d.is_late(moment)]
        bouncing = bounces.lines(book.data)
    waiting = [p for p in late if p not in names]
    if not sent and waiting:
        sent = [f"already reminded: {', '.join(waiting)} (late; --again reminds again)"]
    _echo((sent or ["no one is late"]) + [f"mail: {line}" for line in bouncing])


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
    block_text = read_input(block) if block is not None else None
    moment = _now(now)
    settings = mail.mail_settings_for_sending(game, mail_config) \
        if send_mail or outbox else None
    only = [p.lower() for p in player or []]
    players = games.open_game(game, whole=False).gf.player_ids()
    unknown = [p for p in only if p not in players]
    if unknown:
        raise UsageError(f"unknown player '{unknown[0]}'; players: {', '.join(players)}")
    if print_block:
        return typer.echo(timeouts.forced_block(game, only, key), nl=False)
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
    if not results:
        typer.echo("no decision is pending")
    if settings is None:
        return
    delivery = transport.delivery_for(outbox, settings)
    if any(r.lines for r in results):
        _echo(queue.send_reports(game, delivery, settings, moment, queue=True))
    else:  # a mail run: what an earlier run left queued goes now
        sent, failed = queue.flush(game, delivery)
        _echo(sent + queue.queued_note(failed))


@app.command(name="deadlines")
@boundary
def deadlines_command(
    game: GameArg,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", help="DECISION=DURATION, e.g. default=72h or agent=1d; repeat.")] = None,
    unset: Annotated[list[str] | None, typer.Option(help="Remove a decision's deadline.")] = None,
    nmr: Annotated[str | None, typer.Option(
        help="Missed main turns: wait (the default) or skip (apply the default answer).")] = None,
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
    moment = _now(now)  # every argument is checked before anything is written
    if for_player is not None:
        players = games.open_game(game, whole=False).gf.player_ids()
        if for_player.lower() not in players:
            raise UsageError(f"unknown player '{for_player}'; players: {', '.join(players)}")
    if (changes or nmr or block is not None) and _settings(
            game, changes, nmr, {}, key, block, print_block):
        return
    with mail.open_book(game) as book:
        gf = gamefile.load(game)
        dues = deadlines.due_now(gf, book.since(gf, moment))
    policy = deadlines.policy_of(gf)
    if for_player is not None and gf.roster_entry(for_player.lower()) is None:
        raise UsageError(f"unknown player '{for_player}'; players: {', '.join(gf.player_ids())}")
    rows = [{"player": d.player, "decision": d.decision,
             "deadline": deadlines.iso(d.deadline) if d.deadline else None,
             "local": deadlines.local_time(d.deadline, deadlines.zone_of(
                 gf, for_player.lower() if for_player else d.player)) if d.deadline else None,
             "late": d.is_late(moment)} for d in dues]
    if as_json:
        typer.echo(json.dumps({"decisions": policy.decisions, "nmr": policy.nmr, "due": rows}))
        return
    shown = ", ".join(f"{k} {v}" for k, v in policy.decisions.items()) or "none"
    typer.echo(f"deadlines: {shown}; NMR policy: {policy.nmr}")
    for row in rows:
        when = f"by {row['local']}" + (" (late)" if row["late"] else "") if row["local"] \
            else "no deadline"
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
    email: Annotated[list[str] | None, typer.Option(
        help="PLAYER=ADDRESS: a new e-mail address (a logged change, signed with the "
             "moderator's --key in a game with a moderator); repeat.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    key: ModKeyOpt = None, block: ModBlockOpt = None, print_block: PrintOpt = False,
) -> None:
    """Show the players (id, name, e-mail, timezone, key fingerprint); set timezones, digests
    and e-mail addresses."""
    zones = _pairs(timezone or [], "PLAYER=ZONE")
    choices = {name.lower(): value.lower() for name, value in
               _pairs(digest or [], "PLAYER=each|daily").items()}
    addresses = {name.lower(): value for name, value in
                 _pairs(email or [], "PLAYER=ADDRESS").items()}
    if (addresses or block is not None) and _settings(
            game, {}, None, addresses, key, block, print_block):
        return
    if zones or choices:
        deadlines.set_roster_fields(game, {name.lower(): zone for name, zone in zones.items()},
                                    choices)
    gf = gamefile.load(game)
    if allowed_signers:
        typer.echo(gitplay.allowed_signers(gf), nl=False)
        return
    rows = [{"id": p["id"], "name": p.get("name", ""), "email": p.get("email", ""),
             "timezone": p.get("timezone"), "digest": p.get("digest", "each"),
             "key": parse_public_key(p["key"]).fingerprint()}
            for p in [*gf.roster["players"],
                      *([{"id": "moderator", **gf.roster["moderator"]}]
                        if gf.roster.get("moderator") else [])]]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    for row in rows:
        typer.echo(f"{row['id']}: {row['name']} <{row['email']}> "
                   f"{row['timezone'] or 'UTC'} {row['key']}")


@app.command(name="digest")
@boundary
def digest_command(
    game: GameArg, outbox: OutboxOpt = None, mail_config: ConfigOpt = None, now: NowOpt = None,
) -> None:
    """Mail the daily digest to the players who chose one and whose day is up (run it from
    cron, e.g. hourly); quiet when there is nothing to send."""
    settings, moment = mail.mail_settings_for_sending(game, mail_config), _now(now)
    with mail.open_book(game) as book:
        # An hourly run with no digest due reads only the file's head, not the whole log.
        if digests.any_due(games.open_game(game, whole=False).gf, book, moment):
            opened = games.open_game(game, head_only=False)
            queue.put(game, digests.due_digests(opened, book, settings, moment))
    sent, failed = queue.flush(game, transport.delivery_for(outbox, settings))
    _echo(sent + queue.queued_note(failed))


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
    print_block: PrintOpt = False, block: ModBlockOpt = None,
) -> None:
    """Give a player's seat to someone new (key, e-mail): a moderator-signed roster change."""
    if block is not None:
        text = read_input(block)
    else:
        if player is None or key is None:
            raise UsageError("give PLAYER and --key MODERATOR.key, or --block FILE")
        new_key = parse_public_key(read_key_file(pub)) if pub else None
        change = replace.Replacement(
            player.lower(), new_key.roster_text() if new_key else None,
            email or (new_key.email if new_key else None),
            name or (new_key.name if new_key else None), zone)
        text = replace.replacement_block(gamefile.load(game), change, key)
        if print_block:
            typer.echo(text, nl=False)
            return
    gf = handover.apply_replacement(game, text)
    typer.echo(f"seq {gf.seq}: {say(gf.log[-1]['events'][0])}")
