"""Helpers for the delivery tests: keys and a game, a loopback SMTP server, mail shaped the way
real clients send it, and a Maildir to drop it into. (The one test here checks the shapes.)"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import policy
from email.message import EmailMessage
from email.mime.text import MIMEText
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from pbem import api
from pbem.delivery.mail import MailSettings
from pbem.orders.orderblock import find_blocks
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.orders.signing import sign_orders
from pbem.store import gamefile

HOST = "host@example.org"
NAMES = ("ada", "ben", "cy")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Collect:
    """An aiosmtpd handler keeping each message as parsed, with its envelope."""

    def __init__(self) -> None:
        self.envelopes: list[tuple[str, list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        assert isinstance(message, EmailMessage)
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 OK"

    @property
    def messages(self) -> list[EmailMessage]:
        return [message for _, _, message in self.envelopes]


@contextmanager
def smtp_server(**kwargs: Any) -> Iterator[tuple[Collect, int]]:
    """A real SMTP server on 127.0.0.1 and a free port, for the duration of a test."""
    handler, port = Collect(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def accept_ada(server: Any, session: Any, envelope: Any, mechanism: str,
               auth_data: Any) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"ada" and \
        auth_data.password == b"s3cret"
    return AuthResult(success=ok, handled=False)


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 (and its key), so TLS can be tested on loopback."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def server_tls(directory: Path) -> tuple[ssl.SSLContext, Path]:
    cert, key = self_signed(directory)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context, cert


def settings_for(port: int, **changes: Any) -> MailSettings:
    base: dict[str, Any] = {"sender": f"Lisbon host <{HOST}>", "host": "127.0.0.1",
                            "port": port, "security": "none"}
    base.update(changes)
    return MailSettings(**base)


# --- a game ---------------------------------------------------------------------------------


def make_game(directory: Path, game_id: str = "lisbon", seed: str = "mail-test",
              moderator: bool = True) -> Path:
    """A moderated 3-player game with keys in `directory` (NAME.key, NAME.pub)."""
    keys = []
    for name in NAMES:
        if not (directory / f"{name}.key").exists():
            write_keypair(directory / name, name, f"{name}@example.org")
        keys.append(parse_public_key((directory / f"{name}.pub").read_text()))
    mod = None
    if moderator:
        if not (directory / "max.key").exists():
            write_keypair(directory / "max", "Max", "max@example.org")
        mod = parse_public_key((directory / "max.pub").read_text())
    path = directory / f"{game_id}.yaml"
    api.new_game(path, keys, game_id=game_id, seed_text=seed, moderator=mod)
    return path


def key_of(game: Path, player: str) -> Path:
    entry = gamefile.load(game).roster_entry(player)
    assert entry is not None
    return game.parent / f"{entry['name']}.key"


def acting(game: Path) -> str:
    return str(api.status(gamefile.load(game))["waiting_for"][0])


def legal(game: Path) -> list[str]:
    return list(api.legal_lines(gamefile.load(game))["lines"])


def block_for(game: Path, lines: list[str], player: str | None = None, *,
              ssh: bool = False) -> str:
    """A signed block from the acting player (or `player`) against the game's current state."""
    who = player or acting(game)
    return sign_orders("\n".join(lines) + "\n", key_of(game, who), game, ssh=ssh)


def first_move(game: Path) -> list[str]:
    """A short legal block: one action, then end if that is possible."""
    lines = legal(game)
    pick = next((x for x in lines if x.startswith("buy")), lines[0])
    return [pick, "end"] if pick.startswith("buy") else [pick]


# --- mail as clients send it ----------------------------------------------------------------


def headers(message: EmailMessage | MIMEText, sender: str, subject: str,
            in_reply_to: str | None = None) -> None:
    message["From"] = sender
    message["To"] = HOST
    message["Subject"] = subject
    message["Message-ID"] = make_msgid("client", "example.org")
    message["Date"] = "Fri, 05 Mar 2027 18:00:00 +0000"
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = in_reply_to


def plain(block: str, sender: str, subject: str = "my orders", *, crlf: bool = False,
          in_reply_to: str | None = None) -> bytes:
    """A plain 7-bit message, optionally with CRLF line ends as on the wire."""
    message = EmailMessage(policy=policy.SMTP if crlf else policy.default)
    headers(message, sender, subject, in_reply_to)
    text = f"Here are my orders.\n\n{block}\nCheers\n"
    message.set_content(text, cte="7bit" if text.isascii() else "8bit")
    data = message.as_bytes()
    return data if crlf else data.replace(b"\r\n", b"\n")


def quoted_printable(block: str, sender: str) -> bytes:
    """Outlook style: UTF-8, quoted-printable, smart quotes in the prose."""
    message = EmailMessage()
    headers(message, sender, "orders \u2013 seq")
    message.set_content(f"Voil\u00e0 \u201cmy\u201d orders:\n\n{block}\n", cte="quoted-printable")
    return message.as_bytes()


def flowed(block: str, sender: str, width: int = 30) -> bytes:
    """Thunderbird style format=flowed: long lines broken with a trailing space."""
    out = []
    for line in block.splitlines():
        words, current = line.split(" "), ""
        for word in words:
            if current and len(current) + len(word) + 1 > width:
                out.append(current + " ")
                current = word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
    message = MIMEText("\n".join(out) + "\n", "plain", "utf-8")
    message.replace_header("Content-Type", 'text/plain; charset="utf-8"; format=flowed')
    headers(message, sender, "orders")
    return message.as_bytes()


def html_only(block: str, sender: str) -> bytes:
    """A web client that sends HTML only, the block in paragraphs and <br>s."""
    body = "<br>\n".join(line.replace("&", "&amp;").replace("<", "&lt;")
                         for line in block.splitlines())
    message = EmailMessage()
    headers(message, sender, "orders")
    message.set_content(f"<html><body><div>My orders:</div><div>{body}</div></body></html>",
                        subtype="html", cte="base64")
    return message.as_bytes()


def reply_quoting(new_block: str, old_text: str, sender: str, in_reply_to: str) -> bytes:
    """A reply with the new block on top and the earlier message quoted below."""
    quoted = "".join(f"> {line}\n" for line in old_text.splitlines())
    message = EmailMessage()
    headers(message, sender, "Re: your move", in_reply_to)
    message.set_content(f"{new_block}\nOn Friday the host wrote:\n{quoted}")
    return message.as_bytes()


def make_maildir(directory: Path) -> Path:
    for sub in ("new", "cur", "tmp"):
        (directory / sub).mkdir(parents=True, exist_ok=True)
    return directory


def drop(maildir: Path, raw: bytes, name: str | None = None) -> Path:
    """Deliver raw bytes as a new message (the way an MDA does: tmp/, then new/)."""
    name = name or f"{time.time_ns()}.M{len(list((maildir / 'new').iterdir()))}.test"
    tmp = maildir / "tmp" / name
    tmp.write_bytes(raw)
    target = maildir / "new" / name
    tmp.rename(target)
    return target


def test_every_shape_still_holds_a_readable_block(tmp_path: Path) -> None:
    block = ("-----BEGIN PBEM ORDERS-----\ngame: lisbon\nplayer: medici\nseq: 3\n"  # unsigned
             "state: 0123456789abcdef\n\nplay \"Jacques Coeur\" # a long comment that wraps\n"
             "end\n-----END PBEM ORDERS-----\n")
    for raw in (plain(block, "a@example.org"), plain(block, "a@example.org", crlf=True),
                quoted_printable(block, "a@example.org"), flowed(block, "a@example.org"),
                html_only(block, "a@example.org")):
        message = BytesParser(policy=policy.default).parsebytes(raw)
        assert isinstance(message, EmailMessage)
        part = message.get_body(("plain", "html"))
        assert part is not None
        text = part.get_content()
        found = find_blocks(text, flowed="flowed" in str(part.get("Content-Type")) or None)
        assert [line.canonical for line in found[0].lines] == ['play "jacques coeur"', "end"]
