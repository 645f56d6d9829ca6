"""Commands for the post office: send, inbox, post, remind, timeout, deadlines, roster,
replace-player. The guide is docs/delivery.md."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pbem import i18n
from pbem.cli.typer_app import GameArg, app, boundary, check_format
from pbem.errors import UsageError
from pbem.lazy import lazy
from pbem.words import deadline_passed_text

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
    from pbem.store import gamefile, sandbox
    from pbem.views import duedates, report
    from pbem.views import model as views
else:
    (bounces, deadlines, digests, gitplay, inbox, mail, mailboxes, queue, transport, games,
     handover, replace, timeouts, report, views, duedates, gamefile, sandbox) = (
        lazy(f"pbem.{name}") for name in ("delivery.bounces", "delivery.deadlines",
                                          "delivery.digests",
                                          "delivery.gitplay",
                                          "delivery.inbox", "delivery.mail", "delivery.mailboxes",
                                          "delivery.queue", "delivery.transport",
                                          "pipeline.opening", "pipeline.handover",
                                          "pipeline.replace", "pipeline.timeout",
                                          "views.report", "views.model", "views.duedates",
                                          "store.gamefile", "store.sandbox"))

OutboxOpt = Annotated[Path | None, typer.Option(
    help="Write .eml files into this directory instead of sending by SMTP.")]
ConfigOpt = Annotated[Path | None, typer.Option(
    "--mail-config", "--smtp-config",
    help="Mail settings (TOML); default: pbem.toml beside the game file.")]
NowOpt = Annotated[str | None, typer.Option(
    help="Act as if it were this time (ISO 8601, e.g. 2027-03-05T18:00Z); default: now.")]


def now_from(text: str | None) -> datetime:
    return deadlines.parse_time(text) if text else datetime.now(UTC)


def echo_lines(lines: list[str]) -> None:
    for line in lines:
        typer.echo(line)


@app.command()
@boundary
def send(
    game: GameArg,
    to: Annotated[list[str] | None, typer.Option(
        help="Only this player (or 'moderator'); repeat for several.")] = None,
    outbox: OutboxOpt = None, mail_config: ConfigOpt = None, now: NowOpt = None,
) -> None:
    """Mail every player their own report; the moderator gets the public one."""
    sandbox.refuse_file(game, "send")
    settings = mail.mail_settings_for_sending(game, mail_config)
    only = [name.lower() for name in to or []]
    readers = [*games.open_game(game, whole=False).gf.player_ids(), deadlines.MODERATOR]
    unknown = [name for name in only if name not in readers]
    if unknown:
        raise UsageError(f"unknown reader '{unknown[0]}'; readers: {', '.join(readers)}")
    echo_lines(queue.send_reports(game, transport.delivery_for(outbox, settings), settings,
                                  now_from(now), only=only)
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
    for game in games:
        sandbox.refuse_file(game, "inbox")
    # Every handled message is answered: without a From address the answers would be lost.
    settings = mail.mail_settings_for_sending(games[0], mail_config)
    chosen = [x for x in (maildir, mbox, imap) if x is not None]
    if len(chosen) > 1:
        raise UsageError("choose one of --maildir, --mbox and --imap")
    delivery, moment = transport.delivery_for(outbox, settings), now_from(now)
    if maildir is not None:
        echo_lines(inbox.process_maildir(maildir, games, delivery, settings, moment,
                                         verbose=verbose))
    elif mbox is not None:
        echo_lines(inbox.process(mailboxes.read_mbox(mbox), games, delivery, settings, moment,
                                 verbose=verbose))
    else:
        url = imap or settings.imap_url
        if url is None:
            raise UsageError("say where the mail is: --maildir DIR, --mbox FILE or --imap URL")
        with mailboxes.imap_messages(url, settings) as items:
            echo_lines(inbox.process(items, games, delivery, settings, moment, verbose=verbose))
    # After the mail, the seats a bot plays answer at once, as under `timeout` (issue 24).
    from pbem.cli.commands.bot import bot_turns  # start-up: only a game with bots plays them

    for game in games:
        echo_lines(bot_turns(game, delivery, settings, moment))


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
    lang: Annotated[str | None, typer.Option(
        "--lang", help="The post's language (default: the game's); order lines stay as "
                       "written.")] = None,
    now: NowOpt = None,
) -> None:
    """The public forum post: what happened since the channel's last post, the board and who
    must act; no private hands. The post book remembers what each channel was shown."""
    sandbox.refuse_file(game, "post")
    check_format(fmt)
    if lang is not None:
        i18n.check_language(lang)
    if image is not None and (image.is_dir() or not image.parent.is_dir()):
        raise UsageError(f"cannot write {image}: give a file name in an existing folder")
    opened = games.open_game(game, whole=False, head_only=False)
    gf = opened.gf
    moment = now_from(now)
    lang = views.reader_language(opened.ruleset, lang or views.game_language(gf))
    with mail.open_book(game) as book:
        key = f"post:{channel}"
        model = views.report_model(opened, None, mail.last_posted(book, key)
                                   if since is None else since, lang)
        started = book.started(gf) or moment  # a post never starts a clock
        model["life"] = duedates.life_rows(gf, None, moment)  # who is away, the pause
        model["deadlines"] = [
            {"who": mail.who(gf, d.player), "when": deadlines.local_time(d.deadline, None, lang)}
            for d in deadlines.due_now(gf, started) if d.deadline]
        text = report.render(model, fmt, lang)
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
    sandbox.refuse_file(game, "remind")
    settings, moment = mail.load_settings(game, mail_config), now_from(now)
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
            lang = views.mail_language(opened, due.player)
            when = deadlines.local_time(due.deadline, deadlines.zone_of(gf, due.player), lang)
            policy = deadlines.policy_of(gf).nmr if due.action in \
                deadlines.MAIN_TURN_ACTIONS else "default"
            gettext = i18n.translations(lang).gettext
            intro = [deadline_passed_text(opened.ruleset.name, due.action, when, lang),
                     gettext("Please send your orders soon: the game waits for you.")
                     if policy == "wait" else
                     gettext("Please send your orders soon: the moderator may apply the default "
                             "answer (`pbem timeout`).")]
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
    echo_lines((sent or ["no one is late"]) + [f"mail: {line}" for line in bouncing])


@app.command(name="digest")
@boundary
def digest_command(
    game: GameArg, outbox: OutboxOpt = None, mail_config: ConfigOpt = None, now: NowOpt = None,
) -> None:
    """Mail the daily digest to the players who chose one and whose day is up (run it from
    cron, e.g. hourly); quiet when there is nothing to send."""
    sandbox.refuse_file(game, "digest")
    settings, moment = mail.mail_settings_for_sending(game, mail_config), now_from(now)
    with mail.open_book(game) as book:
        # An hourly run with no digest due reads only the file's head, not the whole log.
        if digests.any_due(games.open_game(game, whole=False).gf, book, moment):
            opened = games.open_game(game, head_only=False)
            queue.put(game, digests.due_digests(opened, book, settings, moment))
    sent, failed = queue.flush(game, transport.delivery_for(outbox, settings))
    echo_lines(sent + queue.queued_note(failed))
