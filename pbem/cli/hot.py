"""The bodies of the commands players and hosts run most (apply, options, report, status,
verify), free of Typer: the Typer commands in pbem.cli.commands.game call them, and so does
the fast path (pbem.cli.fast), which runs them without building the Typer app."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.cli.guard import echo
from pbem.cli.inputs import check_format, read_input
from pbem.errors import UsageError
from pbem.lazy import lazy

if TYPE_CHECKING:
    from pbem.delivery import bounces, deadlines, gitplay, mail, queue, sidecar, transport
    from pbem.pipeline import apply as apply_pipeline
    from pbem.pipeline import opening as games
    from pbem.pipeline import queries, replay
    from pbem.store import gamefile, sandbox
    from pbem.views import duedates
    from pbem.views import model as views
    from pbem.views import report as reports
    from pbem.words import draw_texts, public_texts
else:
    (bounces, deadlines, gitplay, mail, queue, sidecar, transport, apply_pipeline, games, queries,
     replay, gamefile, sandbox, duedates, views, reports) = (
        lazy(f"pbem.{name}") for name in (
            "delivery.bounces", "delivery.deadlines", "delivery.gitplay", "delivery.mail",
            "delivery.queue", "delivery.sidecar", "delivery.transport", "pipeline.apply", "pipeline.opening",
            "pipeline.queries", "pipeline.replay", "store.gamefile", "store.sandbox",
            "views.duedates",
            "views.model", "views.report"))

    def public_texts(events: object, lang: str = "en") -> list[str]:
        from pbem.words import public_texts as texts  # start-up: words load when printed

        return texts(events, lang)  # type: ignore[arg-type]

    def draw_texts(ruleset: str, draws: object, lang: str = "en") -> list[str]:
        from pbem.words import draw_texts as texts  # start-up: words load when printed

        return texts(ruleset, draws, lang)  # type: ignore[arg-type]


def apply(game: Path, orders: str, dry_run: bool = False, fmt: str = "text",
          commit: bool = False, send_mail: bool = False, outbox: Path | None = None,
          mail_config: Path | None = None) -> None:
    check_format(fmt)
    if dry_run and (commit or send_mail or outbox):
        raise UsageError("--dry-run writes nothing, so it cannot --commit, --mail or --outbox")
    if commit:
        gitplay.require_repository(game)
    settings = mail.mail_settings_for_sending(game, mail_config) if send_mail or outbox else None
    applied = apply_pipeline.apply_block(game, read_input(orders), dry_run=dry_run)
    if applied.note:
        echo(f"note: {applied.note}")
    if dry_run:
        lang = views.mail_language(applied.opened, applied.player)  # the player's own report
        echo(reports.render(views.report_model(applied.opened, applied.player, lang=lang), fmt,
                            lang), nl=False)
        echo("(dry run: nothing was written)")
        return
    told = public_texts(applied.events) + [
        text for entry in applied.entries
        for text in draw_texts(applied.opened.ruleset.name, entry.draws)]
    for text in told:
        echo(f"- {text}")
    status = queries.status(applied.opened)
    if status["over"]:
        echo(f"seq {status['seq']}: the game is over; winners: {', '.join(status['winners'])}")
    else:
        echo(f"seq {status['seq']}, state {status['state']}: waiting for "
             f"{', '.join(status['waiting_for'])} to {status['decision']}")
    if commit:  # the message in the game's language
        lang = views.game_language(applied.gf)
        said = told if lang == "en" else public_texts(applied.events, lang) + [
            text for entry in applied.entries
            for text in draw_texts(applied.opened.ruleset.name, entry.draws, lang)]
        message = gitplay.commit_message(applied.gf, said, lang)
        echo(f"committed {gitplay.commit_game(game, message)}")
    if settings is not None:
        for line in queue.send_reports(game, transport.delivery_for(outbox, settings), settings,
                                       datetime.now(UTC), queue=True):
            echo(line)


def options(game: Path, as_json: bool = False, for_player: str | None = None) -> None:
    data = queries.legal_lines(games.open_game(game), for_player.lower() if for_player else None)
    if as_json:
        echo(json.dumps(data, ensure_ascii=False))
        return
    if data.get("sealing") == "seal":
        echo("# sealed: make your block with pbem sign --seal 'LINE' --key KEY --game "
             f"{game.name}; LINE is one of:")
        data["lines"] = data["seal_lines"]
    elif data.get("sealing") == "open":
        echo(f"# every seal is in: pbem sign --open --key KEY --game {game.name}")
    for line in data["lines"]:
        echo(line)


def reader(gf: gamefile.GameFile, for_player: str | None) -> str | None:
    """The reader `--for` names (lower case), or None for the public; an unknown one is an error."""
    if for_player is not None and gf.roster_entry(for_player.lower()) is None:
        raise UsageError(f"unknown player '{for_player}'; players: {', '.join(gf.player_ids())}")
    return for_player.lower() if for_player else None


def report(game: Path, for_player: str | None = None, fmt: str = "text",
           seq: int | None = None, lang: str | None = None) -> None:
    from pbem import i18n  # start-up: only reports choose a language

    formats = (*reports.FORMATS, "html")
    if fmt not in formats:
        raise UsageError(f"unknown format '{fmt}'; formats: {', '.join(formats)}")
    if lang is not None:
        i18n.check_language(lang)
    # Head-only: the history is read from the log's end (views.recent_entries); only a past
    # position (--seq) replays the whole log.
    opened = games.open_game(game, head_only=seq is None)
    gf = opened.gf
    viewer = reader(gf, for_player)  # no --lang: the reader's seat language (or the game's)
    lang = views.reader_language(opened.ruleset, lang or views.seat_language(gf, viewer))
    if seq is not None and seq != gf.seq:
        from pbem.views.past import game_at  # start-up: only report --seq replays

        model = views.report_model(game_at(opened, seq), viewer, lang=lang)
        model["menu"] = None  # a past decision cannot be answered
        model["deadlines"] = []
        model["life"] = duedates.sandbox_rows(gf, lang)
    else:
        model = views.report_model(opened, viewer, lang=lang)
        model["life"] = [*duedates.sandbox_rows(gf, lang),  # issue 24
                         *duedates.life_rows(gf, viewer, datetime.now(UTC), lang)]
        model["deadlines"] = duedates.deadline_rows(game, gf, viewer, datetime.now(UTC), lang)
    if fmt == "html":
        from pbem.views import html  # start-up: only the page draws the board

        echo(html.render(model, fmt, lang), nl=False)
    else:
        echo(reports.render(model, fmt, lang), nl=False)


def status(game: Path, as_json: bool = False, now: str | None = None,
           lang: str | None = None) -> None:
    if lang is not None:
        from pbem import i18n  # start-up: only a chosen language is checked

        i18n.check_language(lang)
    opened = games.open_game(game, whole=False)
    gf = opened.gf
    # the text in --lang, else the game's; the data (--json) is never translated
    from pbem.i18n import readers  # start-up: not the views, which load the block parser

    lang = "en" if as_json else readers.reader_language(opened.ruleset,
                                                        lang or readers.game_language(gf))
    data = queries.status(opened)
    moment = deadlines.parse_time(now) if now else datetime.now(UTC)
    data["deadlines"] = duedates.deadline_rows(game, gf, None, moment, lang)
    data["life"] = duedates.life_rows(gf, None, moment, lang)  # absences and pauses (issue 24)
    data["queued_mail"] = len(sidecar.queued(game))
    data["bouncing"] = bounces.lines(sidecar.Book.load(game).data)
    forked = sandbox.mark(gf)
    if forked is not None:  # a what-if copy (pbem fork)
        data["sandbox"] = {k: forked[k] for k in ("of", "at", "for")}
    if as_json:
        echo(json.dumps(data, ensure_ascii=False))
        return
    from engine.core.agenda import next_pending  # start-up: only the text needs these
    from pbem.views import status as status_view

    echo(status_view.heading(data, lang))
    if forked is not None:
        echo(str(sandbox.describe(gf)) if lang == "en" else duedates.sandbox_rows(gf, lang)[0])
    pending = next_pending(gf.agenda) if not data["over"] else None
    for line in status_view.lines(data, pending["action"] if pending else None, lang):
        echo(line)


def verify(game: Path, secrets: Path | None = None, expect: list[str] | None = None) -> None:
    anchors = []
    for item in expect or []:
        seq, sep, state = item.partition(":")
        if not sep or not seq.strip().isdigit() or len(state.strip()) < 8:
            raise UsageError(f"--expect '{item}' should be SEQ:STATE, e.g. 17:9c1f2a7b3d4e5f60")
        anchors.append((int(seq), state.strip()))
    loaded = gamefile.load(game)
    result = replay.verify(game, loaded, secrets, anchors)
    how = "every draw re-derived from the seed" if result.seed_checked else \
        "draws replayed as logged (the seed is not revealed yet)"
    if not result.replayed:
        how = ("public checks only: signatures, the hash chain and opened sealed bids; with "
               "--secrets FILE or after the reveal, verify replays every turn")
    echo(f"ok: {result.entries} log entries verified; {how}")
    if sandbox.mark(loaded) is not None:
        echo(str(sandbox.describe(loaded)))
