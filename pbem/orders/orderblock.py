"""Order blocks: find them in any text, parse header and lines, build the signed payload.

The contract is orders.md §1. Transport damage is undone by `pbem.orders.blockfinder`; this module
gives the lines their meaning. The signature covers the canonical payload, not the text, so
it survives whatever mail clients and forums do to whitespace, quotes and wrapping.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import cached_property, lru_cache
from types import MappingProxyType

from engine.core.errors import Verbatim
from engine.core.records import dataclass_on_first_use
from pbem.errors import BlockError, SignatureError
from pbem.orders import blockfinder
from pbem.orders.blockfinder import BEGIN, END, SIG, RawBlock
from pbem.orders.signatures import ONE_LINE, SSH_BEGIN, normalize_signature

__all__ = [
    "BEGIN",
    "END",
    "HEADER_KEYS",
    "MAX_BLOCK_BYTES",
    "MAX_LINE_CHARS",
    "MAX_ORDER_LINES",
    "PAYLOAD_VERSION",
    "SIG",
    "OrderBlock",
    "OrderLine",
    "canonical_line",
    "canonical_payload",
    "find_blocks",
    "format_block",
    "parse_order_text",
]

PAYLOAD_VERSION = "pbem-orders-v1"
HEADER_KEYS = ("game", "player", "seq", "state")
# Bounds on one block, so that no block makes the host's work grow without limit.
MAX_LINE_CHARS = 500  # one line, header or order, comment included
MAX_ORDER_LINES = 200  # order lines in a block (blank and comment lines not counted)
MAX_BLOCK_BYTES = 64 * 1024  # the whole block in UTF-8, armor and signature included

_SINGLE_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u2035\u2039\u203a\u02bc\uff07"
_DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033\u2036\u301d\u301e\u301f"
_QUOTES: Mapping[int, str | None] = MappingProxyType(
    {
        **dict.fromkeys(map(ord, _SINGLE_QUOTES), "'"),
        **dict.fromkeys(map(ord, _DOUBLE_QUOTES), '"'),
        **blockfinder.INVISIBLE,
    }
)
_HEADER = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)", re.DOTALL)
_SEQ = re.compile(r"[0-9]{1,18}")  # int() of thousands of digits is slow and refused


@dataclass_on_first_use(frozen=True)
class OrderLine:
    number: int  # 1-based line number in the body; blank and comment lines count too
    text: str  # the line as written, comment and outer whitespace stripped
    canonical: str  # canonical_line(text)


@dataclass_on_first_use(frozen=True)
class OrderBlock:
    game: str | None
    player: str | None
    seq: int | None
    state: str | None
    lines: tuple[OrderLine, ...]
    signature: str | None  # "ed25519 <b64>" or an armored SSH signature; None if unsigned
    text: str  # the block as found after unmangling, LF line ends

    def payload(self) -> bytes:
        """The bytes the signature covers; BlockError if a header line is missing."""
        return self._payload

    @cached_property
    def _payload(self) -> bytes:
        """Built once per block (a frozen block: verify reads it for the payload hash and
        again for the signature)."""
        game, player, seq, state = self.game, self.player, self.seq, self.state
        if game is None or player is None or seq is None or state is None:
            missing = [key for key in HEADER_KEYS if getattr(self, key) is None]
            listed = ", ".join(f"'{key}:'" for key in missing)
            raise BlockError.keyed("reason:pbem.no_header", keys=Verbatim(listed))
        return canonical_payload(game, player, seq, state, [line.text for line in self.lines])


@lru_cache(maxsize=8192)
def canonical_line(text: str) -> str:
    """Lowercase, NFKC, ASCII quotes and spaces, one space between words, no comment.
    Cached: a game's blocks repeat their game, player and order lines, and each block's header
    and lines are read again for its payload."""
    if text.isascii():  # NFKC and the quote and invisible tables change no ASCII character
        return " ".join(text.split("#", 1)[0].lower().split())
    text = unicodedata.normalize("NFKC", text.translate(_QUOTES)).translate(_QUOTES)
    text = text.split("#", 1)[0]
    # NFKC again: lowercasing can leave a compatibility character behind.
    text = unicodedata.normalize("NFKC", text.lower()).translate(_QUOTES)
    return " ".join(text.split())


def canonical_payload(game: str, player: str, seq: int, state: str, lines: Sequence[str]) -> bytes:
    """Version tag, header in fixed order, blank line, one canonical order line per line."""
    head = (
        f"{PAYLOAD_VERSION}\ngame: {canonical_line(game)}\nplayer: {canonical_line(player)}\n"
        f"seq: {seq}\nstate: {canonical_line(state)}\n\n"
    )
    body = "".join(f"{canonical}\n" for canonical in map(canonical_line, lines) if canonical)
    return (head + body).encode("utf-8")


def parse_order_text(text: str) -> OrderBlock:
    """An order file as a player writes it: optional header, blank line, orders.

    Text holding an armored block is read as that (first) block instead.
    """
    blocks = find_blocks(text)
    if blocks:
        return blocks[0]
    normalized = blockfinder.normalize(text)
    _check_size(normalized.split("\n"))
    return _make_block(normalized.split("\n"), None, normalized)


def find_blocks(text: str, *, flowed: bool | None = None, delsp: bool = False
                ) -> list[OrderBlock]:
    """Every armored block in `text`, in order, after undoing transport damage.

    `flowed` says whether the text is `format=flowed` (from the mail's Content-Type); with
    None, the wrapping of the ed25519 signature line or the line lengths tell. `delsp` is the
    Content-Type's DelSp=yes. BlockError if a block is malformed; [] if there is none.
    """
    if len(text) <= CACHED_TEXT:
        return list(_found(text, flowed, delsp))
    return _find(text, flowed, delsp)


# A text this short (a block, not a whole mail) is parsed once per process: the block an apply
# parses is parsed again by verify's replay, and by every check that reads a stored block.
# Parsing is a pure function of the text, and blocks are frozen.
CACHED_TEXT = 4096


@lru_cache(maxsize=4096)
def _found(text: str, flowed: bool | None, delsp: bool) -> tuple[OrderBlock, ...]:
    return tuple(_find(text, flowed, delsp))


def _find(text: str, flowed: bool | None, delsp: bool) -> list[OrderBlock]:
    if flowed is None:
        own = _own_form(text)
        if own is not None:
            return [own]
    # Each reading of the text is a guess; one whose blocks are all signed and complete wins.
    # Else the likeliest reading decides, unless it found nothing where another did.
    outcomes: list[list[OrderBlock] | BlockError] = []
    for candidate in blockfinder.readings(text):
        try:
            blocks = [_from_raw(raw) for raw in blockfinder.split_blocks(candidate, flowed=flowed,
                                                                         delsp=delsp)]
        except BlockError as error:
            outcomes.append(error)
            continue
        if blocks and all(_is_complete(block) for block in blocks):
            return blocks
        outcomes.append(blocks)
    for outcome in outcomes:
        if outcome:
            if isinstance(outcome, BlockError):
                raise outcome
            return outcome
    return []


# What no reading but the text itself is made for: an HTML tag, a BBCode tag, a MIME part's
# Content-Transfer-Encoding (quoted-printable is tried second: the signature's `==` is no QP).
_OTHER_READINGS = ("<", "[", "ransfer", "\r")


def _own_form(text: str) -> OrderBlock | None:
    """The block of a text exactly as `format_block` writes one signed on one line (what pbem
    stores and self-play sends), read without the transport guesses; None for any other text,
    which the general reading handles. The same block as that reading: its first reading is
    the text itself, its lines hold no marker, and the signature line says it is not flowed
    (tests/pbem/test_block_own_form.py compares the two on damaged blocks)."""
    if not text.isascii() or any(mark in text for mark in _OTHER_READINGS):
        return None
    lines = text.split("\n")
    if len(lines) < 5 or lines[0] != BEGIN or lines[-4:] != [SIG, lines[-3], END, ""] or \
            not ONE_LINE.fullmatch(lines[-3]):
        return None
    head = lines[1:-4]
    if "pbem" in "\n".join(head).lower():  # a line with it could be read as a marker
        return None
    try:
        block = _from_raw(RawBlock(tuple(line.strip() for line in head), (lines[-3],)))
    except BlockError:
        return None  # the general reading says what is wrong, or reads it otherwise
    return block if _is_complete(block) else None


def _is_complete(block: OrderBlock) -> bool:
    fields = (block.game, block.player, block.seq, block.state, block.signature)
    return all(field is not None for field in fields)


def format_block(
    game: str, player: str, seq: int, state: str, lines: Sequence[str], signature: str
) -> str:
    """The armored block: header, blank line, the player's lines, signature, trailing newline."""
    header = {"game": game, "player": player, "seq": str(seq), "state": state}
    for key, value in header.items():
        if "#" in value or not canonical_line(value) or _has_line_break(value):
            raise BlockError(f"{key} {value!r} cannot be written in a block header")
    if seq < 0:
        raise BlockError(f"seq must not be negative, not {seq}")
    body = [line.strip() for line in lines]  # outer whitespace means nothing, as when read
    for number, line in enumerate(body, start=1):
        if _has_line_break(line) or blockfinder.marker_kind(line) is not None:
            raise BlockError(f"line {number}: {_show(line)} cannot be written in a block")
    _check_lines(body)  # what a reader would refuse is never signed
    if signature.strip().upper().startswith(SSH_BEGIN):
        normalize_signature(signature)  # checks it; the armor is kept as given
        sig_text = "\n".join(line.strip() for line in signature.strip().splitlines())
    else:
        sig_text = normalize_signature(signature)
    head = [f"{key}: {value.strip()}" for key, value in header.items()]
    return "\n".join([BEGIN, *head, "", *body, SIG, sig_text, END]) + "\n"


def _from_raw(raw: RawBlock) -> OrderBlock:
    text = "\n".join([BEGIN, *raw.head, SIG, *(raw.signature or ()), END]) + "\n"
    _check_text_size(text)  # the size `_check_size` takes of those lines, in one pass
    if raw.signature is None:
        signature = None
        text = "\n".join([BEGIN, *raw.head, END]) + "\n"
    else:
        if not any(raw.signature):
            raise SignatureError.keyed("reason:pbem.sig_empty", sig=Verbatim(repr(SIG)))
        signature = normalize_signature("\n".join(raw.signature))
    return _make_block(list(raw.head), signature, text)


def _make_block(lines: list[str], signature: str | None, text: str) -> OrderBlock:
    header, body_start = _parse_header(lines)
    for line in lines[:body_start]:
        if len(line.strip()) > MAX_LINE_CHARS:
            raise BlockError.keyed("reason:pbem.header_too_long", line=Verbatim(_show(line)),
                                   length=len(line.strip()), limit=MAX_LINE_CHARS)
    _check_lines(lines[body_start:])
    order_lines = []
    for number, line in enumerate(lines[body_start:], start=1):
        written = line.split("#", 1)[0].strip()
        canonical = canonical_line(written)
        if canonical:
            order_lines.append(OrderLine(number, written, canonical))
    seq = header.get("seq")
    return OrderBlock(
        game=header.get("game"),
        player=header.get("player"),
        seq=None if seq is None else int(seq),
        state=header.get("state"),
        lines=tuple(order_lines),
        signature=signature,
        text=text,
    )


def _parse_header(lines: list[str]) -> tuple[dict[str, str], int]:
    """The header fields and the index of the first body line.

    The header is the `key: value` lines at the top, ended by a blank line. Without that
    blank line the body starts at the first other line, if the block has no blank line at all
    or the header is complete (HTML paragraphs lose blank lines); otherwise that line is most
    likely a broken header line, and is reported as such.
    """
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start == len(lines) or not _HEADER.fullmatch(lines[start].strip()):
        return {}, 0
    header: dict[str, str] = {}
    index = start
    while index < len(lines) and (match := _HEADER.fullmatch(lines[index].strip())):
        key, value = _header_field(lines[index], match)
        if key in header:
            raise BlockError.keyed("reason:pbem.header_repeats",
                                   line=Verbatim(_show(lines[index])), key=Verbatim(key))
        header[key] = value
        index += 1
    if index == len(lines) or not lines[index].strip():
        return header, index + 1
    # Blank lines after the last text (a final newline, say) do not count.
    last = max(number for number, line in enumerate(lines) if line.strip())
    if len(header) == len(HEADER_KEYS) or all(line.strip() for line in lines[index:last]):
        return header, index
    _header_field(lines[index])  # raises: not a header line
    raise AssertionError("unreachable: the line did not match the header pattern")


def _header_field(line: str, match: re.Match[str] | None = None) -> tuple[str, str]:
    """`match`: the line's header match, when the caller has it."""
    match = match or _HEADER.fullmatch(line.strip())
    if match is None:
        raise BlockError.keyed("reason:pbem.header_form", line=Verbatim(_show(line)))
    key, value = match.group(1).lower(), canonical_line(match.group(2))
    if key not in HEADER_KEYS:
        raise BlockError.keyed("reason:pbem.header_key", line=Verbatim(_show(line)),
                               key=Verbatim(repr(key)), keys=Verbatim(", ".join(HEADER_KEYS)))
    if not value:
        raise BlockError.keyed("reason:pbem.header_empty", line=Verbatim(_show(line)))
    if key == "seq" and not _SEQ.fullmatch(value):
        raise BlockError.keyed("reason:pbem.header_seq", line=Verbatim(_show(line)))
    return key, value


def _check_size(lines: Sequence[str]) -> None:
    size = sum(len(line.encode("utf-8", "replace")) + 1 for line in lines)
    if size > MAX_BLOCK_BYTES:
        raise BlockError.keyed("reason:pbem.block_too_big", size=size, limit=MAX_BLOCK_BYTES)


def _check_text_size(text: str) -> None:
    """`_check_size` of the lines `text` joins, each ended by its newline."""
    size = len(text) if text.isascii() else len(text.encode("utf-8", "replace"))
    if size > MAX_BLOCK_BYTES:
        raise BlockError.keyed("reason:pbem.block_too_big", size=size, limit=MAX_BLOCK_BYTES)


def _check_lines(body: Sequence[str]) -> None:
    """BlockError naming the first body line over MAX_LINE_CHARS, or the order line past
    MAX_ORDER_LINES; lines are numbered as OrderLine numbers them."""
    orders = 0
    for number, line in enumerate(body, start=1):
        if len(line.strip()) > MAX_LINE_CHARS:
            raise BlockError.keyed("reason:pbem.line_too_long", number=number,
                                   length=len(line.strip()), limit=MAX_LINE_CHARS)
        if line.split("#", 1)[0].strip():
            orders += 1
            if orders > MAX_ORDER_LINES:
                raise BlockError.keyed("reason:pbem.too_many_lines", number=number,
                                       limit=MAX_ORDER_LINES)


def _has_line_break(text: str) -> bool:
    return any(char in text for char in "\r\n\u2028\u2029")  # what the finder splits on


def _show(line: str) -> str:
    """A line quoted for a one-line message."""
    line = line.strip()
    return repr(line if len(line) <= 60 else line[:57] + "...")
