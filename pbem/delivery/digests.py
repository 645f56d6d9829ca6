"""Mail a player keeps reading: the full report goes to whoever must act, once per decision
(a player still owing a simultaneous decision is not sent its report again when another player
answers it); the others get a short digest (what happened since their last mail, who acts
next) with the full report attached, so no report is lost. A player who sets `digest: daily`
(`pbem roster --digest ada=daily`) gets no mail for other players' moves, and one digest a day
of everything that happened (`pbem digest`, run from cron) — and still their full report at
once whenever they must act."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage

from engine.core.agenda import next_pending, waiting_for
from pbem import i18n
from pbem.delivery import deadlines
from pbem.delivery.mail import Book, MailSettings, compose, subject_for, thread
from pbem.pipeline.game import Game
from pbem.pipeline.queries import status
from pbem.store.gamefile import GameFile
from pbem.views.model import entry_texts, mail_language, pending_action, report_model
from pbem.views.report import render
from pbem.words import decision_phrase

PREFERENCES = ("each", "daily")
OWN = ("orders", "sealed")  # log entries of a player's own block, each answered by a receipt
DAY = timedelta(hours=24)


def preference(game: Game, reader: str) -> str:
    entry = game.gf.roster_entry(reader) or {}
    chosen = str(entry.get("digest") or "each")
    return chosen if chosen in PREFERENCES else "each"


def seen_seq(book: Book, reader: str) -> int:
    return int(dict(book.data.get("seen") or {}).get(reader, 0))


def mark_seen(book: Book, reader: str, seq: int) -> None:
    book.data.setdefault("seen", {})[reader] = seq


def happened(game: Game, after: int, reader: str, lang: str = i18n.SOURCE) -> list[str]:
    """What the reader may read of the entries after seq `after`, one line each, in `lang`; the
    reader's own orders are left out (their receipt told them)."""
    gettext = i18n.translations(lang).gettext
    lines = []
    for entry in game.gf.log:
        if entry.get("player") == reader and entry.get("kind") in OWN:
            continue
        if int(entry["seq"]) > after:
            actor = entry.get("player") or entry.get("kind")
            lines += [gettext("seq {seq} ({actor}): {text}").format(
                seq=entry["seq"], actor=actor, text=text)
                for text in entry_texts(entry, game.ruleset.name, lang)]
    return lines


def digest(game: Game, reader: str, book: Book, settings: MailSettings,
           now: datetime) -> EmailMessage | None:
    """A short mail of what happened since the reader's last mail, the full report attached."""
    gf = game.gf
    data = status(game)
    lang = mail_language(game, reader)
    gettext = i18n.translations(lang).gettext
    lines = happened(game, seen_seq(book, reader), reader, lang)
    if not lines:
        return None
    action = pending_action(gf)
    next_up = gettext("The game is over.") if data["over"] or action is None else \
        gettext("Waiting for {players} to {decision}.").format(
            players=", ".join(data["waiting_for"]),
            decision=decision_phrase(game.ruleset.name, action, you=False, lang=lang))
    message = compose(game, reader, kind="digest", intro=[*lines, "", next_up],
                      subject=subject_for(game, reader), settings=settings, book=book, now=now,
                      report=False)
    if message is None:
        return None
    report = render(report_model(game, reader, lang=lang), "text", lang)
    message.add_attachment(report, filename=f"{gf.game_id}-seq{gf.seq}-{reader}.txt")
    thread(message, book, gf, reader, settings)
    mark_seen(book, reader, gf.seq)
    return message


def any_due(gf: GameFile, book: Book, now: datetime) -> bool:
    """Whether a player who chose a daily digest is due one (read from the file's head)."""
    sent = book.data.get("digests") or {}
    return any(str((gf.roster_entry(reader) or {}).get("digest")) == "daily" and (
        sent.get(reader) is None or now - deadlines.parse_time(str(sent[reader])) >= DAY)
        for reader in gf.player_ids())


def due_digests(game: Game, book: Book, settings: MailSettings, now: datetime
                ) -> list[EmailMessage]:
    """`pbem digest`: the daily digest of every player who chose it and whose day is up."""
    sent = book.data.setdefault("digests", {})
    messages = []
    for reader in game.gf.player_ids():
        if preference(game, reader) != "daily":
            continue
        last = sent.get(reader)
        if last is not None and now - deadlines.parse_time(str(last)) < DAY:
            continue
        message = digest(game, reader, book, settings, now)
        if message is not None:
            messages.append(message)
            sent[reader] = deadlines.iso(now)
    return messages


def needs_report(game: Game, book: Book, reader: str) -> bool:
    """Whether a move leaves `reader` owing a decision their last report did not ask for (a
    player still owing a simultaneous decision keeps the report that asked for it)."""
    if reader not in waiting_for(game.gf.agenda):
        return False
    node = next_pending(game.gf.agenda)
    return not (node is not None and "players" in node and
                dict(book.data.get("asked") or {}).get(reader) == node["id"])


def mark_reported(game: Game, book: Book, reader: str) -> None:
    """The reader has their report of now: what it asks, and all that happened until it."""
    mark_seen(book, reader, game.gf.seq)
    node = next_pending(game.gf.agenda)
    if node is not None and reader in waiting_for(game.gf.agenda):
        book.data.setdefault("asked", {})[reader] = node["id"]


def report_messages(game: Game, book: Book, settings: MailSettings, now: datetime, *,
                    only: Sequence[str] = (), intro: Sequence[str] = (),
                    after_move: bool = False, reported: Sequence[str] = ()
                    ) -> list[EmailMessage]:
    """Every player's own report, and the public report for the moderator. After a move
    (`after_move`), a player who need not act gets a short digest instead, or nothing now if
    they chose a daily digest; a player whose receipt carried their report (`reported`: the
    mover who must act again) gets nothing more."""
    gf = game.gf
    messages = []
    owed = set(status(game)["waiting_for"])
    readers: list[str | None] = [*gf.player_ids(), None]
    for reader in readers:
        if only and (reader or deadlines.MODERATOR) not in only or reader in reported:
            continue
        if after_move and reader is not None and reader not in owed:
            if preference(game, reader) == "each":
                short = digest(game, reader, book, settings, now)
                messages += [short] if short is not None else []
            continue
        if after_move and reader is not None and not needs_report(game, book, reader):
            continue  # still owes the simultaneous decision their last report asked for
        message = compose(game, reader, kind="report", subject=subject_for(game, reader),
                          intro=intro,
                          settings=settings, book=book, now=now)
        if message is not None:
            thread(message, book, gf, reader, settings)
            if reader is not None:
                mark_reported(game, book, reader)
            messages.append(message)
    return messages
