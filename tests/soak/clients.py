"""How scripted players answer a report: the mail-client styles of issue 23, made here.

Each style turns (a signed block, the sender, the report being answered) into the raw bytes a
mail client would send: plain, quoted-printable, base64, format=flowed (and DelSp=yes broken
inside words), HTML from Gmail, Outlook and Apple Mail, multipart/alternative, a quoted reply, a
bottom post, a signature with the original below, an inline forward, a forward as attachment.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.mime.text import MIMEText
from email.utils import format_datetime, make_msgid

HOST = "host@example.org"

Style = Callable[[str, str, EmailMessage, datetime], bytes]


def original_text(report: EmailMessage) -> str:
    body = report.get_body(("plain",))
    text = str(body.get_content()) if body is not None else ""
    return text.replace("\r\n", "\n")  # the outbox writes CRLF, as on the wire


def _headers(message: EmailMessage | MIMEText, sender: str, report: EmailMessage,
             when: datetime, subject: str | None = None) -> None:
    message["From"] = sender
    message["To"] = HOST
    message["Subject"] = subject or f"Re: {report['Subject']}"
    message["Date"] = format_datetime(when)
    message["Message-ID"] = make_msgid("client", "players.example")
    parent = str(report.get("Message-ID", "")).strip()
    if parent:
        message["In-Reply-To"] = parent
        message["References"] = f"{report.get('References', '')} {parent}".strip()


def _text(body: str, sender: str, report: EmailMessage, when: datetime, cte: str) -> bytes:
    message = EmailMessage()
    _headers(message, sender, report, when)
    message.set_content(body, cte=cte)
    return message.as_bytes()


def plain(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    return _text(f"My orders:\n\n{block}\nCheers\n", sender, report, when, "7bit")


def quoted_printable(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    return _text(f"Voil\u00e0 \u201cmes\u201d ordres \u2013 bonne chance:\n\n{block}\n", sender,
                 report, when, "quoted-printable")


def base64_body(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    return _text(f"Orders attached below.\n\n{block}\n", sender, report, when, "base64")


def _flowed_lines(text: str, width: int, delsp: bool) -> list[str]:
    """RFC 3676: each long line broken into soft-broken pieces (a trailing space). Without
    DelSp the break falls after a space; with DelSp=yes anywhere but before a space, and the
    encoder's added space is deleted again by the reader."""
    out = []
    for line in text.split("\n"):
        while len(line) > width:
            if delsp:
                cut = next((i for i in range(width, 0, -1) if line[i] != " "), width)
                out.append(line[:cut] + " ")
            else:
                cut = line.rfind(" ", 1, width) + 1
                if cut <= 0:
                    break
                out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return out


def _flowed(block: str, sender: str, report: EmailMessage, when: datetime, delsp: bool) -> bytes:
    lines = _flowed_lines(f"Here you go:\n\n{block}", 40 if delsp else 30, delsp)
    message = MIMEText("\n".join(lines) + "\n", "plain", "utf-8")
    extra = "; delsp=yes" if delsp else ""
    message.replace_header("Content-Type", f'text/plain; charset="utf-8"; format=flowed{extra}')
    _headers(message, sender, report, when)
    return message.as_bytes()


def flowed(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    return _flowed(block, sender, report, when, delsp=False)


def flowed_delsp(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    return _flowed(block, sender, report, when, delsp=True)


def _html_lines(block: str, open_tag: str, close_tag: str, br: str = "<br>") -> str:
    return "".join(f"{open_tag}{html.escape(line) or br}{close_tag}\n"
                   for line in block.splitlines())


def _html_only(body: str, sender: str, report: EmailMessage, when: datetime, cte: str) -> bytes:
    message = EmailMessage()
    _headers(message, sender, report, when)
    message.set_content(body, subtype="html", cte=cte)
    return message.as_bytes()


def gmail_html(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    quoted = html.escape(original_text(report)[:2000]).replace("\n", "<br>")
    body = (f'<div dir="ltr"><div>My move:</div>{_html_lines(block, "<div>", "</div>")}</div>'
            f'<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Mon, the host '
            f'wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px '
            f'0.8ex;border-left:1px solid rgb(204,204,204)">{quoted}</blockquote></div>')
    return _html_only(body, sender, report, when, "base64")


def outlook_html(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    lines = "".join(f'<p class="MsoNormal">{html.escape(line).replace(" ", "&nbsp;", 1)}'
                    f"<o:p></o:p></p>\n" for line in block.splitlines())
    body = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta http-equiv='
            '"Content-Type" content="text/html; charset=utf-8"><style>p.MsoNormal{margin:0cm;}'
            f'</style></head><body lang="EN-GB"><div class="WordSection1">{lines}'
            '<p class="MsoNormal"><o:p>&nbsp;</o:p></p></div></body></html>')
    return _html_only(body, sender, report, when, "quoted-printable")


def apple_html(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    lines = _html_lines(block, "<div>", "</div>", '<br class="">')
    body = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">'
            '</head><body style="word-wrap: break-word; -webkit-nbsp-mode: space;">'
            f'{lines}'
            '<div class=""><br class=""></div></body></html>')
    return _html_only(body, sender, report, when, "8bit")


def alternative(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    message = EmailMessage()
    _headers(message, sender, report, when)
    message.set_content(f"Orders:\n\n{block}\n")
    message.add_alternative(f"<html><body><p>Orders:</p><pre>{html.escape(block)}</pre>"
                            "</body></html>", subtype="html")
    return message.as_bytes()


def _quoted(report: EmailMessage) -> str:
    return "".join(f"> {line}\n" for line in original_text(report).splitlines())


def quoted_reply(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    return _text(f"{block}\nOn Monday the host wrote:\n{_quoted(report)}", sender, report, when,
                 "8bit")


def bottom_post(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    return _text(f"The host wrote:\n{_quoted(report)}\nMy answer:\n\n{block}\n", sender, report,
                 when, "8bit")


def signature_with_original(block: str, sender: str, report: EmailMessage,
                            when: datetime) -> bytes:
    body = (f"{block}\n-- \n{sender.split('@')[0].title()}\nSent from my phone\n\n"
            f"-----Original Message-----\nFrom: {HOST}\nSubject: {report['Subject']}\n\n"
            f"{original_text(report)}")
    return _text(body, sender, report, when, "8bit")


def inline_forward(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    body = (f"Forwarding my orders from my other account.\n\n---------- Forwarded message "
            f"---------\nFrom: {sender}\nDate: {format_datetime(when)}\nSubject: orders\n"
            f"To: {HOST}\n\n{block}\n")
    message = EmailMessage()
    _headers(message, sender, report, when, subject=f"Fwd: {report['Subject']}")
    message.set_content(body, cte="quoted-printable")
    return message.as_bytes()


def forward_attachment(block: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    inner = EmailMessage()
    _headers(inner, sender, report, when, subject="orders")
    inner.set_content(f"{block}\n")
    message = EmailMessage()
    _headers(message, sender, report, when, subject=f"Fwd: {report['Subject']}")
    message.set_content("See the attached message.\n")
    message.add_attachment(inner)
    return message.as_bytes(policy=policy.SMTP)


STYLES: dict[str, Style] = {
    "plain": plain, "quoted-printable": quoted_printable, "base64": base64_body,
    "format=flowed": flowed, "format=flowed delsp=yes": flowed_delsp,
    "gmail html": gmail_html, "outlook html": outlook_html, "apple mail html": apple_html,
    "multipart/alternative": alternative, "quoted reply": quoted_reply,
    "bottom post": bottom_post, "signature, original below": signature_with_original,
    "inline forward": inline_forward, "forward as attachment": forward_attachment,
}


def chat(text: str, sender: str, report: EmailMessage, when: datetime) -> bytes:
    """A player's mail with no block (a thank-you quoting the report)."""
    return _text(f"{text}\n\n{_quoted(report)}", sender, report, when, "8bit")
