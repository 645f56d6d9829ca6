"""Bounces are noticed (issue 23 §2): a failed delivery to a player's address, in the formats
of several mail servers (made here), is recorded in the post book, shown by status and remind,
told to the moderator once, never answered, and never changes the game."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import inbox, mail, mailboxes
from pbem.store import gamefile
from tests.pbem.test_inbox import NOW, Recorder
from tests.pbem.test_mail_helpers import drop, make_game, make_maildir, settings_for


def rfc3464(address: str, *, action: str = "failed", status: str = "5.2.2",
            diagnostic: str = "552 5.2.2 Mailbox full", tag: str = "1") -> bytes:
    """A Postfix-style delivery status notification (RFC 3464)."""
    return f"""From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
To: host@example.org
Subject: Undelivered Mail Returned to Sender
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"
Message-ID: <dsn{tag}@mx.example.org>

--B
Content-Type: text/plain

I'm sorry to have to inform you that your message could not be delivered.

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org

Final-Recipient: rfc822; {address}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; {diagnostic}

--B
Content-Type: text/rfc822-headers

From: host@example.org
To: {address}
Subject: [lisbon] seq 3

--B--
""".encode()


def exim(address: str) -> bytes:
    return f"""From: Mail Delivery System <Mailer-Daemon@mail.example.net>
To: host@example.org
Subject: Mail delivery failed: returning message to sender
Auto-Submitted: auto-replied
Message-ID: <exim@mail.example.net>

This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  {address}
    Mailbox quota exceeded

------ This is a copy of the message, including all the headers. ------

From: host@example.org
To: {address}
""".encode()


def qmail(address: str) -> bytes:
    return f"""From: MAILER-DAEMON@qmail.example.com
To: host@example.org
Subject: failure notice
Message-ID: <qmail@qmail.example.com>

Hi. This is the qmail-send program at qmail.example.com.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<{address}>:
Sorry, no mailbox here by that name. (#5.1.1)

--- Below this line is a copy of the message.

From: host@example.org
""".encode()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def run(maildir: Path, game: Path, out: Recorder) -> list[str]:
    return inbox.process(mailboxes.read_maildir(maildir), [game], out, settings_for(1), NOW)


@pytest.mark.parametrize("bounce", [rfc3464, exim, qmail], ids=["rfc3464", "exim", "qmail"])
def test_a_bounce_is_recorded_shown_and_never_answered(game: Path, tmp_path: Path,
                                                       bounce: object) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    before = gamefile.load(game).to_data()
    drop(maildir, bounce("ben@example.org"), "1.bounce")  # type: ignore[operator]
    lines = run(maildir, game, out)
    assert lines == [], lines  # a bounce is looked at quietly, never answered
    assert gamefile.load(game).to_data() == before
    record = mail.Book.load(game).data["bounces"]
    player = gamefile.load(game).player_ids()[1]  # ben's seat
    assert list(record) == [player] and record[player]["permanent"] == 1
    # The moderator is told once; nobody else hears of it.
    assert [(m["X-Pbem-Kind"], m["X-Pbem-For"]) for m in out.messages] == [("notice", "public")]
    status = CliRunner().invoke(app, ["status", str(game)])
    assert f"mail: {player}: mail bouncing since" in status.stdout and "1 permanent" in status.stdout


def test_the_moderator_is_told_once_not_once_per_bounce(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    for n in range(3):
        drop(maildir, rfc3464("ben@example.org", tag=str(n)), f"{n}.bounce")
    drop(maildir, rfc3464("ben@example.org", action="delayed", status="4.4.1",
                          diagnostic="timed out", tag="d"), "9.delay")
    run(maildir, game, out)
    record = next(iter(mail.Book.load(game).data["bounces"].values()))
    assert (record["permanent"], record["delayed"]) == (3, 1)
    assert [m["X-Pbem-Kind"] for m in out.messages] == ["notice"]


def test_a_bounce_for_a_stranger_changes_nothing(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, rfc3464("someone@elsewhere.example"), "1.bounce")
    run(maildir, game, out)
    assert not mail.Book.load(game).data.get("bounces") and out.messages == []
