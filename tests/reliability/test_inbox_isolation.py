"""One bad mail never stops the inbox (issue 20 §1): each message is handled on its own; a
message that cannot be handled is set aside (flagged, with the reason in the post book) and
the run goes on; mail goes through a durable queue, so a refused recipient never hides an
apply; a duplicate block gets one short answer; cron runs are quiet."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.delivery import inbox, mail, mailboxes, queue, transport
from pbem.store import gamefile
from tests.pbem.test_inbox import NOW, Recorder, address
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    first_move,
    make_game,
    make_maildir,
    plain,
    settings_for,
)


class Refusing(Recorder):
    """A mail server that refuses one address and takes the rest."""

    def __init__(self, refused: str) -> None:
        super().__init__()
        self.refused = refused

    def deliver_each(self, messages: list[EmailMessage]) -> list[transport.Sent]:
        results = []
        for message in messages:
            if self.refused in str(message["To"]):
                results.append(transport.Sent(False, f"{message['To']}: 550 mailbox unavailable"))
            else:
                self.messages.append(message)
                results.append(transport.Sent(True, transport.describe(message)))
        return results


def run(maildir: Path, game: Path, out: Recorder) -> list[str]:
    return inbox.process(mailboxes.read_maildir(maildir), [game], out, settings_for(1), NOW)


BAD_MAIL = {
    "from-no-domain": b"From: a@\nMessage-ID: <x1@example.org>\nSubject: hi\n\nhello\n",
    "empty-message-id": b"From: b@example.org\nMessage-ID: <>\nSubject: hi\n\nhello\n",
    "encoded-word-line-feed": (b"From: =?utf-8?q?<a=0Ab@x>?=\nReply-To: =?utf-8?q?<a=0Ab@x>?=\n"
                               b"Message-ID: <x3@example.org>\nSubject: hi\n\nhello\n"),
    "utf-7-lone-surrogate": (b"From: c@example.org\nMessage-ID: <x4@example.org>\n"
                             b"Content-Type: text/plain; charset=utf-7\n"
                             b"Content-Transfer-Encoding: quoted-printable\n\nfoo =3D +2D8-\n"),
}


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def test_bad_mail_is_set_aside_and_the_good_mail_behind_it_is_applied(game: Path,
                                                                      tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    for number, (name, raw) in enumerate(BAD_MAIL.items()):
        drop(maildir, raw, f"{number}.{name}")
    (maildir / "new" / "5.a-folder").mkdir()  # not a message: skipped, never a crash
    drop(maildir, plain(block_for(game, first_move(game)), address(game, acting(game))), "6.good")
    lines = run(maildir, game, out)
    assert any("6.good" in line and "applied as seq 1" in line for line in lines), lines
    assert gamefile.load(game).seq == 1
    assert "Traceback" not in "\n".join(lines)
    # Nothing bad stays in new/ to stop the next run; the next run is quiet.
    assert sorted(p.name for p in (maildir / "new").iterdir()) == ["5.a-folder"]
    assert run(maildir, game, out) == []


def test_a_refused_recipient_never_hides_the_apply_and_is_sent_later(game: Path,
                                                                     tmp_path: Path) -> None:
    maildir = make_maildir(tmp_path / "Maildir")
    mover = acting(game)
    drop(maildir, plain(block_for(game, first_move(game)), address(game, mover)))
    refusing = Refusing("ben@example.org")
    lines = run(maildir, game, refusing)
    assert "applied as seq 1" in lines[0] and "1 mail(s) queued" in lines[0], lines
    # the receipt, the next report, the public report (ben's digest refused; the mover's
    # receipt tells them of their own move)
    assert gamefile.load(game).seq == 1 and len(refusing.messages) == 3
    assert len(queue.queued(game)) == 1  # ben's report waits
    later = Recorder()
    lines = run(maildir, game, later)  # the server takes it now: the queue goes first
    assert len(lines) == 1 and "ben@example.org" in lines[0] and not queue.queued(game)
    assert [str(m["To"]) for m in later.messages] == ["ben <ben@example.org>"]


def test_a_duplicate_block_gets_one_short_answer(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    mover = acting(game)
    block = block_for(game, first_move(game))
    drop(maildir, plain(block, address(game, mover)), "1")
    run(maildir, game, out)
    before = len(out.messages)
    drop(maildir, plain("Did it arrive?\n\n" + block, address(game, mover)), "2")  # resent
    lines = run(maildir, game, out)
    assert "already applied as seq 1" in lines[0], lines
    assert [m["X-Pbem-Kind"] for m in out.messages[before:]] == ["receipt"]


def test_the_reason_a_message_was_set_aside_is_in_the_post_book(game: Path,
                                                                tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, BAD_MAIL["encoded-word-line-feed"], "1.bad")
    run(maildir, game, out)
    looked = mail.Book.load(game).data["looked"]
    assert len(looked) == 1 and next(iter(looked.values()))["where"] == "new/1.bad"


def test_an_imap_server_that_closes_at_the_greeting_is_a_usage_error(game: Path) -> None:
    """Not a crash (exit 70): the host is told the server could not be reached."""
    import socket
    import threading

    from typer.testing import CliRunner

    from pbem.cli import app

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]

    def hang_up() -> None:
        for _ in range(2):
            conn, _ = server.accept()
            conn.close()

    worker = threading.Thread(target=hang_up, daemon=True)
    worker.start()
    result = CliRunner().invoke(app, ["inbox", str(game), "--imap",
                                      f"imap://host@127.0.0.1:{port}/INBOX"],
                                env={"PBEM_IMAP_PASSWORD": "x",
                                     "PBEM_MAIL_FROM": "host@example.org"})
    server.close()
    assert result.exit_code == 2 and "cannot reach the IMAP server" in result.stderr
    assert "Traceback" not in result.output


def delsp_flowed(block: str, sender: str, width: int = 40) -> bytes:
    """format=flowed; DelSp=yes (RFC 3676 4.2), as some clients send it: a long line is cut
    anywhere, even inside a word, and a space is added before each soft break."""
    from email.mime.text import MIMEText

    from tests.pbem.test_mail_helpers import headers

    out = []
    for line in block.splitlines():
        while len(line) > width:
            out.append(line[:width] + " ")
            line = line[width:]
        out.append(line)
    message = MIMEText("\n".join(out) + "\n", "plain", "utf-8")
    message.replace_header("Content-Type",
                           'text/plain; charset="utf-8"; format=flowed; delsp=yes')
    headers(message, sender, "orders")
    return message.as_bytes()


def test_format_flowed_with_delsp_joins_words_cut_in_two(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    block = block_for(game, first_move(game))
    raw = delsp_flowed(block, address(game, acting(game)))
    assert b"delsp=yes" in raw
    drop(maildir, raw)
    lines = run(maildir, game, out)
    assert "applied as seq 1" in lines[0], lines


def test_delsp_is_honoured_where_a_line_is_cut_inside_a_word() -> None:
    """RFC 3676 4.2: the 63-character line of the issue, cut as `... pa ` + `pal...`."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from pbem.orders.orderblock import canonical_payload, find_blocks, format_block
    from pbem.orders.signatures import parse_public_key, public_key_line, sign, verify

    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    line = 'play "Oratory of Divine Love" papal bull against the heretics now'
    payload = canonical_payload("g", "medici", 3, "0123456789abcdef", [line])
    text = format_block("g", "medici", 3, "0123456789abcdef", [line], sign(key, payload))
    cut = text.replace(line, line[:32] + " \n" + line[32:])  # "... pa " + "pal bull ..."
    assert line[30:35] == "papal"
    read = find_blocks(cut, flowed=True, delsp=True)[0]
    assert read.lines[0].text == line
    public = parse_public_key(public_key_line(key.public_key().public_bytes_raw(), "m", None))
    verify(public, read.payload(), read.signature or "")  # raises if the line changed
    assert find_blocks(cut, flowed=True)[0].lines[0].text != line  # DelSp=no keeps the space
