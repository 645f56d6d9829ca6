"""Mail in: read a Maildir, an mbox or an IMAP folder; apply or reject each order block; reply.

For each message: find its blocks whatever the mail client did (quoted-printable, base64,
format=flowed, HTML only, quoting, CRLF), route them to their game by the `game:` header,
apply them (pbem.pipeline.apply) or reject them, reply to the sender with a receipt or the reason and
their report's legal lines, mail the new reports, and mark the message processed.

Exactly once: a block is applied at most once because the game log holds its payload hash (a
re-run after an interruption finds it there and only sends the mail again); the post book's
`processed` ledger, keyed by Message-ID and body hash and written after the replies, keeps a
message from being handled twice; Maildir messages then move to cur/ with the S flag, IMAP
messages get \\Seen. Messages with no block, for another game, or automatic (bounces, vacation
replies) are left alone and listed. Mail may go out twice after an interruption, never a move.
A Maildir message left unread in cur/ (looked at, or set aside) is remembered by its file name,
so later runs do not even open it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from pbem import i18n, words
from pbem.delivery import bounces, deadlines, mailboxes, moderator_mail, queue
from pbem.delivery.digests import mark_reported, needs_report, report_messages
from pbem.delivery.mail import Book, MailSettings, compose, open_book, reply, subject_for
from pbem.delivery.mailboxes import Incoming
from pbem.delivery.reading import (
    already_applied,
    is_automatic,
    ledger_key,
    message_blocks,
    roster_player,
)
from pbem.delivery.transport import Delivery
from pbem.errors import (
    BlockError,
    BusyError,
    DoesNotFitError,
    IOFailure,
    PbemError,
    UsageError,
)
from pbem.i18n.errors import say_error
from pbem.orders.orderblock import OrderBlock
from pbem.pipeline import apply
from pbem.pipeline import opening as games_
from pbem.pipeline.game import Game
from pbem.store.gamefile import GameFile, current_hash, fingerprint
from pbem.views.model import mail_language

SKELETON_HINT = "# your orders here"  # the comment line of a report's block skeleton


# --- processing -----------------------------------------------------------------------------


@dataclass
class Handled:
    text: str
    mark: str  # "done": handled for good; "looked": not for us; "aside": could not be handled;
    #            "retry": leave it for a later run (the game was busy)


def process_maildir(directory: Path, games: Sequence[Path], delivery: Delivery,
                    settings: MailSettings, now: datetime, *, verbose: bool = False) -> list[str]:
    """`process` a Maildir's new mail. A message left unread in cur/ for the host (junk, a
    bounce, an auto-reply, one set aside) is finished with: the first game's post book keeps
    its file name, and later runs skip it without opening it (`verbose` opens everything).
    Names whose files are gone are dropped, so the book never holds more than the Maildir."""
    folder = str(directory.resolve())
    known = _finished_names(games[0], directory, folder)
    items = mailboxes.read_maildir(directory, skip=frozenset() if verbose else known)
    finished: list[str] = []
    lines = process(items, games, delivery, settings, now, verbose=verbose, finished=finished)
    fresh = sorted(set(finished) - known)
    if fresh:
        with open_book(games[0]) as book:
            names = book.data.setdefault("finished", {}).setdefault(folder, [])
            names += [name for name in fresh if name not in names]
    return lines


def _finished_names(game: Path, directory: Path, folder: str) -> frozenset[str]:
    """The names the book remembers for this Maildir that are still in it (forgetting the rest)."""
    stored = Book.load(game).data.get("finished", {}).get(folder) or []
    if not stored:
        return frozenset()
    present = mailboxes.maildir_names(directory)
    if any(name not in present for name in stored):
        with open_book(game) as book:
            book.data["finished"][folder] = [name for name in book.data["finished"][folder]
                                             if name in present]
    return frozenset(name for name in stored if name in present)


def process(items: Sequence[Incoming], games: Sequence[Path], delivery: Delivery,
            settings: MailSettings, now: datetime, *, verbose: bool = False,
            finished: list[str] | None = None) -> list[str]:
    """Handle every message on its own; one line for each message this run acted on (with
    `verbose`, for every message). A message that cannot be handled is set aside with the
    reason in the post book; the run goes on with the rest. The Maildir names of messages
    left unread for good (looked at, set aside, or known before) go to `finished`."""
    finished = [] if finished is None else finished
    by_id: dict[str, Path] = {}
    for path in games:
        game_id = games_.open_game(path, whole=False).gf.game_id.lower()
        if game_id in by_id:
            raise UsageError(f"{by_id[game_id]} and {path} are the same game '{game_id}'")
        by_id[game_id] = path
    lines = [f"{queue.queue_dir(path).name}: {line}" for path in by_id.values()
             for line in _flush(path, delivery)]
    ledger = games[0]  # the first game's post book remembers what was looked at
    for item in items:
        key = ledger_key(item.raw)
        seen = _seen_before(by_id.values(), ledger, key)
        if seen is not None:  # a copy of a message handled before: moved, never answered
            text, processed = seen
            (item.done if processed else item.looked)()
            finished += [item.name] if item.name and not processed else []
            if verbose:
                lines.append(f"{item.where}: {text} (before)")
            continue
        try:
            handled = handle(item, key, by_id, delivery, settings, now)
        except IOFailure as failure:  # e.g. the post book after the apply: the next run ends it
            handled = Handled(f"not handled now: {failure}; the next run tries again", "retry")
        except Exception as error:  # noqa: BLE001 - one bad mail never stops the inbox
            if os.environ.get("PBEM_DEBUG"):
                raise
            handled = Handled(f"set aside: the message cannot be read ({type(error).__name__})",
                              "aside")
        if handled.mark in ("looked", "aside"):
            finished += [item.name] if item.name else []
            with open_book(ledger) as book:
                book.data.setdefault("looked", {})[key] = {
                    "where": item.where, "result": handled.text, "at": deadlines.iso(now)}
        {"done": item.done, "looked": item.looked, "aside": item.set_aside}.get(
            handled.mark, lambda: None)()
        if handled.mark != "looked" or verbose:
            lines.append(f"{item.where} from {_sender(item)}: {handled.text}")
    return lines


def _flush(game: Path, delivery: Delivery) -> list[str]:
    sent, failed = queue.flush(game, delivery)
    return sent + queue.queued_note(failed)


def _seen_before(games: Iterable[Path], ledger: Path, key: str) -> tuple[str, bool] | None:
    """What a run did with this message before, and whether it was handled for good."""
    for path in games:
        entry = Book.load(path).processed(key)
        if entry is not None:
            return str(entry.get("result", "processed")), True
    looked = Book.load(ledger).data.get("looked", {}).get(key)
    return (str(looked.get("result")), False) if isinstance(looked, dict) else None


def _sender(item: Incoming) -> str:
    try:
        return _clean(str(item.message.get("From", "?")))
    except Exception:  # noqa: BLE001 - a header the parser rejects is still a message
        return "?"


def _clean(text: str) -> str:
    """One line, no control or bidirectional characters (for the host's terminal)."""
    return "".join(ch for ch in text if ch.isprintable() and ch not in _BIDI)[:200]


_BIDI = set("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def handle(item: Incoming, key: str, games: dict[str, Path], delivery: Delivery,
           settings: MailSettings, now: datetime) -> Handled:
    delayed, failed = bounces.failures(item.raw)
    if delayed or failed:
        return handle_bounce(item, games, delayed, failed, delivery, settings, now)
    if is_automatic(item.message):
        return Handled("left alone: an automatic message", "looked")
    try:
        blocks = message_blocks(item.message)
    except BlockError as error:
        if len(games) != 1:
            return Handled(f"left alone: unreadable block ({error})", "looked")
        return handle_game(item, key, next(iter(games.values())), [], delivery, settings, now,
                           error=error)
    if not blocks:
        return Handled("left alone: no order block", "looked")
    named = sorted({(b.game or "").lower() for b in blocks})
    targets = [name for name in named if name in games]
    if not targets:
        return Handled(f"left alone: for game {', '.join(named)}, not one of these", "looked")
    results = [handle_game(item, key, games[name], [b for b in blocks if
                                                     (b.game or "").lower() == name],
                           delivery, settings, now) for name in targets]
    marks = {r.mark for r in results}
    mark = "retry" if "retry" in marks else "aside" if "aside" in marks else "done"
    return Handled("; ".join(r.text for r in results), mark)


def handle_bounce(item: Incoming, games: dict[str, Path], delayed: set[str], failed: set[str],
                  delivery: Delivery, settings: MailSettings, now: datetime) -> Handled:
    """Record a bounce in each game whose players it names; tell the moderator once."""
    noted = []
    for path in games.values():
        with open_book(path) as book:
            game = games_.open_game(path, head_only=False, whole=False)
            first = bounces.record(book.data, game.gf, delayed, failed, now)
            named = bounces.players_at(game.gf, failed | delayed)
            if not named:
                continue
            noted += named
            if first:
                intro = [f"Mail to {', '.join(first)} is bouncing; they may not be getting "
                         f"their reports of game {game.gf.game_id}.", *bounces.lines(book.data)]
                notice = compose(game, None, kind="notice", intro=intro, settings=settings,
                                 subject=subject_for(game, None), book=book, now=now,
                                 report=False)
                queue.put(path, [notice] if notice is not None else [])
        queue.flush(path, delivery)
    kind = "failed" if failed else "delayed"
    whom = ", ".join(sorted(set(noted))) or "no player of these games"
    return Handled(f"bounce: mail to {whom} {kind}; recorded, not answered", "looked")


def handle_game(item: Incoming, key: str, path: Path, blocks: list[OrderBlock],
                delivery: Delivery, settings: MailSettings, now: datetime, *,
                error: BlockError | None = None) -> Handled:
    """Apply the blocks to one game, then record the message and queue its mail in one step
    (the post book and the queue are written together, after the game file); then send."""
    with open_book(path) as book:
        if book.processed(key):
            return Handled("already processed", "done")
        text = "\n".join(block.text for block in blocks)
        events: list[dict[str, object]] = []
        signer: str | None = None
        moderator = bool(blocks) and all((b.player or "").lower() == deadlines.MODERATOR
                                         for b in blocks)
        try:
            if error is not None:  # unreadable: refused with its reason (keyed, as data)
                raise error
            if moderator:  # a replacement, a settings change or forced timeouts
                events = moderator_mail.apply_moderator_block(
                    path, text, item.message, lambda gf: book.since(gf, now), now)
            else:
                applied = apply.apply_block(path, text, now=now)
                events, signer = applied.events, applied.player
            game = games_.open_game(path, head_only=False)
            seq, fresh = game.gf.seq, True
            result = f"applied as seq {seq}"
        except BusyError:
            return Handled("busy: another run holds the game; run again", "retry")
        except IOFailure as failure:  # the machine's fault, not the message's: try it again
            return Handled(f"not handled now: {failure}; the next run tries again", "retry")
        except UsageError as failure:
            return Handled(f"left for the moderator: {failure}", "aside")
        except PbemError as failure:
            game = games_.open_game(path, head_only=False)
            found = already_applied(game.gf, blocks) \
                if isinstance(failure, DoesNotFitError) else None
            if found is None and moderator:  # the host looks at it: no reply to a forger
                return Handled(f"set aside: the moderator's block was not applied: {failure}",
                               "aside")
            if found is None:
                outgoing = rejection(item, game, book, failure, settings, now)
                queue.put(path, outgoing)
                _record(book, key, item, f"rejected: {failure}", now)
                sent, failed = queue.flush(path, delivery)
                reply_note = "reply sent" if sent else "reply queued" if failed else \
                    "no reply (the sender is not in the roster)"
                return Handled(f"rejected: {failure} ({reply_note})", "done")
            # A resent, quoted or forwarded copy: the sender hears so, and nobody else is mailed
            # again, unless the run that applied it stopped before its reports were queued.
            seq, result = found, f"already applied as seq {found}"
            fresh = found == game.gf.seq and not _reported(book, found)
        try:
            reported: list[str] = []  # movers to act again: their receipt carries the report
            outgoing = _receipt(item, game, book, seq, events, settings, now, signer,
                                reported if fresh else None)
            if fresh:
                outgoing += report_messages(game, book, settings, now, after_move=True,
                                            reported=reported)
        except (PbemError, ValueError, TypeError) as failure:
            outgoing = []
            result += f"; no mail composed ({failure})"
        queue.put(path, outgoing)
        _record(book, key, item, result, now)
    sent, failed = queue.flush(path, delivery)
    note = f"; {len(failed)} mail(s) queued ({failed[0]})" if failed else ""
    return Handled(f"{result}; {len(sent)} message(s) out{note}", "done")


def _answerable(gf: GameFile, item: Incoming) -> tuple[str, str, str | None] | None:
    """The roster id that sent the message, its roster address, and the reader whose report
    goes with an answer (None for the moderator); None for a stranger, who gets nothing."""
    found = roster_player(gf, item.message)
    if found is None:
        return None
    sender, address = found
    return sender, address, sender if sender in gf.player_ids() else None


def _receipt(item: Incoming, game: Game, book: Book, seq: int, events: list[dict[str, object]],
             settings: MailSettings, now: datetime, signer: str | None = None,
             reported: list[str] | None = None) -> list[EmailMessage]:
    """A receipt to the sender if the roster knows them, and to the block's signer at their
    roster address when someone else sent (forwarded) their block: the signature decides
    whether a block applies, and its owner always hears that it did. With `reported` (the
    move's reports follow), a mover who must act again gets their full report in the
    receipt, one mail instead of two, and is added to `reported`."""
    gf = game.gf
    found = _answerable(gf, item)
    targets = [found] if found is not None else []
    entry = gf.roster_entry(signer) if signer else None
    if signer and entry and entry.get("email") and \
            all(target[1].lower() != str(entry["email"]).lower() for target in targets):
        targets.append((signer, str(entry["email"]), signer))
    return [m for target in targets
            for m in _receipt_to(item, game, book, seq, events, settings, now, target,
                                 reported)]


def _receipt_to(item: Incoming, game: Game, book: Book, seq: int,
                events: list[dict[str, object]], settings: MailSettings, now: datetime,
                found: tuple[str, str, str | None], reported: list[str] | None
                ) -> list[EmailMessage]:
    gf = game.gf
    sender, address, reader = found
    carries = reported is not None and reader is not None and reader not in reported and \
        needs_report(game, book, reader)
    shown = [e for e in events if "visible_to" not in e
             or sender in e["visible_to"]]  # type: ignore[operator]
    anchor = f"{gf.seq}:{fingerprint(current_hash(gf))}"
    lang = mail_language(game, reader)
    gettext = i18n.translations(lang).gettext
    intro = [gettext("Your orders for game {game} were applied at seq {seq}.").format(
                 game=gf.game_id, seq=seq),
             gettext("Keep this line: `{command}` then proves that any copy of the game you are "
                     "shown has not been rolled back past it.").format(
                 command=f"pbem verify GAME --expect {anchor}"),
             *(f"- {words.say(e, lang)}" for e in shown)]
    if carries:
        intro.append(gettext("You act again next: your report follows."))
    receipt = reply(item.message, game, reader, to=address, kind="receipt", intro=intro,
                    subject=subject_for(game, reader), book=book,
                    settings=settings, now=now, report=carries)
    if receipt is None:
        return []
    if carries and reader is not None and reported is not None:
        mark_reported(game, book, reader)
        reported.append(reader)
    return [receipt]


def rejection(item: Incoming, game: Game, book: Book, failure: PbemError,
              settings: MailSettings, now: datetime) -> list[EmailMessage]:
    """Tell a roster sender why in their language (the lines quoted verbatim), with their
    report (its legal lines); strangers get nothing."""
    gf = game.gf
    found = _answerable(gf, item)
    if found is None:
        return []
    _, address, reader = found
    lang = mail_language(game, reader)
    gettext = i18n.translations(lang).gettext
    intro = [gettext("Your orders for game {game} were not applied: {reason}").format(
                 game=gf.game_id, reason=say_error(failure, lang)),
             gettext("Nothing changed. Your current report follows, with the legal lines if it "
                     "is your move; send a new signed block.")]
    message = reply(item.message, game, reader, to=address, kind="rejection",
                    subject=subject_for(game, reader), intro=intro,
                    settings=settings, book=book, now=now, report=True)
    return [message] if message is not None else []


def _reported(book: Book, seq: int) -> bool:
    """Whether a processed message's run queued the reports of `seq`."""
    return any(isinstance(entry, dict) and str(entry.get("result", "")).startswith(
        f"applied as seq {seq}") for entry in book.data["processed"].values())


def _record(book: Book, key: str, item: Incoming, result: str, now: datetime) -> None:
    book.data["processed"][key] = {
        "from": _sender(item), "subject": _clean(_header(item, "Subject")),
        "result": result, "at": deadlines.iso(now),
    }


def _header(item: Incoming, name: str) -> str:
    try:
        return str(item.message.get(name, ""))
    except Exception:  # noqa: BLE001 - a header the parser rejects
        return ""
