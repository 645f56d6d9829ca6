"""A saved mail (`pbem apply mail.eml`) whose text part is `Content-Transfer-Encoding: base64`:
the block finder decodes it, as it decodes quoted-printable, as `inbox` does."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage

from pbem.orders.base64parts import decode_base64_parts
from pbem.orders.orderblock import find_blocks
from tests.pbem.test_orderblock import found_and_verified, signed_block, smart_quotes


def saved_mail(body: str, *, html: bool = False, charset: str = "utf-8") -> str:
    message = EmailMessage(policy=policy.SMTP)
    message["From"] = "Ada <ada@example.org>"
    message["Subject"] = "Re: lisbon-2027, seq 17"
    message.set_content(body, charset=charset, cte="base64")
    if html:
        message.add_alternative(f"<html><body><pre>{body}</pre></body></html>", subtype="html",
                                cte="base64")
    return message.as_string()


def test_a_base64_text_part_is_decoded() -> None:
    raw = saved_mail(f"Hi,\n\n{smart_quotes(signed_block())}\n-- \nAda \u00e9\n")
    assert "BEGIN PBEM" not in raw  # only the decoded reading holds the block
    assert found_and_verified(raw).lines[0].text == "buy \u201cJacques Coeur\u201d"


def test_a_multipart_mail_with_base64_plain_and_html_parts() -> None:
    raw = saved_mail(f"orders:\n{signed_block()}", html=True)
    found_and_verified(raw)


def test_the_declared_charset_is_used() -> None:
    raw = saved_mail(f"Gr\u00fc\u00dfe\n{signed_block()}", charset="iso-8859-1")
    decoded = decode_base64_parts(raw.replace("\r\n", "\n"))
    assert "Gr\u00fc\u00dfe" in decoded
    found_and_verified(raw)


def test_a_base64_attachment_that_is_not_text_is_left_alone() -> None:
    message = EmailMessage(policy=policy.SMTP)
    message.set_content(f"orders:\n{signed_block()}")  # plain 7bit
    message.add_attachment(b"BEGIN PBEM ORDERS \x00\xff" * 20, maintype="image", subtype="png")
    raw = message.as_string().replace("\r\n", "\n")
    assert decode_base64_parts(raw) == raw
    found_and_verified(raw)


def test_text_that_only_mentions_base64_is_read_as_it_is() -> None:
    text = f"Content-Transfer-Encoding: base64\n\nnot base64 at all!\n{signed_block()}"
    assert decode_base64_parts(text) == text
    found_and_verified(text)
    assert find_blocks("Content-Transfer-Encoding: base64\n\nQUFB\n") == []
