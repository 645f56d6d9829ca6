"""Sending mail: an outbox of .eml files, or an SMTP server; each message on its own, so one
refused recipient never stops the others (pbem.delivery.queue keeps what was not sent)."""

from __future__ import annotations

import os
import smtplib
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

from pbem.delivery.mail import MailSettings, secret
from pbem.errors import IOFailure, UsageError
from pbem.store import gamefile

_DEFAULT_PORTS = {"starttls": 587, "tls": 465, "none": 25}


# --- delivery -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sent:
    ok: bool
    text: str  # "sent report for ada to ...", or why it was not


class Delivery(Protocol):
    def deliver_each(self, messages: Sequence[EmailMessage]) -> list[Sent]:
        """Each message on its own: a refusal is that message's, never the others'."""
        ...


def deliver(delivery: Delivery, messages: Sequence[EmailMessage]) -> list[str]:
    """Send now, or fail naming the first message that could not go (for commands that have
    written nothing: `send`, `remind`)."""
    results = delivery.deliver_each(messages)
    failed = [r.text for r in results if not r.ok]
    if failed:
        raise UsageError(failed[0])
    return [r.text for r in results]


def describe(message: EmailMessage) -> str:
    return f"{message['X-Pbem-Kind']} for {message['X-Pbem-For']} to {message['To']}"


class Outbox:
    """Write .eml files for people who send from their own mail client."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def deliver_each(self, messages: Sequence[EmailMessage]) -> list[Sent]:
        if not messages:
            return []
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = f"cannot create outbox {self.directory}: {error.strerror}"
            return [Sent(False, reason) for _ in messages]
        done = []
        for message in messages:
            stem = "-".join(_safe(str(message[h])) for h in ("X-Pbem-Game", "X-Pbem-Seq",
                                                             "X-Pbem-Kind", "X-Pbem-For"))
            path, count = self.directory / f"{stem}.eml", 1
            while path.exists():
                count += 1
                path = self.directory / f"{stem}-{count}.eml"
            try:
                gamefile.write_atomic(path, message.as_bytes(policy=policy.SMTP).decode("utf-8"))
            except IOFailure as error:  # a full disk: the message stays queued
                done.append(Sent(False, str(error)))
                continue
            done.append(Sent(True, f"wrote {path.name}: {describe(message)}"))
        return done


def _safe(part: str) -> str:
    """A file-name part: letters, digits, '-' and '_' only (ids come from game files)."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in part)[:40] or "_"


class Smtp:
    """Send through an SMTP server: STARTTLS, implicit TLS, or (for loopback tests) none."""

    def __init__(self, settings: MailSettings, env: Mapping[str, str] = os.environ) -> None:
        self.settings, self.env = settings, env

    def deliver_each(self, messages: Sequence[EmailMessage]) -> list[Sent]:
        if not messages:
            return []
        settings = self.settings
        if not settings.host:
            reason = ("no SMTP host: set [smtp] host in pbem.toml or PBEM_SMTP_HOST, or use "
                      "--outbox DIR")
            return [Sent(False, reason) for _ in messages]
        port = settings.port or _DEFAULT_PORTS[settings.security]
        where = f"{settings.host}:{port}"
        done: list[Sent] = []
        try:
            context = ssl.create_default_context(cafile=settings.cafile)
            client = smtplib.SMTP_SSL(settings.host, port, context=context, timeout=60) \
                if settings.security == "tls" else smtplib.SMTP(settings.host, port, timeout=60)
            with client:
                if settings.security == "starttls":
                    client.starttls(context=context)
                if settings.user:
                    password = secret("PBEM_SMTP_PASSWORD", settings.password_command, self.env)
                    if password is None:
                        raise UsageError("no SMTP password: set PBEM_SMTP_PASSWORD or "
                                         "PBEM_SMTP_PASSWORD_COMMAND")
                    client.login(settings.user, password)
                for message in messages:
                    try:
                        client.send_message(message)
                    except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused,
                            smtplib.SMTPDataError) as error:
                        done.append(Sent(False, f"{describe(message)} refused by {where}: "
                                                f"{_reason(error)}"))
                        continue
                    done.append(Sent(True, f"sent {describe(message)}"))
        except (smtplib.SMTPException, OSError, UsageError) as error:
            reason = f"cannot send mail through {where}: {_reason(error)}"
            done += [Sent(False, reason) for _ in messages[len(done):]]
        return done


def _reason(error: Exception) -> str:
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        codes = [f"{code} {text.decode('utf-8', 'replace')}" if isinstance(text, bytes)
                 else f"{code}" for code, text in error.recipients.values()]
        return "; ".join(codes) or "recipient refused"
    reason = getattr(error, "smtp_error", b"") or getattr(error, "strerror", None) or \
        (str(error) if isinstance(error, UsageError) else type(error).__name__)
    return reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)


def delivery_for(outbox: Path | None, settings: MailSettings) -> Delivery:
    return Outbox(outbox) if outbox is not None else Smtp(settings)
