"""Bounded input: no mail, line or block can make the block finder's work grow without limit.

Time budgets live in the benchmark; these tests pin what makes the work bounded: hostile text
at the size cap gives the right answer, a text over the cap is refused before any pattern
runs, and each cap is a one-line BlockError that names the line and the limit.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from pbem.errors import BlockError, ExitCode
from pbem.orders import blockfinder
from pbem.orders.blockfinder import MAX_TEXT_BYTES
from pbem.orders.orderblock import (
    MAX_BLOCK_BYTES,
    MAX_LINE_CHARS,
    MAX_ORDER_LINES,
    find_blocks,
    format_block,
    parse_order_text,
)
from pbem.orders.signatures import PublicKey, parse_public_key
from tests.pbem.test_orderblock import GAME, KEY, PLAYER, SEQ, STATE, found_and_verified, mail, signed_block

PUB_B64 = PublicKey("ed25519", KEY.public_key().public_bytes_raw()).roster_text()
NEAR_CAP = MAX_TEXT_BYTES - 4096  # hostile filler plus one block stays under the cap


# --- the BBCode tag pattern (it was quadratic on a line of unclosed tags) -----------------


def test_a_line_of_unclosed_bbcode_tags_at_the_cap_holds_no_block() -> None:
    assert find_blocks("[b " * (NEAR_CAP // 3)) == []


def test_a_block_after_a_line_of_unclosed_tags_is_found_and_verifies() -> None:
    message = "[quote]" + "[b " * (NEAR_CAP // 3) + "\n[code]\n" + signed_block() + "[/code]\n"
    found_and_verified(message)


@pytest.mark.parametrize("line", ["[b " * 50, "[color=" * 30, "[url=x [b]" * 10, "[b [i] [/b" * 9])
def test_a_bbcode_tag_never_spans_a_bracket(line: str) -> None:
    # Each try reads only up to the next bracket, so a line costs linear work: the outcome
    # of a try never depends on the text after the next "[" or "]".
    pattern = blockfinder._BBCODE_TAG
    for start in (index for index, char in enumerate(line) if char == "["):
        following = [line.find(bracket, start + 1) for bracket in "[]"]
        cut = min((at for at in following if at >= 0), default=len(line) - 1) + 1
        whole, local = pattern.match(line, start), pattern.match(line[:cut], start)
        assert (whole and whole.group()) == (local and local.group())


def test_bbcode_tags_are_still_stripped_around_a_block() -> None:
    block = signed_block().replace("\n", "[/b]\n[b]")
    found_and_verified(f"[size=150][b]orders[/b][/size]\n[code][b]{block}[/b][/code]\n")


# --- the key comment (the `NAME <ADDR>` regex was quadratic) ------------------------------


@pytest.mark.parametrize(
    ("comment", "name", "email"),
    [
        ("Ada Lovelace <ada@example.org>", "Ada Lovelace", "ada@example.org"),
        ("ada@example.org", "ada@example.org", "ada@example.org"),
        ("A <b> <c@d>", "A <b>", "c@d"),
        ("Ada <a>b>", "Ada <a>b>", None),
        ("Ada", "Ada", None),
    ],
)
def test_key_comment_name_and_address(comment: str, name: str, email: str | None) -> None:
    key = parse_public_key(f"{PUB_B64} {comment}")
    assert (key.name, key.email) == (name, email)


def test_a_megabyte_key_comment_is_read_whole() -> None:
    comment = "a" + " " * (MAX_TEXT_BYTES - 20) + "x"
    key = parse_public_key(f"{PUB_B64} {comment} <eve@example.org>")
    assert key.name == comment and key.email == "eve@example.org"
    assert parse_public_key(f"{PUB_B64} {comment}").email is None


# --- caps --------------------------------------------------------------------------------


def test_a_text_over_the_cap_is_refused_before_any_pattern_runs(monkeypatch: Any) -> None:
    class Tripwire:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"a pattern ran on an over-size text ({name})")

    for name, value in vars(blockfinder).items():
        if isinstance(value, re.Pattern):
            monkeypatch.setattr(blockfinder, name, Tripwire())
    monkeypatch.setattr(blockfinder, "_MARKERS", ())
    text = mail(signed_block()) + "x" * MAX_TEXT_BYTES
    with pytest.raises(BlockError, match=f"at most {MAX_TEXT_BYTES} bytes") as error:
        find_blocks(text)
    assert error.value.exit_code == ExitCode.BAD_BLOCK
    with pytest.raises(BlockError, match="1 MB"):
        parse_order_text("\u00e9" * (MAX_TEXT_BYTES // 2 + 1))  # over the cap in UTF-8 only


def test_a_text_just_under_the_cap_is_read() -> None:
    filler = "x" * (MAX_TEXT_BYTES - len(mail(signed_block())) - 1) + "\n"
    found_and_verified(filler + mail(signed_block()))


def test_an_order_line_at_the_cap_is_accepted_and_one_over_is_refused_naming_it() -> None:
    at_cap = "pawn florence # " + "x" * (MAX_LINE_CHARS - 16)
    assert len(at_cap) == MAX_LINE_CHARS
    found_and_verified(mail(signed_block(["buy west 1", at_cap])))
    over = signed_block(["buy west 1", "end"]).replace("end\n", "end #" + "x" * MAX_LINE_CHARS + "\n")
    with pytest.raises(BlockError) as error:
        find_blocks(over)
    assert str(error.value) == (f"line 2 is {MAX_LINE_CHARS + 5} characters long; an order line "
                                f"holds at most {MAX_LINE_CHARS}")


def test_a_long_header_line_is_refused_naming_it() -> None:
    text = signed_block().replace(f"game: {GAME}", "game: " + "g" * MAX_LINE_CHARS)
    with pytest.raises(BlockError, match=rf"^header line 'game: g+\.\.\.' is {MAX_LINE_CHARS + 6} "
                                         rf"characters long; a line holds at most {MAX_LINE_CHARS}$"):
        find_blocks(text)


def test_order_lines_past_the_cap_are_refused_naming_the_first_one_over() -> None:
    lines = ["# my plan", *(f"pawn city{n}" for n in range(MAX_ORDER_LINES)), ""]
    found_and_verified(signed_block(lines))  # blank and comment lines do not count
    with pytest.raises(BlockError) as error:
        find_blocks(signed_block([*lines, "end"]))
    assert str(error.value) == (f"line {MAX_ORDER_LINES + 3}: a block holds at most "
                                f"{MAX_ORDER_LINES} order lines; send the rest in another block")


def test_a_block_over_the_byte_cap_is_refused() -> None:
    comments = ["# " + "c" * (MAX_LINE_CHARS - 2)] * (MAX_BLOCK_BYTES // MAX_LINE_CHARS)
    with pytest.raises(BlockError, match=rf"a block holds at most {MAX_BLOCK_BYTES} bytes \(64 kB\)$"):
        find_blocks(signed_block(["end", *comments]))
    with pytest.raises(BlockError, match="64 kB"):
        parse_order_text("\n".join(["end", *comments]))  # an unarmored order file too


def test_signing_refuses_what_a_reader_would_refuse() -> None:
    signature = "ed25519 " + "A" * 86 + "=="
    with pytest.raises(BlockError, match=f"line 1 is {MAX_LINE_CHARS + 1} characters long"):
        format_block(GAME, PLAYER, SEQ, STATE, ["x" * (MAX_LINE_CHARS + 1)], signature)
    with pytest.raises(BlockError, match=f"at most {MAX_ORDER_LINES} order lines"):
        format_block(GAME, PLAYER, SEQ, STATE, ["end"] * (MAX_ORDER_LINES + 1), signature)
