"""The junk a host's mailbox gets, made here: malformed messages, spam in koi8-r, iso-2022-jp,
gb18030 and utf-16, invalid UTF-8, a phishing copy of a block, a 270 KB attachment, vacation
auto-replies with and without Auto-Submitted, and delivery failures (DSNs) and delays in the
formats of several mail servers."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

HOST = "host@example.org"


def _message(sender: str, subject: str, when: datetime) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = HOST
    message["Subject"] = subject
    message["Date"] = format_datetime(when)
    message["Message-ID"] = make_msgid("junk", "junk.example")
    return message


# --- malformed ------------------------------------------------------------------------------

MALFORMED: list[bytes] = [
    b"",
    b"no headers at all, just a line\n",
    b"From: a@b.example\nSubject: header without a colon\nBroken header line\n\nbody\n",
    b"From: a@b.example\nContent-Type: multipart/mixed; boundary=\"X\"\n\n--X\n"
    b"Content-Type: text/plain\n\nunterminated multipart\n",
    b"From: a@b.example\nContent-Type: text/plain; charset=x-no-such-charset\n\n\xff\xfe text\n",
    b"From: a@b.example\nContent-Transfer-Encoding: base64\n\n!!!not base64 at all===\n",
    b"From: =?utf-8?q?broken=ZZ?= <a@b.example>\nSubject: =?unknown?b?AAAA?=\n\nx\n",
    b"From: a@b.example\nSubject: nul\x00byte\n\nbody with \x00 nul\n",
    b"From: a@b.example\nX-Long: " + b"x" * 20000 + b"\n\nlong header\n",
    b"From: a@b.example\nContent-Type: multipart/alternative\n\nmultipart without a boundary\n",
    b"From: a@b.example\nContent-Type: message/rfc822\n\nFrom: inner\nSubject: nested\n",
    b"\xef\xbb\xbfFrom: bom@b.example\nSubject: a BOM before the headers\n\nbody\n",
    b"From: a@b.example\r\nSubject: bare CR\rin the middle\r\n\r\nbody\r\n",
    b"From: a@b.example\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-7\n\n+2D3cAA-\n",
]


def malformed(index: int) -> bytes:
    return MALFORMED[index % len(MALFORMED)]


# --- spam in many charsets ------------------------------------------------------------------

SPAM = [("koi8-r", "Выгодное предложение! Только сегодня скидки на всё."),
        ("iso-2022-jp", "お得な情報です。今すぐクリックしてください。"),
        ("gb18030", "恭喜您中奖了！请点击链接领取奖品。"),
        ("utf-16", "Congratulations, you have won! Ꭺ prize awaits.")]


def spam(index: int, when: datetime) -> bytes:
    charset, text = SPAM[index % len(SPAM)]
    message = _message(f"promo{index}@spam.example", "Special offer", when)
    message.set_content(text.encode(charset), maintype="text", subtype="plain",
                        cte="base64" if charset == "utf-16" else "8bit")
    message.set_param("charset", charset)
    return message.as_bytes()


def invalid_utf8(when: datetime) -> bytes:
    head = _message("broken@encoding.example", "caf\u00e9", when)
    head["Content-Type"] = "text/plain; charset=utf-8"
    head["Content-Transfer-Encoding"] = "8bit"
    return head.as_bytes().rstrip(b"\n") + b"\n\ncaf\xc3 \xff\xfe half a character \xe2\x82\n"


def phishing(block: str, when: datetime) -> bytes:
    """A copy of a real block from a look-alike address, its orders changed."""
    lines = block.splitlines()
    at = next((i for i, line in enumerate(lines) if not line.strip()), 4) + 1
    lines.insert(at, "end")
    message = _message("host-security@examp1e.org", "Action required: verify your orders",
                       when)
    message.set_content("Your account will be suspended. Confirm these orders:\n\n"
                        + "\n".join(lines) + "\n")
    return message.as_bytes()


def big_attachment(sender: str, when: datetime) -> bytes:
    message = _message(sender, "the map photo I promised", when)
    message.set_content("Here is the board as it stands on my table (no orders).\n")
    data = random.Random(270).randbytes(270 * 1024)
    message.add_attachment(data, maintype="image", subtype="jpeg", filename="board.jpg")
    return message.as_bytes()


def stranger_question(when: datetime) -> bytes:
    message = _message("curious@elsewhere.example", "Can I join your game?", when)
    message.set_content("Hello, is there room for another player?\n")
    return message.as_bytes()


# --- auto-replies ---------------------------------------------------------------------------


def vacation(sender: str, report: EmailMessage, when: datetime, *, marked: bool) -> bytes:
    """A vacation responder's answer to a report: RFC 3834 marked, or a careless one that
    quotes the whole report (its unsigned skeleton included) and marks nothing."""
    message = _message(sender, f"Out of office: {report['Subject']}", when)
    parent = str(report.get("Message-ID", "")).strip()
    if parent:
        message["In-Reply-To"] = parent
    if marked:
        message["Auto-Submitted"] = "auto-replied"
        message.set_content("I am on holiday and will read your mail when I am back.\n")
    else:
        body = report.get_body(("plain",))
        quoted = str(body.get_content()) if body is not None else ""
        message.set_content(f"I am away until further notice.\n\n{quoted}")
    return message.as_bytes()


# --- delivery failures ----------------------------------------------------------------------


def _dsn(address: str, when: datetime, mta: str, action: str, status: str,
         diagnostic: str, subject: str) -> bytes:
    tag = make_msgid("dsn", mta)
    return f"""From: MAILER-DAEMON@{mta} (Mail Delivery System)
To: {HOST}
Subject: {subject}
Date: {format_datetime(when)}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="DSN-B"
Message-ID: {tag}

--DSN-B
Content-Type: text/plain

This is the mail system at host {mta}.
Your message could not be delivered to one or more recipients.

--DSN-B
Content-Type: message/delivery-status

Reporting-MTA: dns; {mta}
Arrival-Date: {format_datetime(when)}

Final-Recipient: rfc822; {address}
Original-Recipient: rfc822;{address}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; {diagnostic}

--DSN-B
Content-Type: text/rfc822-headers

From: {HOST}
To: {address}
Subject: [game] your report

--DSN-B--
""".encode()


def postfix(address: str, when: datetime) -> bytes:
    return _dsn(address, when, "mx.players.example", "failed", "5.2.2",
                f"552 5.2.2 <{address}>: Mailbox full",
                "Undelivered Mail Returned to Sender")


def gmail(address: str, when: datetime) -> bytes:
    return _dsn(address, when, "googlemail.com", "failed", "5.2.2",
                "552-5.2.2 The email account that you tried to reach is over quota.",
                "Delivery Status Notification (Failure)")


def exchange(address: str, when: datetime) -> bytes:
    return _dsn(address, when, "outlook.example", "failed", "5.2.2",
                "552 5.2.2 STOREDRV.Deliver; mailbox full", "Undeliverable: your report")


def exim(address: str, when: datetime) -> bytes:
    message = _message("Mail Delivery System <Mailer-Daemon@mail.players.example>",
                       "Mail delivery failed: returning message to sender", when)
    message["Auto-Submitted"] = "auto-replied"
    message.set_content(f"""This message was created automatically by mail delivery software.

A message that you sent could not be delivered to one or more of its
recipients. This is a permanent error. The following address(es) failed:

  {address}
    host mx.players.example: 552 5.2.2 Mailbox full

------ This is a copy of the message, including all the headers. ------

From: {HOST}
To: {address}
""")
    return message.as_bytes()


def qmail(address: str, when: datetime) -> bytes:
    message = _message("MAILER-DAEMON@qmail.players.example", "failure notice", when)
    message.set_content(f"""Hi. This is the qmail-send program at qmail.players.example.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<{address}>:
552 5.2.2 mailbox is full (#5.2.2)

--- Below this line is a copy of the message.

From: {HOST}
""")
    return message.as_bytes()


def delayed(address: str, when: datetime) -> bytes:
    return _dsn(address, when, "mx.players.example", "delayed", "4.2.2",
                "452 4.2.2 Mailbox full, will retry", "Delayed Mail (still being retried)")


PERMANENT: list[Callable[[str, datetime], bytes]] = [postfix, gmail, exchange, exim, qmail]
