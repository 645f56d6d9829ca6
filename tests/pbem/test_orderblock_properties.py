"""Properties of block finding: only BlockError on any input; signatures survive manglings.
(Finding on any text tries 100 examples under `make test`, 200 under `make test-long`:
tests/scale.py.)"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

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
from pbem.orders.signatures import sign, sshsig_armor, verify
from tests import scale
from tests.pbem.test_orderblock import (
    GAME,
    KEY,
    PLAYER,
    PUB,
    SEQ,
    STATE,
    bbcode,
    bbcode_bold,
    crlf,
    fence,
    flowed,
    html_br,
    html_divs,
    html_outlook,
    html_pre,
    lone_cr,
    messy_whitespace,
    quote,
    quoted_printable,
    smart_quotes,
    wrap_signature,
)

FRAGMENTS = [
    BEGIN,
    SIG,
    END,
    "\n",
    "\r\n",
    "\r",
    "> ",
    ">",
    "=",
    "==",
    "=3D",
    "=\n",
    "=E2=80=9C",
    "=FF",
    "<br>",
    "<pre>",
    "</pre>",
    "<div>",
    "<p>",
    "<head>",
    "<!--",
    "<![CDATA[",
    "&quot;",
    "&#8220;",
    "&#99999999;",
    "&nbsp;",
    "[code]",
    "[/code]",
    '[quote="x"]',
    "[b]",
    "```",
    "~~~",
    "ed25519 ",
    "AAAA==",
    sign(KEY, b"x"),
    "-----BEGIN SSH SIGNATURE-----",
    "-----END SSH SIGNATURE-----",
    "U1NIU0lH",
    "game: g",
    "player: p",
    "seq: 1",
    "seq: x",
    "seq: " + "9" * 30,
    "state: s",
    "colour: red",
    "#",
    "\xa0",
    "\u201c",
    "\u2014\u2014",
]
messages = st.lists(st.one_of(st.text(max_size=20), st.sampled_from(FRAGMENTS)), max_size=40).map(
    "".join
)

# Order lines as players write them. `<`, `[`, `&` and `=` are left out: the language never
# uses them, and a finder that guesses HTML, BBCode or quoted-printable may read them so.
ORDER_ALPHABET = st.characters(
    codec="utf-8",
    categories=("L", "N", "Zs", "P", "S"),
    exclude_characters="<>[]&=`~ \u2028\u2029",
)
order_lines = st.one_of(
    st.sampled_from(
        [
            "buy west 2",
            'play "Jacques Coeur"',
            "play jacques coeur  # the comment runs on",
            "no oneshot",
            "pawn alexandria",
            "op PREN021 tax france-hre",
            "sell Cœur",
            "kill knight paris",
            "",
            "# only a comment",
            "From here on: end",
        ]
    ),
    # Words of at most 10 characters, like the order language's: see messy_whitespace.
    st.lists(st.text(ORDER_ALPHABET, min_size=1, max_size=10), max_size=4).map(
        lambda words: " ".join(words).replace("#", " ")
    ),
)
long_comment = st.text(st.sampled_from("abcdefgh éœ"), min_size=60, max_size=120)


@settings(max_examples=scale.count(100, 200), deadline=None)
@given(messages)
def test_finding_raises_only_block_errors(text: str) -> None:
    for read in (find_blocks, parse_order_text):
        try:
            read(text)
        except BlockError as error:
            assert str(error) and "\n" not in str(error)
    assert "\n" not in canonical_line(text) and "#" not in canonical_line(text)


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_canonical_line_is_idempotent(text: str) -> None:
    once = canonical_line(text)
    assert canonical_line(once) == once
    assert once == once.strip() and "  " not in once and once == once.lower()


@settings(max_examples=200, deadline=None)
@given(st.lists(order_lines, max_size=8), st.integers(0, 10**6))
def test_format_then_find_gives_the_signed_payload(lines: list[str], seq: int) -> None:
    payload = canonical_payload(GAME, PLAYER, seq, STATE, lines)
    text = format_block(GAME, PLAYER, seq, STATE, lines, sign(KEY, payload))
    (block,) = find_blocks(text)
    assert block.payload() == payload and block.text == text
    verify(PUB, block.payload(), block.signature or "")
    assert find_blocks(block.text) == [block]


LINE_MANGLERS = ("whitespace", "smart_quotes", "wrap_signature", "bbcode_bold")
HTML_RENDERINGS = {"divs": html_divs, "br": html_br, "pre": html_pre, "outlook": html_outlook}


@settings(max_examples=200, deadline=None)
@given(
    lines=st.lists(order_lines, min_size=1, max_size=6),
    comment=st.none() | long_comment,
    ssh=st.booleans(),
    line_manglers=st.lists(st.sampled_from(LINE_MANGLERS), unique=True).flatmap(st.permutations),
    wrapper=st.sampled_from([None, "fence", "bbcode"]),
    quotes=st.lists(st.booleans(), max_size=3),
    rendering=st.sampled_from([None, *HTML_RENDERINGS]),
    flow_width=st.none() | st.integers(66, 78),
    encode_qp=st.booleans(),
    line_end=st.sampled_from(["lf", "crlf", "cr"]),
    seed=st.integers(0, 2**32),
)
def test_signature_survives_composed_manglings(
    lines: list[str],
    comment: str | None,
    ssh: bool,
    line_manglers: list[str],
    wrapper: str | None,
    quotes: list[bool],
    rendering: str | None,
    flow_width: int | None,
    encode_qp: bool,
    line_end: str,
    seed: int,
) -> None:
    if comment is not None:
        lines = [*lines, f"end # {comment}"]
    payload = canonical_payload(GAME, PLAYER, SEQ, STATE, lines)
    signature = sshsig_armor(KEY, payload) if ssh else sign(KEY, payload)
    message = format_block(GAME, PLAYER, SEQ, STATE, lines, signature)
    # Content first (what the player's editor and the reply do), then the transport.
    for name in line_manglers:
        if name == "whitespace":
            message = messy_whitespace(message, random.Random(seed))
        elif name == "smart_quotes":
            message = smart_quotes(message)
        elif name == "wrap_signature":
            message = wrap_signature(message, 10 + seed % 60)
        else:
            message = bbcode_bold(message)
    if wrapper == "fence":
        message = fence(message, "~~~" if seed % 2 else "```")
    elif wrapper == "bbcode":
        message = bbcode(message)
    message = f"Hi all,\n\nmy orders:\n\n{message}\n-- \nAda\n"
    for compact in quotes:
        message = quote(message, compact)
    if rendering is not None:
        message = HTML_RENDERINGS[rendering](message)
    elif flow_width is not None:  # HTML parts are never format=flowed
        message = flowed(message, flow_width)
    if encode_qp:
        message = quoted_printable(message)
    message = (
        crlf(message) if line_end == "crlf" else lone_cr(message) if line_end == "cr" else message
    )

    (block,) = find_blocks(message)
    assert (block.game, block.player, block.seq, block.state) == (GAME, PLAYER, SEQ, STATE)
    verify(PUB, block.payload(), block.signature or "")
    assert block.payload() == payload
