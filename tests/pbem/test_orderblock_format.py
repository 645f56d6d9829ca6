"""Order blocks: the unsigned order-file forms, canonical lines and payloads, and formatting
blocks (orders.md section 1)."""

from __future__ import annotations

import pytest

from pbem.errors import BlockError
from pbem.orders.orderblock import (
    BEGIN,
    END,
    SIG,
    canonical_line,
    canonical_payload,
    find_blocks,
    format_block,
    parse_order_text,
)
from pbem.orders.signatures import sign
from tests.pbem.test_orderblock import (
    KEY,
    mail,
    signed_block,
)


def test_parse_order_text_forms() -> None:
    full = parse_order_text(
        "game: lisbon-2027\r\nplayer: medici\r\nseq: 17\r\nstate: 9c1f\r\n\r\n# plan\r\nbuy x\r\n"
    )
    assert (full.seq, full.signature, [line.number for line in full.lines]) == (17, None, [2])
    body_only = parse_order_text("\nbuy west 2   # cheap\n\nend\n")
    assert body_only.game is None
    assert [(line.number, line.text) for line in body_only.lines] == [(2, "buy west 2"), (4, "end")]
    assert parse_order_text(mail(signed_block())) == find_blocks(signed_block())[0]
    with pytest.raises(BlockError, match="'colour: red' has unknown key"):
        parse_order_text("game: g\ncolour: red\n\nend\n")


def test_canonical_line() -> None:
    assert (
        canonical_line("  Buy\t\u201cJacques  C\u0153ur\u201d  # comment") == 'buy "jacques cœur"'
    )
    assert canonical_line("\u00abPlay\u00bb \u2018x\u2019\xa0\u2003y\u200b") == "\"play\" 'x' y"
    assert canonical_line("ＢＵＹ ｗｅｓｔ ２") == "buy west 2"
    assert canonical_line("# only a comment") == ""


def test_canonical_payload_bytes() -> None:
    payload = canonical_payload(" Lisbon-2027 ", "Medici", 17, "9C1F", ["Buy  X", "", "# c", "end"])
    assert payload == (
        b"pbem-orders-v1\ngame: lisbon-2027\nplayer: medici\nseq: 17\nstate: 9c1f\n\nbuy x\nend\n"
    )


def test_format_block_text() -> None:
    signature = sign(KEY, b"x")
    wrapped = signature[:20] + "\n  " + signature[20:]
    text = format_block("g", "p", 3, "ab", ["buy x  ", "", "end"], wrapped)
    head = f"{BEGIN}\ngame: g\nplayer: p\nseq: 3\nstate: ab\n\n"
    assert text == f"{head}buy x\n\nend\n{SIG}\n{signature}\n{END}\n"


@pytest.mark.parametrize(
    ("lines", "signature", "error"),
    [
        (["buy x\nend"], None, "line 1"),
        ([END], None, "line 1"),
        (["x"], "ed25519 AAAA", "64 bytes"),
    ],
)
def test_format_block_refuses_what_would_not_read_back(
    lines: list[str], signature: str | None, error: str
) -> None:
    with pytest.raises(BlockError, match=error):
        format_block("g", "p", 1, "ab", lines, signature or sign(KEY, b"x"))
    with pytest.raises(BlockError, match="game"):
        format_block("g\nseq: 2", "p", 1, "ab", ["x"], sign(KEY, b"x"))
