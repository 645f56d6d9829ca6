"""Mail carries the HTML report (issue 16): multipart/alternative with the text part as before
and the HTML page second, and a block copied out of the HTML part still signs and applies."""

from __future__ import annotations

from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from pbem import api
from pbem.delivery import mail, queue, transport
from pbem.orders.orderblock import find_blocks
from pbem.orders.signing import sign_orders
from pbem.pipeline.opening import open_game
from pbem.views.model import report_model
from pbem.views.report import render
from tests.board.pages import pre_texts
from tests.pbem.test_mail_helpers import acting, key_of, make_game, settings_for

NOW = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)


def sent(game: Path, outbox: Path) -> dict[str, EmailMessage]:
    queue.send_reports(game, transport.Outbox(outbox), settings_for(25), NOW)
    messages = {}
    for path in sorted(outbox.glob("*.eml")):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        assert isinstance(message, EmailMessage)
        messages[str(message["X-Pbem-For"])] = message
    return messages


def part(message: EmailMessage, subtype: str) -> str:
    body = message.get_body((subtype,))
    assert body is not None, f"no text/{subtype} part"
    return str(body.get_content())


def test_the_text_part_is_unchanged_and_the_html_part_is_the_report_page(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    messages = sent(game, tmp_path / "out")
    opened = open_game(game, head_only=False)
    for reader, message in messages.items():
        assert [p.get_content_type() for p in message.iter_parts()] == ["text/plain", "text/html"]
        text, page = part(message, "plain").replace("\r\n", "\n"), part(message, "html")
        report = render(report_model(opened, None if reader == "public" else reader), "text")
        assert report in text  # the text report as it always was, below the greeting
        assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "<script" not in page
        greeting = "<p>Hello,</p>" if reader == "public" else "<p>Hello "
        assert greeting in page and ("It is your move" in page) == (reader == acting(game))


def test_a_block_copied_from_the_html_part_signs_and_applies(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    mover = acting(game)
    page = part(sent(game, tmp_path / "out")[mover], "html")
    copied = pre_texts(page)  # what selecting the <pre> and copying gives
    line = copied["legal-lines"].splitlines()[0]
    assert line in api.legal_lines(open_game(game).gf)["lines"]
    filled = copied["block"].replace(next(x for x in copied["block"].splitlines() if x.startswith("#")), line)
    signed = sign_orders(filled + "\n", key_of(game, mover), None)  # the header as copied
    (block,) = find_blocks(signed)
    assert (block.player, block.seq) == (mover, 0)
    before = open_game(game).gf.seq
    api.apply_block(game, signed)
    assert open_game(game).gf.seq > before


def test_a_mail_without_a_report_has_a_small_html_part(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    opened = open_game(game, head_only=False)
    book = mail.Book.load(game)
    message = mail.compose(opened, "medici", kind="notice", subject="s", intro=["A <b>note</b>."],
                           settings=settings_for(25), book=book, now=NOW, report=False)
    assert message is not None
    page = part(message, "html")
    assert page.startswith("<!DOCTYPE html>") and "<svg" not in page
    assert "A &lt;b&gt;note&lt;/b&gt;." in page and "A <b>note</b>." in part(message, "plain")
