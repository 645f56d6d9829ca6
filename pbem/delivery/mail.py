"""Mail out: settings, the post book, RFC 5322 messages (text + html), outbox and SMTP.

Settings come from a TOML file (`--mail-config FILE`, else `pbem.toml` beside the game) and
the environment, which wins: PBEM_MAIL_FROM, PBEM_MAIL_REPLY_TO, PBEM_SMTP_HOST, _PORT,
_SECURITY (starttls, tls or none), _USER, _CAFILE. The password comes only from
PBEM_SMTP_PASSWORD or the output of a command (PBEM_SMTP_PASSWORD_COMMAND or `password_command`
in the file); it is never stored, logged or shown.

The post book (`GAME.post.json` beside the game) is the post office's notebook, outside the
game's signed history: the thread's root Message-ID and the last message each reader got (so
every message of a game threads as one conversation), when the pending decision's clock
started, who was reminded, and which incoming messages were processed (pbem.delivery.inbox).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, parseaddr
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from pbem import i18n
from pbem.delivery import deadlines

# The post book lives in sidecar.py (read without the mail machinery); its names stay here too.
from pbem.delivery.sidecar import Book as Book
from pbem.delivery.sidecar import book_path as book_path
from pbem.delivery.sidecar import last_posted as last_posted
from pbem.delivery.sidecar import mark_posted as mark_posted
from pbem.delivery.sidecar import message_id as message_id
from pbem.delivery.sidecar import open_book as open_book
from pbem.delivery.sidecar import who as who
from pbem.errors import UsageError
from pbem.pipeline.game import Game
from pbem.resources import templates_dir
from pbem.store.gamefile import GameFile
from pbem.views import html, template_cache
from pbem.views.duedates import life_rows
from pbem.views.model import mail_language, report_model
from pbem.views.report import install_language, render, safe_text

SECURITY = ("starttls", "tls", "none")
CONFIG_NAME = "pbem.toml"


# --- settings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class MailSettings:
    sender: str | None = None  # the From address, e.g. "Lisbon host <pax@example.org>"
    reply_to: str | None = None
    host: str | None = None
    port: int | None = None
    security: str = "starttls"
    user: str | None = None
    password_command: str | None = None
    cafile: str | None = None
    imap_url: str | None = None
    imap_password_command: str | None = None

    @property
    def domain(self) -> str:
        address = parseaddr(self.sender or "")[1]
        return address.rpartition("@")[2] or "pbem.invalid"


def _read_config(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except OSError as error:
        raise UsageError(f"cannot read mail settings {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"mail settings {path} are not valid TOML: {error}") from None
    for section in ("smtp", "imap"):
        if "password" in data.get(section, {}):
            raise UsageError(f"{path}: never write a password into the settings; set "
                             f"PBEM_{section.upper()}_PASSWORD or [{section}] password_command")
    return data


_FIELDS = {  # MailSettings field: (section, key) in the file; PBEM_SECTION_KEY in the environment
    "sender": ("mail", "from"), "reply_to": ("mail", "reply_to"), "host": ("smtp", "host"),
    "port": ("smtp", "port"), "security": ("smtp", "security"), "user": ("smtp", "user"),
    "password_command": ("smtp", "password_command"), "cafile": ("smtp", "cafile"),
    "imap_url": ("imap", "url"), "imap_password_command": ("imap", "password_command"),
}


def load_settings(game: Path | None, config: Path | None = None,
                  env: Mapping[str, str] = os.environ) -> MailSettings:
    data: dict[str, Any] = {}
    if config is not None:
        data = _read_config(config)
    elif game is not None and (game.resolve().parent / CONFIG_NAME).is_file():
        found = game.resolve().parent / CONFIG_NAME
        data = _read_config(found)
        # Whoever can write the game's folder (a git game, a shared folder) could make the
        # host run a command: commands come only from a file the host names, or the environment.
        for section in ("smtp", "imap"):
            if "password_command" in data.get(section, {}):
                raise UsageError(f"{found}: a password_command is read only from a settings "
                                 "file named with --mail-config, or from "
                                 f"PBEM_{section.upper()}_PASSWORD_COMMAND")
    values: dict[str, Any] = {}
    for field, (section, key) in _FIELDS.items():
        value = env.get(f"PBEM_{section}_{key}".upper()) or dict(data.get(section, {})).get(key)
        if value not in (None, ""):
            values[field] = str(value)
    values["security"] = values.get("security", "starttls").lower()
    if values["security"] not in SECURITY:
        raise UsageError(f"unknown SMTP security '{values['security']}'; use "
                         f"{', '.join(SECURITY)}")
    if not values.get("port", "0").isdigit():
        raise UsageError(f"SMTP port '{values['port']}' is not a number")
    if "port" in values:
        values["port"] = int(values["port"])
    return MailSettings(**values)


def mail_settings_for_sending(game: Path, config: Path | None) -> MailSettings:
    """The settings a command that will send needs, checked before it changes anything."""
    settings = load_settings(game, config)
    if not settings.sender:
        raise UsageError("no From address: set [mail] from in pbem.toml or PBEM_MAIL_FROM")
    return settings


def secret(variable: str, command: str | None, env: Mapping[str, str] = os.environ) -> str | None:
    """A password from the environment variable, else from the first line a command prints."""
    if env.get(variable):
        return env[variable]
    if not command:
        return None
    try:
        done = subprocess.run(shlex.split(command), capture_output=True, text=True, timeout=60,
                              check=False)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        raise UsageError(f"the password command for {variable} could not be run") from None
    if done.returncode != 0 or not done.stdout.strip():
        raise UsageError(f"the password command for {variable} failed (exit "
                         f"{done.returncode}); its output is not shown")
    return done.stdout.splitlines()[0].strip()


# --- messages -------------------------------------------------------------------------------


@cache
def _environment(lang: str = i18n.SOURCE) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                             undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                             extensions=["jinja2.ext.i18n"])
    env.globals["Markup"] = Markup  # a translated sentence with a tag of ours inside
    install_language(env, lang)  # the mail's words, and the shared HTML parts', in `lang`
    template_cache.attach(env)
    return env


def recipient(gf: GameFile, reader: str | None) -> str | None:
    """'Ada <ada@example.org>' for a player, the moderator (reader None), or None."""
    entry = gf.roster_entry(reader) if reader else gf.roster.get("moderator")
    if not entry or not entry.get("email"):
        return None
    address = str(entry["email"]).strip()
    name, parsed = parseaddr(address)
    if name or parsed != address or "@" not in parsed or "," in address:
        return None  # not one plain address: never send a seat's report to a second one
    return formataddr((safe_text(entry.get("name") or reader or "moderator"), address))


def compose(game: Game, reader: str | None, *, kind: str, subject: str,
            intro: Sequence[str], settings: MailSettings, book: Book, now: datetime,
            report: bool = True, to: str | None = None) -> EmailMessage | None:
    """One message: plain text with an HTML alternative (the report page with the board), in
    the reader's language (views.model.mail_language; `intro` is already in it)."""
    gf = game.gf
    lang = mail_language(game, reader)
    address = to or recipient(gf, reader)
    if address is None:
        return None
    if not settings.sender:
        raise UsageError("no From address: set [mail] from in pbem.toml or PBEM_MAIL_FROM")
    since = book.since(gf, now)
    dues = deadlines.due_now(gf, since)
    zone = deadlines.zone_of(gf, reader or deadlines.MODERATOR)
    context = {
        "kind": kind, "game": gf.game_id, "seq": gf.seq, "intro": list(intro),
        "name": safe_text((gf.roster_entry(reader) or {}).get("name")) if reader else None,
        "acts": reader is not None and any(d.player == reader for d in dues),
        "deadlines": [{"who": who(gf, d.player), "when": deadlines.local_time(d.deadline, zone, lang)}
                      for d in dues if d.deadline is not None],
        "reply_to": settings.reply_to or settings.sender,
    }
    posted = last_posted(book, "mail") if reader is None and kind == "report" else None
    model = report_model(game, reader, posted, lang) if report else None  # both parts' model
    if model is not None:  # who is away until when, and the pause (issue 24)
        model["life"] = life_rows(gf, reader, now, lang)
    text = _environment(lang).get_template("mail/message.text.j2").render(
        context, report=render(model, "text", lang) if model else "")
    preface = _environment(lang).get_template("mail/message.html.j2").render(
        context, whole=model is None)
    page = html.page(model, preface, lang) if model else preface
    message = EmailMessage(policy=policy.SMTP)
    for name, value in {
        "From": settings.sender, "To": address, "Reply-To": settings.reply_to,
        "Subject": subject, "Date": format_datetime(now),
        "Message-ID": message_id(gf, f"{gf.seq}.{reader or 'public'}", settings.domain),
        "Auto-Submitted": "auto-replied" if kind in ("receipt", "rejection") else "auto-generated",
        "X-Pbem-Game": gf.game_id, "X-Pbem-Seq": str(gf.seq), "X-Pbem-Kind": kind,
        "X-Pbem-For": reader or "public",
    }.items():
        if value:
            message[name] = value
    if reader is None and kind == "report":
        mark_posted(book, "mail", gf.seq)  # the next public mail covers what follows
    message.set_content(text)
    message.add_alternative(page, subtype="html")
    return message


def thread(message: EmailMessage, book: Book, gf: GameFile, reader: str | None,
           settings: MailSettings, parent: EmailMessage | None = None) -> None:
    """One thread per game and reader, rooted on the first message really sent to them:
    In-Reply-To and References point at `parent` (a reply), else at the reader's last
    message. The first message starts the thread and refers to nothing."""
    key = reader or "public"
    root = book.root(reader)
    if parent is not None and parent.get("Message-ID"):
        refs = [*str(parent.get("References", "")).split(), str(parent["Message-ID"]).strip()]
        if root is not None:
            refs = [root, *(ref for ref in refs if ref != root)]  # in the reader's thread
    elif root is None:
        book.data.setdefault("roots", {})[key] = str(message["Message-ID"])
        book.data["sent"][key] = str(message["Message-ID"])
        return
    else:
        last = book.data["sent"].get(key)
        refs = [root] if not last or last == root else [root, last]
    message["In-Reply-To"] = refs[-1]
    message["References"] = " ".join(refs[:1] + refs[-9:] if len(refs) > 10 else refs)
    book.data.setdefault("roots", {}).setdefault(key, refs[0])
    book.data["sent"][key] = str(message["Message-ID"])


def subject_for(game: Game, reader: str | None) -> str:
    """One subject per game and reader, the same for every mail of theirs (reports, digests,
    reminders, receipts), so a mail program keeps the game in one thread; what changed is
    in the body."""
    gf = game.gf
    gettext = i18n.translations(mail_language(game, reader)).gettext
    whom = who(gf, reader) if reader else gettext("public report")
    return gettext("[{game}] {title}: {whom}").format(game=gf.game_id, title=game.ruleset.title,
                                                     whom=whom)


def reply(original: EmailMessage, game: Game, reader: str | None, *, to: str, kind: str,
          subject: str, intro: Sequence[str], settings: MailSettings, book: Book,
          now: datetime, report: bool) -> EmailMessage | None:
    """A receipt or rejection in reply to `original`, sent to `to`: the sender's address on
    the roster, never one the message names (a forged Reply-To gets nothing)."""
    message = compose(game, reader, kind=kind, subject=subject, intro=intro, settings=settings,
                      book=book, now=now, report=report, to=to)
    if message is not None:
        thread(message, book, game.gf, reader, settings, parent=original)
    return message
