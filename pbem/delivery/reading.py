"""Reading a message: its ledger key, whether it is automatic, the order blocks in it whatever
the mail client did (quoted-printable, base64, format=flowed with DelSp, HTML only, quoting),
and which roster address sent it."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import getaddresses

from pbem.delivery import deadlines
from pbem.errors import BlockError
from pbem.orders.blockfinder import BEGIN, html_to_text, marker_kind, normalize
from pbem.orders.orderblock import OrderBlock, find_blocks
from pbem.store.gamefile import GameFile

SKELETON_HINT = "# your orders here"  # the comment line of a report's block skeleton


def ledger_key(raw: bytes) -> str:
    """The Message-ID as written plus a hash of the body (the headers change on the way); read
    from the bytes, so a header the parser rejects still gives a key."""
    head, _, body = raw.replace(b"\r\n", b"\n").partition(b"\n\n")
    message_id = b""
    for line in head.split(b"\n"):
        if line[:11].lower() == b"message-id:":
            message_id = line[11:].strip()[:200]
            break
    shown = message_id.decode("ascii", "replace") or "<no-message-id>"
    return f"{shown} {hashlib.sha256(body).hexdigest()[:24]}"


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
    plain: list[tuple[str, bool | None, bool]] = []
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
            delsp = is_flowed and str(part.get_param("delsp", "")).lower() == "yes"
            plain.append((text, True if is_flowed else None, delsp))
    errors: list[BlockError] = []
    html_group: list[tuple[str, bool | None, bool]] = [(html_to_text(text), None, False)
                                                       for text in html]
    for group in (plain, html_group):
        blocks: list[OrderBlock] = []
        for text, flowed, delsp in group:
            try:
                blocks += find_blocks(text, flowed=flowed, delsp=delsp)
            except BlockError:
                good, bad = _good_blocks(text, flowed, delsp)
                blocks, errors = blocks + good, errors + bad
        # An unsigned block with no orders is a quoted report skeleton, not an order block.
        blocks = [b for b in blocks if b.lines or b.signature]
        if blocks:
            return blocks
    if errors:
        raise errors[0]
    return []


def _good_blocks(text: str, flowed: bool | None,
                 delsp: bool = False) -> tuple[list[OrderBlock], list[BlockError]]:
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
            good += find_blocks("\n".join(chunk), flowed=flowed, delsp=delsp)
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


