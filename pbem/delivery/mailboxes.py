"""Where mail comes from: a Maildir, an mbox file or an IMAP folder, each message with the
marks its mailbox can keep (handled, looked at, set aside)."""

from __future__ import annotations

import contextlib
import functools
import imaplib
import mailbox
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pbem.delivery.mail import MailSettings, secret
from pbem.errors import UsageError


def _nothing() -> None:
    return None


@dataclass
class Incoming:
    """One message as a mailbox holds it. `message` is parsed on first use, so a message that
    cannot be parsed fails on its own, never the run."""

    where: str  # e.g. "new/1700000000.M1.host", "mbox #3", "imap uid 17"
    raw: bytes
    done: Callable[[], None] = _nothing  # handled for good: Maildir cur/ with S, IMAP \Seen
    looked: Callable[[], None] = _nothing  # seen, not for us: Maildir cur/, still unread
    set_aside: Callable[[], None] = _nothing  # cannot be handled: flagged for the host
    name: str = ""  # a Maildir file's name before ':' (stable while its flags change), else ""

    @functools.cached_property
    def message(self) -> EmailMessage:
        message = BytesParser(policy=policy.default).parsebytes(self.raw)
        assert isinstance(message, EmailMessage)
        return message


# --- sources --------------------------------------------------------------------------------


def _check_maildir(directory: Path) -> None:
    if not (directory / "new").is_dir() or not (directory / "cur").is_dir():
        raise UsageError(f"{directory} is not a Maildir (it needs new/ and cur/)")


def maildir_names(directory: Path) -> set[str]:
    """The names (before ':') of every message in new/ and cur/, read from the listing only."""
    _check_maildir(directory)
    return {path.name.partition(":")[0] for sub in ("new", "cur")
            for path in (directory / sub).iterdir() if not path.name.startswith(".")}


def read_maildir(directory: Path, skip: Collection[str] = frozenset()) -> list[Incoming]:
    """Messages in new/ and unseen ones in cur/, oldest first; a message whose name (before
    ':') is in `skip` is not opened."""
    _check_maildir(directory)
    found = []
    for sub in ("new", "cur"):
        for path in (directory / sub).iterdir():
            base, _, info = path.name.partition(":")
            flags = info[2:] if info.startswith("2,") else ""
            if path.name.startswith(".") or (sub == "cur" and "S" in flags) or base in skip:
                continue
            with contextlib.suppress(FileNotFoundError):
                found.append((path.stat().st_mtime_ns, path.name, path, base, flags))
    items = []
    for _, _, path, base, flags in sorted(found):
        try:
            raw = path.read_bytes()
        except OSError:  # moved by a mail client meanwhile, a folder, or unreadable: not mail
            continue

        def to_cur(extra: str, path: Path = path, base: str = base, flags: str = flags) -> None:
            _move(path, directory / "cur" / f"{base}:2,{''.join(sorted({*flags, *extra}))}")

        items.append(Incoming(f"{path.parent.name}/{path.name}", raw,
                              functools.partial(to_cur, "S"), functools.partial(to_cur, ""),
                              functools.partial(to_cur, "F"), base))
    return items


def _move(source: Path, target: Path) -> None:
    if source == target:
        return
    with contextlib.suppress(OSError):  # gone already, or a read-only Maildir: the book knows
        os.rename(source, target)


def read_mbox(path: Path) -> list[Incoming]:
    """Every message of an mbox file; the file is only read (the ledger remembers)."""
    if not path.is_file():
        raise UsageError(f"no mbox file at {path}")
    box = mailbox.mbox(path, create=False)
    items = []
    for number, key in enumerate(box.iterkeys(), start=1):
        items.append(Incoming(f"mbox #{number}", box.get_bytes(key)))
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
    except (OSError, EOFError, imaplib.IMAP4.error) as error:  # refused, or closed at the greeting
        raise UsageError(f"cannot reach the IMAP server {host}:{port}: "
                         f"{error or type(error).__name__}") from None
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
            items.append(Incoming(f"imap uid {uid}", raw,
                                  functools.partial(_imap_flag, client, uid, "\\Seen"),
                                  _nothing,
                                  functools.partial(_imap_flag, client, uid, "\\Flagged")))
        yield items
    except (imaplib.IMAP4.error, OSError, EOFError) as error:
        raise UsageError(f"IMAP {host}:{port}: {error or type(error).__name__}") from None
    finally:
        with contextlib.suppress(imaplib.IMAP4.error, OSError):
            client.logout()


def _quote(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _imap_flag(client: imaplib.IMAP4, uid: str, flag: str) -> None:
    with contextlib.suppress(imaplib.IMAP4.error, OSError):  # the book remembers it anyway
        client.uid("STORE", uid, "+FLAGS", f"({flag})")


