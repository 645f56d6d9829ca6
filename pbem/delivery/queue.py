"""The outgoing mail queue: messages are written beside the game (GAME.queue/, readable by the
host only) in the same step that records what they are about, and sent afterwards. A message
that cannot go now stays queued: the next mail run for the game sends it first, and `status`
counts it. A failed send never undoes or hides an apply."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Sequence
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from pbem.delivery.digests import report_messages
from pbem.delivery.mail import MailSettings, open_book
from pbem.delivery.sidecar import queue_dir as queue_dir
from pbem.delivery.sidecar import queued as queued
from pbem.delivery.transport import Delivery, deliver
from pbem.errors import BusyError, IOFailure
from pbem.pipeline.opening import open_game
from pbem.store import gamefile


def put(game: Path, messages: Sequence[EmailMessage]) -> None:
    """Write the messages to the queue, oldest first by name."""
    if not messages:
        return
    folder = queue_dir(game)
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError as error:
        raise IOFailure(f"cannot create {folder.name}: {error.strerror}") from None
    written: list[Path] = []
    try:
        for message in messages:
            # seq, then the time queued: the queue sends in the order things happened
            name = "-".join([str(message.get("X-Pbem-Seq", "0")).zfill(6),
                             str(time.time_ns()), secrets.token_hex(4)]) + ".eml"
            gamefile.write_atomic(folder / name,
                                  message.as_bytes(policy=policy.SMTP).decode("utf-8"))
            written.append(folder / name)
            os.chmod(folder / name, 0o600)
    except BaseException:  # all or nothing, so a retry never queues a message twice
        for path in written:
            path.unlink(missing_ok=True)
        raise


def flush(game: Path, delivery: Delivery) -> tuple[list[str], list[str]]:
    """Send what is queued; (what went, why the rest did not). Sent messages leave the queue.
    One run sends at a time (GAME.queue.lock), so two runs never send a message twice."""
    if not queued(game):
        return [], []
    try:
        with gamefile.locked(queue_dir(game)):
            return _flush(game, delivery)
    except BusyError:
        return [], [f"another run is sending {queue_dir(game).name}"]


def _flush(game: Path, delivery: Delivery) -> tuple[list[str], list[str]]:
    paths = queued(game)
    if not paths:
        return [], []
    messages = []
    for path in paths:
        parsed = BytesParser(policy=policy.SMTP).parsebytes(path.read_bytes())
        assert isinstance(parsed, EmailMessage)
        messages.append(parsed)
    results = delivery.deliver_each(messages)
    sent, failed = [], []
    for path, result in zip(paths, results, strict=True):
        if result.ok:
            path.unlink(missing_ok=True)
            sent.append(result.text)
        else:
            failed.append(result.text)
    return sent, failed


def queued_note(failed: list[str]) -> list[str]:
    """What a run says when mail stays queued."""
    if not failed:
        return []
    return [f"{len(failed)} mail(s) queued, not sent yet ({failed[0]}); the next mail run "
            "for this game sends them"]


def send_reports(game: Path, delivery: Delivery, settings: MailSettings, now: datetime, *,
                 only: Sequence[str] = (), queue: bool = False) -> list[str]:
    """Mail every player their report. With `queue` (after a change to the game), the
    reports go through the queue, so a failed send is kept and retried; else they go now, and
    a failure is an error that leaves the post book as it was (found by the fuzz: it recorded
    reports as sent, and started their clocks, when the server was down)."""
    queued_now = False
    went: list[str] = []
    try:
        with open_book(game) as book:
            opened = open_game(game, head_only=False)  # the whole state when this run has it
            # After a move (queued mail), those who need not act get a digest; `send` mails all.
            messages = report_messages(opened, book, settings, now, only=only, after_move=queue)
            if queue:
                put(game, messages)
                queued_now = True
            else:  # inside the book's block: a failure leaves the book unsaved
                went = deliver(delivery, messages)
    except IOFailure as error:
        if not queue:
            raise
        if not queued_now:  # the game has moved: say so, and how its reports get out
            raise IOFailure(f"{error}; the game's change stands, but its reports were not "
                            f"queued: `pbem send {game.name}` mails them") from None
        # only the post book failed after the queue was written: the queue goes out below
    if not queue:
        return went
    sent, failed = flush(game, delivery)
    return sent + queued_note(failed)
