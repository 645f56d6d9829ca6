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
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import imaplib
import mailbox
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pbem import words
from pbem.delivery import deadlines
from pbem.delivery.mail import Book, Delivery, MailSettings, open_book, reply, report_messages, secret
from pbem.errors import BlockError, BusyError, DoesNotFitError, PbemError, UsageError
from pbem.orders.blockfinder import BEGIN, html_to_text, marker_kind, normalize
from pbem.orders.orderblock import OrderBlock, find_blocks
from pbem.pipeline import apply, replace
from pbem.pipeline import game as games
from pbem.pipeline.game import Game
from pbem.store import gamefile
from pbem.store.gamefile import GameFile

SKELETON_HINT = "# your orders here"  # the comment line of a report's block skeleton


@dataclass
class Incoming:
    where: str  # e.g. "new/1700000000.M1.host", "mbox #3", "imap uid 17"
    raw: bytes
    message: EmailMessage
    mark: Callable[[], None]  # flag the message as processed in its mailbox


def parse(raw: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage)
    return message


# --- sources --------------------------------------------------------------------------------


def read_maildir(directory: Path) -> list[Incoming]:
    """Messages in new/ and unseen ones in cur/, oldest first."""
    if not (directory / "new").is_dir() or not (directory / "cur").is_dir():
        raise UsageError(f"{directory} is not a Maildir (it needs new/ and cur/)")
    found = []
    for sub in ("new", "cur"):
        for path in (directory / sub).iterdir():
            base, _, info = path.name.partition(":")
            flags = info[2:] if info.startswith("2,") else ""
            if path.name.startswith(".") or (sub == "cur" and "S" in flags):
                continue
            with contextlib.suppress(FileNotFoundError):
                found.append((path.stat().st_mtime_ns, path.name, path, base, flags))
    items = []
    for _, _, path, base, flags in sorted(found):
        try:
            raw = path.read_bytes()
        except FileNotFoundError:  # a mail client moved it meanwhile; the next run sees it
            continue
        target = directory / "cur" / f"{base}:2,{''.join(sorted({*flags, 'S'}))}"
        items.append(Incoming(f"{path.parent.name}/{path.name}", raw, parse(raw),
                              functools.partial(_move, path, target)))
    return items


def _move(source: Path, target: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.rename(source, target)


def read_mbox(path: Path) -> list[Incoming]:
    """Every message of an mbox file; the file is only read (the ledger remembers)."""
    if not path.is_file():
        raise UsageError(f"no mbox file at {path}")
    box = mailbox.mbox(path, create=False)
    items = []
    for number, key in enumerate(box.iterkeys(), start=1):
        raw = box.get_bytes(key)
        items.append(Incoming(f"mbox #{number}", raw, parse(raw), lambda: None))
    return items


@contextlib.contextmanager
def imap_messages(url: str, settings: MailSettings,
                  env: Mapping[str, str] = os.environ) -> Iterator[list[Incoming]]:
    """Unseen messages of `imaps://USER@HOST[:PORT]/FOLDER` (or imap:// with STARTTLS)."""
    parts = urlsplit(url)
    if parts.scheme not in ("imap", "imaps") or not parts.hostname:
        raise UsageError(f"'{url}' is not an imap:// or imaps:// URL")
    if parts.password:
        raise UsageError("never put the password in the IMAP URL; set PBEM_IMAP_PASSWORD or "
                         "PBEM_IMAP_PASSWORD_COMMAND")
    user, folder = unquote(parts.username or ""), unquote(parts.path.lstrip("/")) or "INBOX"
    host, port = parts.hostname, parts.port or (993 if parts.scheme == "imaps" else 143)
    try:
        client = imaplib.IMAP4_SSL(host, port, timeout=60) if parts.scheme == "imaps" \
            else imaplib.IMAP4(host, port, timeout=60)
    except OSError as error:
        raise UsageError(f"cannot reach the IMAP server {host}:{port}: {error}") from None
    try:
        if parts.scheme == "imap" and "STARTTLS" in client.capabilities:
            client.starttls()
        elif parts.scheme == "imap" and host not in ("127.0.0.1", "::1", "localhost"):
            raise UsageError(f"{host} offers no STARTTLS; use imaps:// to keep the password safe")
        password = secret("PBEM_IMAP_PASSWORD", settings.imap_password_command, env)
        client.login(user, password or "")
        if client.select(_quote(folder))[0] != "OK":
            raise UsageError(f"no IMAP folder '{folder}'")
        uids = [uid.decode() for uid in client.uid("SEARCH", "UNSEEN")[1][0].split()]
        items = []
        for uid in uids:
            fetched = client.uid("FETCH", uid, "(BODY.PEEK[])")[1][0]
            raw = fetched[1] if isinstance(fetched, tuple) else b""
            items.append(Incoming(f"imap uid {uid}", raw, parse(raw),
                                  functools.partial(_imap_seen, client, uid)))
        yield items
    except imaplib.IMAP4.error as error:
        raise UsageError(f"IMAP {host}:{port}: {error}") from None
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            client.logout()


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _imap_seen(client: imaplib.IMAP4, uid: str) -> None:
    client.uid("STORE", uid, "+FLAGS", "(\\Seen)")


# --- reading a message ----------------------------------------------------------------------


def ledger_key(message: EmailMessage, raw: bytes) -> str:
    """Message-ID plus a hash of the body (the headers change on the way)."""
    body = raw.replace(b"\r\n", b"\n").split(b"\n\n", 1)[-1]
    message_id = str(message.get("Message-ID", "")).strip() or "<no-message-id>"
    return f"{message_id} {hashlib.sha256(body).hexdigest()[:24]}"


def is_automatic(message: EmailMessage) -> bool:
    """Bounces, vacation replies, list mail and pbem's own messages get no answer."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    sender = str(message.get("From", "")).lower()
    return auto != "no" or precedence in ("bulk", "junk", "list", "auto_reply") or \
        "mailer-daemon" in sender or message.get_content_type() == "multipart/report"


def _text_of(part: EmailMessage) -> str:
    try:
        return str(part.get_content())
    except (LookupError, ValueError, AssertionError):
        data = part.get_payload(decode=True)
        return data.decode("utf-8", "replace") if isinstance(data, bytes) else ""


def message_blocks(message: EmailMessage) -> list[OrderBlock]:
    """The blocks of the plain-text parts (and attachments), else of the HTML parts."""
    plain: list[tuple[str, bool | None]] = []
    html: list[str] = []
    for part in message.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        assert isinstance(part, EmailMessage)
        text = _text_of(part)
        if part.get_content_subtype() == "html":
            html.append(text)
        else:
            is_flowed = str(part.get_param("format", "")).lower() == "flowed"
            plain.append((text, True if is_flowed else None))
    errors: list[BlockError] = []
    html_group: list[tuple[str, bool | None]] = [(html_to_text(text), None) for text in html]
    for group in (plain, html_group):
        blocks: list[OrderBlock] = []
        for text, flowed in group:
            try:
                blocks += find_blocks(text, flowed=flowed)
            except BlockError:
                good, bad = _good_blocks(text, flowed)
                blocks, errors = blocks + good, errors + bad
        # An unsigned block with no orders is a quoted report skeleton, not an order block.
        blocks = [b for b in blocks if b.lines or b.signature]
        if blocks:
            return blocks
    if errors:
        raise errors[0]
    return []


def _good_blocks(text: str, flowed: bool | None) -> tuple[list[OrderBlock], list[BlockError]]:
    """Each block read alone, when one spoils the rest: a reply may quote the report's unsigned
    skeleton, with or without '> ' marks (Outlook appends the original message as is). A
    skeleton is not an error: "thanks!" quoting the report holds no block."""
    chunks: list[list[str]] = [[]]
    for line in normalize(text).split("\n"):
        if marker_kind(line.lstrip(" \t>")) == BEGIN:
            chunks.append([])
        chunks[-1].append(line)
    good: list[OrderBlock] = []
    bad: list[BlockError] = []
    for chunk in chunks[1:]:
        try:
            good += find_blocks("\n".join(chunk), flowed=flowed)
        except BlockError as error:
            if not any(SKELETON_HINT in line for line in chunk):
                bad.append(error)
    return good, bad


def roster_player(gf: GameFile, message: EmailMessage) -> tuple[str, str] | None:
    """The roster id (a player, or "moderator") whose address sent the message, and that
    address as the roster has it: replies go there only."""
    addresses = {addr.lower() for _, addr in getaddresses(
        [str(message.get(h, "")) for h in ("From", "Reply-To")]) if addr}
    for entry in [*gf.roster["players"], gf.roster.get("moderator") or {}]:
        if entry.get("email") and str(entry["email"]).lower() in addresses:
            return str(entry.get("id", deadlines.MODERATOR)), str(entry["email"])
    return None


def already_applied(gf: GameFile, blocks: Sequence[OrderBlock]) -> int | None:
    """The seq at which the message's newest block was applied, if it was."""
    newest = max(blocks, key=lambda b: b.seq or 0)
    try:
        digest = hashlib.sha256(newest.payload()).hexdigest()
    except BlockError:
        return None
    return next((int(e["seq"]) for e in gf.log if e.get("payload_sha256") == digest), None)


# --- processing -----------------------------------------------------------------------------


@dataclass
class Handled:
    done: bool  # processed for good (mark it); False: leave it for a later run
    text: str


def process(items: Sequence[Incoming], games: Sequence[Path], delivery: Delivery,
            settings: MailSettings, now: datetime) -> list[str]:
    """Handle every message; one line per message says what happened."""
    by_id: dict[str, Path] = {}
    for path in games:
        game_id = gamefile.load(path).game_id.lower()
        if game_id in by_id:
            raise UsageError(f"{by_id[game_id]} and {path} are the same game '{game_id}'")
        by_id[game_id] = path
    lines = []
    for item in items:
        label = f"{item.where} from {item.message.get('From', '?')}"
        handled = handle(item, by_id, delivery, settings, now)
        if handled.done:
            item.mark()
        lines.append(f"{label}: {handled.text}")
    return lines


def handle(item: Incoming, games: dict[str, Path], delivery: Delivery, settings: MailSettings,
           now: datetime) -> Handled:
    if is_automatic(item.message):
        return Handled(False, "left alone: an automatic message")
    key = ledger_key(item.message, item.raw)
    if any(Book.load(path).processed(key) for path in games.values()):
        return Handled(True, "already processed")
    try:
        blocks = message_blocks(item.message)
    except BlockError as error:
        if len(games) != 1:
            return Handled(False, f"left alone: unreadable block ({error})")
        return handle_game(item, key, next(iter(games.values())), [], delivery, settings, now,
                           error=str(error))
    if not blocks:
        return Handled(False, "left alone: no order block")
    named = sorted({(b.game or "").lower() for b in blocks})
    targets = [name for name in named if name in games]
    if not targets:
        return Handled(False, f"left alone: for game {', '.join(named)}, not one of these")
    results = [handle_game(item, key, games[name], [b for b in blocks if
                                                     (b.game or "").lower() == name],
                           delivery, settings, now) for name in targets]
    return Handled(all(r.done for r in results), "; ".join(r.text for r in results))


def handle_game(item: Incoming, key: str, path: Path, blocks: list[OrderBlock],
                delivery: Delivery, settings: MailSettings, now: datetime, *,
                error: str = "") -> Handled:
    message = item.message
    with open_book(path) as book:
        if book.processed(key):
            return Handled(True, "already processed")
        text = "\n".join(block.text for block in blocks)
        events: list[dict[str, object]] = []
        try:
            if error:
                raise BlockError(error)
            if blocks and all((b.player or "").lower() == deadlines.MODERATOR for b in blocks):
                gf = replace.apply_replacement(path, text)
                events = list(gf.log[-1]["events"])
            else:
                events = apply.apply_block(path, text).events
            seq, fresh = games.open_game(path, whole=False).gf.seq, True
            result = f"applied as seq {seq}"
        except BusyError:
            return Handled(False, "busy: another run holds the game; run again")
        except UsageError as failure:
            return Handled(False, f"left for the moderator: {failure}")
        except PbemError as failure:
            game = games.open_game(path, head_only=False)
            found = already_applied(game.gf, blocks) \
                if isinstance(failure, DoesNotFitError) else None
            if found is None:
                return reject(item, key, game, book, str(failure), delivery, settings, now)
            # A resent, quoted or forwarded copy: the sender hears so, and nobody else is mailed
            # again, unless the run that applied it stopped before its reports went out.
            seq, result = found, f"already applied as seq {found}"
            fresh = found == game.gf.seq and not _reported(book, found)
        game = games.open_game(path, head_only=False)
        gf = game.gf
        found_sender = roster_player(gf, message)
        outgoing = []
        if found_sender is not None:
            sender, address = found_sender
            reader = sender if sender in gf.player_ids() else None
            intro = [f"Your orders for game {gf.game_id} were applied at seq {seq}.",
                     *(f"- {words.say(e)}" for e in events
                       if "visible_to" not in e or sender in e["visible_to"])]  # type: ignore[operator]
            receipt = reply(message, game, reader, to=address, kind="receipt", intro=intro,
                            subject=f"[{gf.game_id}] seq {seq}: orders applied", book=book,
                            settings=settings, now=now, report=False)
            outgoing += [receipt] if receipt is not None else []
        if fresh:
            outgoing += report_messages(game, book, settings, now)
        sent = delivery.deliver(outgoing)
        _record(book, key, message, result, now)
        return Handled(True, f"{result}; {len(sent)} message(s) out")


def reject(item: Incoming, key: str, game: Game, book: Book, reason: str,
           delivery: Delivery, settings: MailSettings, now: datetime) -> Handled:
    """Tell a roster sender why, with their report (its legal lines); strangers get nothing."""
    gf = game.gf
    found_sender = roster_player(gf, item.message)
    sent: list[str] = []
    if found_sender is not None:
        sender, address = found_sender
        reader = sender if sender in gf.player_ids() else None
        intro = [f"Your orders for game {gf.game_id} were not applied: {reason}",
                 "Nothing changed. Your current report follows, with the legal lines if it is "
                 "your move; send a new signed block."]
        message = reply(item.message, game, reader, to=address, kind="rejection",
                        subject=f"[{gf.game_id}] seq {gf.seq}: orders rejected", intro=intro,
                        settings=settings, book=book, now=now, report=True)
        sent = delivery.deliver([message] if message is not None else [])
    _record(book, key, item.message, f"rejected: {reason}", now)
    reply_note = "reply sent" if sent else "no reply (the sender is not in the roster)"
    return Handled(True, f"rejected: {reason} ({reply_note})")


def _reported(book: Book, seq: int) -> bool:
    """Whether a processed message's run mailed the reports of `seq`."""
    return any(isinstance(entry, dict) and entry.get("result") == f"applied as seq {seq}"
               for entry in book.data["processed"].values())


def _record(book: Book, key: str, message: EmailMessage, result: str, now: datetime) -> None:
    book.data["processed"][key] = {
        "from": str(message.get("From", "")), "subject": str(message.get("Subject", "")),
        "result": result, "at": deadlines.iso(now),
    }
