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
from pbem.pipeline.opening import open_game
from pbem.store import gamefile


def put(game: Path, messages: Sequence[EmailMessage]) -> None:
    """Write the messages to the queue, oldest first by name."""
    if not messages:
        return
    folder = queue_dir(game)
    folder.mkdir(mode=0o700, exist_ok=True)
    for message in messages:
        # seq, then the time queued: the queue sends in the order things happened
        name = "-".join([str(message.get("X-Pbem-Seq", "0")).zfill(6), str(time.time_ns()),
                         secrets.token_hex(4)]) + ".eml"
        gamefile.write_atomic(folder / name,
                              message.as_bytes(policy=policy.SMTP).decode("utf-8"))
        os.chmod(folder / name, 0o600)


def flush(game: Path, delivery: Delivery) -> tuple[list[str], list[str]]:
    """Send what is queued; (what went, why the rest did not). Sent messages leave the queue."""
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
    a failure is an error (nothing was changed)."""
    with open_book(game) as book:
        opened = open_game(game, head_only=False)  # the whole state when this run has it
        # After a move (queued mail), those who need not act get a digest; `send` mails all.
        messages = report_messages(opened, book, settings, now, only=only, after_move=queue)
        if queue:
            put(game, messages)
    if not queue:
        return deliver(delivery, messages)
    sent, failed = flush(game, delivery)
    return sent + queued_note(failed)
