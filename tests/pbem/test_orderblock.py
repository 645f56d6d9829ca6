"""Order blocks: canonical form, parsing, and finding signed blocks after transport damage.

Each mangling test builds a really signed block, damages it the way a transport would, finds
it again and checks that the signature still holds (orders.md §1).
"""

from __future__ import annotations

import html
import quopri
import random
import re
from collections.abc import Callable, Sequence

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import BlockError, SignatureError
from pbem.orders.orderblock import (
    BEGIN,
    END,
    SIG,
    OrderBlock,
    OrderLine,
    canonical_payload,
    find_blocks,
    format_block,
    parse_order_text,
)
from pbem.orders.signatures import PublicKey, sign, sshsig_armor, verify

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
PUB = PublicKey("ed25519", KEY.public_key().public_bytes_raw())
GAME, PLAYER, SEQ, STATE = "lisbon-2027", "medici", 17, "9c1f2a7b3d4e5f60"
ORDERS = (
    'buy "Jacques Coeur"        # a comment runs to the end of the line',
    "play jacques coeur",
    "",
    "pawn florence",
    "end",
)
CANONICAL = ['buy "jacques coeur"', "play jacques coeur", "pawn florence", "end"]


def signed_block(lines: Sequence[str] = ORDERS, *, ssh: bool = False, seq: int = SEQ) -> str:
    payload = canonical_payload(GAME, PLAYER, seq, STATE, lines)
    signature = sshsig_armor(KEY, payload) if ssh else sign(KEY, payload)
    return format_block(GAME, PLAYER, seq, STATE, lines, signature)


def mail(block: str) -> str:
    return f"Hi all,\n\nhere are my orders for this turn:\n\n{block}\n-- \nAda\n"


def found_and_verified(message: str, flowed: bool | None = None) -> OrderBlock:
    blocks = find_blocks(message, flowed=flowed)
    assert len(blocks) == 1
    verify(PUB, blocks[0].payload(), blocks[0].signature or "")
    assert (blocks[0].game, blocks[0].player, blocks[0].seq) == (GAME, PLAYER, SEQ)
    return blocks[0]


# Transport manglers: each returns what a mail client, forum or editor makes of the text.


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def lone_cr(text: str) -> str:
    return text.replace("\n", "\r")


def quoted_printable(text: str) -> str:
    return quopri.encodestring(text.encode("utf-8")).decode("ascii")


def flowed(text: str, width: int = 72) -> str:
    """RFC 3676 format=flowed: soft breaks end in a space; space-stuffing; quote kept."""
    out = []
    for line in text.split("\n"):
        prefix = re.match(r"(?:> ?)*", line)
        assert prefix is not None
        content = line[prefix.end() :].rstrip(" ")  # hard breaks carry no trailing space
        room = max(width - prefix.end() - 1, 10)
        pieces = []
        while len(content) > room:
            cut = content.rfind(" ", 1, room)
            cut = cut if cut > 0 else content.find(" ", room)
            if cut < 0:
                break
            pieces.append(content[: cut + 1])
            content = content[cut + 1 :]
        for piece in [*pieces, content]:
            stuffed = " " if piece.startswith((" ", "From ", ">")) else ""
            out.append(prefix.group() + stuffed + piece)
    return "\n".join(out)


def quote(text: str, compact: bool = True) -> str:
    """A reply's quoting: `> x`, then `>> x` (compact) or `> > x`; blank lines become `>`."""

    def mark(line: str) -> str:
        return (">" if compact and line.startswith(">") else "> ") + line if line else ">"

    return "\n".join(map(mark, text.split("\n")))


def _esc(line: str) -> str:
    line = html.escape(line).replace("\u201c", "&#8220;").replace("\u201d", "&#8221;")
    line = line.replace("\xa0", "&nbsp;")
    return re.sub(r"^ +", lambda match: "&nbsp;" * len(match.group()), line)


def html_divs(text: str) -> str:
    # Editors write an empty line as <br> (or &nbsp;): an empty <div> would take no room.
    rows = "".join(
        f"<div>{_esc(line) if line.strip() else '<br>'}</div>" for line in text.split("\n")
    )
    return f'<div dir="ltr">{rows}</div>\n'


def html_br(text: str) -> str:
    body = "<br>\n".join(_esc(line) for line in text.split("\n"))
    return f"<html><head><style>p {{margin: 0}}</style></head><body><p>{body}</p></body></html>"


def html_pre(text: str) -> str:
    return f"<p>My orders:</p>\n<pre>{_esc(text)}</pre>\n<p>Cheers</p>"


def html_outlook(text: str) -> str:
    rows = (
        f"<p class=MsoNormal>{_esc(line) if line.strip() else '&nbsp;'}<o:p></o:p></p>"
        for line in text.split("\n")
    )
    return "<html><body lang=EN-GB>\n" + "\n".join(rows) + "\n</body></html>"


def fence(text: str, marker: str = "```", language: str = "text") -> str:
    return f"{marker}{language}\n{text}\n{marker}\n"


def bbcode(text: str) -> str:
    return f'[quote="Ada"]My orders:\n[code]{text}[/code][/quote]\n'


def bbcode_bold(text: str) -> str:
    return re.sub(r"^(play .*)$", r"[b]\1[/b]", text, flags=re.MULTILINE)


def wrap_signature(text: str, width: int = 20) -> str:
    def rewrap(match: re.Match[str]) -> str:
        encoded = match.group(1)
        return "ed25519\n" + "\n".join(
            encoded[i : i + width] for i in range(0, len(encoded), width)
        )

    return re.sub(r"^ed25519 (\S+)$", rewrap, text, flags=re.MULTILINE)


def messy_whitespace(text: str, rng: random.Random) -> str:
    """Indents, trailing blanks, tabs, doubled and non-breaking spaces."""
    out = []
    for line in text.split("\n"):
        line = rng.choice(["", " ", "  ", "\t", "\xa0"]) + line
        if line.strip() and not line.strip().startswith(("-----", "ed25519")):
            line = re.sub(" ", lambda _: rng.choice([" ", "  ", " \t", "\xa0 ", " \xa0"]), line)
        # Unless the signature settles it, a trailing space on a long line (one that with the
        # next word passes 60 columns) reads as a format=flowed soft break, by design.
        line += rng.choice([" ", "  ", "\t", "\xa0"]) if len(line) < 30 else rng.choice(["\t", ""])
        out.append(line)
    return "\n".join(out)


def smart_quotes(text: str) -> str:
    text = re.sub(r'"([^"\n]*)"', "\u201c\\1\u201d", text)
    return text.replace("'", "\u2019")


# Finding blocks after each kind of damage.


def test_clean_block_reads_back_with_numbers_and_verifies() -> None:
    block = found_and_verified(mail(signed_block()))
    assert block.state == STATE
    assert [line.number for line in block.lines] == [1, 2, 4, 5]
    assert [line.canonical for line in block.lines] == CANONICAL
    assert block.lines[0] == OrderLine(1, 'buy "Jacques Coeur"', 'buy "jacques coeur"')
    assert block.text == signed_block()
    assert find_blocks(block.text) == [block]


@pytest.mark.parametrize("mangle", [crlf, lone_cr], ids=["crlf", "cr"])
def test_line_ends(mangle: Callable[[str], str]) -> None:
    block = found_and_verified(mangle(mail(signed_block())))
    assert "\r" not in block.text


def test_quoted_printable_with_utf8_escapes_and_soft_breaks() -> None:
    message = quoted_printable(mail(smart_quotes(signed_block())))
    assert "=E2=80=9C" in message and "=3D=3D" in message and "=\n" in message
    assert found_and_verified(message).lines[0].text == "buy \u201cJacques Coeur\u201d"


def test_plain_text_that_looks_quoted_printable_keeps_its_padding() -> None:
    lines = [*ORDERS[:2], "pawn florence  # costs =20 florins, x=3D"]
    message = f"a=20b soft=\n{signed_block(lines)}"
    assert found_and_verified(message).lines[-1].text == "pawn florence"


def test_format_flowed_soft_breaks_and_space_stuffing() -> None:
    lines = [
        "pawn florence # " + "a long comment that a mail client wraps " * 3,
        "From here: play jacques coeur",
        " >indented",
        "end",
    ]
    message = flowed(quote(mail(signed_block(lines))), width=66)
    assert "\n> > From here" not in message and "\n>  From here" in message
    block = found_and_verified(message)
    assert [line.canonical for line in block.lines] == [
        "pawn florence",
        "from here: play jacques coeur",
        ">indented",
        "end",
    ]


def test_flowed_can_be_declared_by_the_caller() -> None:
    payload = canonical_payload(GAME, PLAYER, SEQ, STATE, ["pawn florence"])
    block = format_block(GAME, PLAYER, SEQ, STATE, ["pawn florence"], sign(KEY, payload))
    message = block.replace("pawn florence", "pawn \nflorence")  # too short for the guess
    verify(PUB, found_and_verified(message, flowed=True).payload(), sign(KEY, payload))
    assert [line.text for line in find_blocks(message)[0].lines] == ["pawn", "florence"]


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("compact", [True, False], ids=["compact", "spaced"])
def test_reply_quoting_any_depth(depth: int, compact: bool) -> None:
    message = mail(signed_block())
    for _ in range(depth):
        message = quote(message, compact)
    assert (">" * depth + " " if compact else "> " * depth) + BEGIN in message
    assert found_and_verified(message).lines[3].canonical == "end"


@pytest.mark.parametrize("render", [html_divs, html_br, html_pre, html_outlook])
def test_html_mail(render: Callable[[str], str]) -> None:
    message = render(smart_quotes(quote(mail(signed_block()))))
    assert "<" in message and ("&quot;" in message or "&#8220;" in message)
    block = found_and_verified(message)
    assert [line.canonical for line in block.lines] == CANONICAL


@pytest.mark.parametrize(("marker", "language"), [("```", ""), ("```", "text"), ("~~~", "")])
def test_markdown_code_fence(marker: str, language: str) -> None:
    message = "Orders below.\n\n" + fence(signed_block(), marker, language)
    assert found_and_verified(message).lines[1].text == "play jacques coeur"


def test_bbcode_code_quote_and_inline_tags() -> None:
    message = bbcode(bbcode_bold(signed_block()))
    assert "[b]play jacques coeur[/b]" in message
    assert found_and_verified(message).lines[1].text == "play jacques coeur"


def test_signature_wrapped_over_several_lines() -> None:
    message = wrap_signature(mail(signed_block()), width=16)
    assert message.count("\n") > mail(signed_block()).count("\n") + 4
    assert (
        found_and_verified(message).signature == found_and_verified(mail(signed_block())).signature
    )


def test_whitespace_tabs_nbsp_and_smart_quotes() -> None:
    message = messy_whitespace(smart_quotes(mail(signed_block())), random.Random(7))
    assert "\t" in message and "\xa0" in message and "\u201c" in message
    assert [line.canonical for line in found_and_verified(message).lines] == CANONICAL


def test_markers_with_typographic_dashes() -> None:
    message = signed_block().replace("-----", "\u2014\u2013-")
    assert found_and_verified(message).text == signed_block()


def test_ssh_signature_survives_quoting_qp_and_crlf() -> None:
    message = crlf(quoted_printable(quote(mail(signed_block(ssh=True)))))
    block = found_and_verified(message)
    assert block.signature is not None and block.signature.startswith("-----BEGIN SSH SIGNATURE")


def test_quoted_old_block_in_a_reply_is_found_after_the_new_one() -> None:
    old = mail(signed_block(["pawn florence"], seq=16))
    message = signed_block() + "\nOn Monday, Ada <ada@example.org> wrote:\n" + quote(old)
    blocks = find_blocks(html_divs(message))
    assert [block.seq for block in blocks] == [17, 16]
    for block in blocks:
        verify(PUB, block.payload(), block.signature or "")


def test_changing_the_meaning_breaks_the_signature() -> None:
    message = quote(mail(signed_block())).replace("pawn florence", "pawn venice")
    block = find_blocks(message)[0]
    with pytest.raises(SignatureError):
        verify(PUB, block.payload(), block.signature or "")


def test_text_without_blocks_or_with_markers_in_prose() -> None:
    assert find_blocks("") == []
    assert find_blocks("Hello,\nnothing to see\n") == []
    assert find_blocks(f"Put your orders between {BEGIN} and {END}.") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{BEGIN}\ngame: g\n", "has no '-----END PBEM ORDERS-----' line"),
        (f"{END}\n", "without a '-----BEGIN PBEM ORDERS-----' line"),
        (f"{BEGIN}\n{BEGIN}\n{END}\n", "second"),
        (f"{BEGIN}\ngame: g\n{SIG}\n{SIG}\n{END}\n", "two"),
        (f"{BEGIN}\ngame: g\nseq: x\n\nend\n{END}\n", "seq must be a whole number"),
        (f"{BEGIN}\ngame: g\ncolour: red\n\nend\n{END}\n", "unknown key 'colour'"),
        (f"{BEGIN}\ngame: g\nplayer medici\n\nend\n{END}\n", "'player medici' is not 'key: value'"),
        (f"{BEGIN}\ngame: g\nGame: h\n\nend\n{END}\n", "repeats 'game:'"),
        (f"{BEGIN}\ngame:\n\nend\n{END}\n", "has no value"),
        (f"{BEGIN}\ngame: g\n\nend\n{SIG}\n\n{END}\n", "no signature"),
        (f"{BEGIN}\ngame: g\n\nend\n{SIG}\ned25519 !!notbase64\n{END}\n", "not valid base64"),
        (f"{BEGIN}\ngame: g\n\nend\n{SIG}\ned25519 AAAA\n{END}\n", "64 bytes, not 3"),
        (f"{BEGIN}\ngame: g\n\nend\n{SIG}\nrsa AAAA\n{END}\n", "must be 'ed25519 <base64>'"),
    ],
)
def test_malformed_blocks_are_block_errors_with_one_line(text: str, message: str) -> None:
    with pytest.raises(BlockError) as caught:
        find_blocks(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_unsigned_armored_block_and_missing_header() -> None:
    block = find_blocks(f"{BEGIN}\ngame: g\nplayer: p\n\nend\n{END}\n")[0]
    assert block.signature is None and block.seq is None
    with pytest.raises(BlockError, match="no 'seq:', 'state:' header line"):
        block.payload()


def test_header_without_blank_line_is_the_leading_key_value_lines() -> None:
    block = parse_order_text("Game: G\nPLAYER: Medici\nseq: 3\nstate: AB\nbuy west 2\nend\n")
    assert (block.game, block.player, block.seq, block.state) == ("g", "medici", 3, "ab")
    assert [(line.number, line.text) for line in block.lines] == [(1, "buy west 2"), (2, "end")]
