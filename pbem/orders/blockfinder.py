"""Find armored order blocks in mail or forum text and undo transport damage (orders.md §1).

This module knows about transports (line ends, quoted-printable, HTML, BBCode, `> ` quoting,
format=flowed), not about what a block means; `pbem.orders.orderblock` parses what it returns.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from engine.core.errors import Verbatim
from engine.core.records import dataclass_on_first_use
from pbem.errors import BlockError

# What the finder reads at most (orders.md §1): a longer text is refused before any regex
# runs, so no mail can keep the host busy.
MAX_TEXT_BYTES = 1 << 20  # 1 MB

BEGIN = "-----BEGIN PBEM ORDERS-----"
SIG = "-----BEGIN PBEM SIGNATURE-----"
END = "-----END PBEM ORDERS-----"

# Word processors and some mail clients turn "--" into en or em dashes.
_DASHES = "[" + re.escape("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d") + "]+"


_MARKERS = (BEGIN, SIG, END)  # the n-th group of _MARKER: the n-th marker's words


def _marker_re() -> re.Pattern[str]:
    """One pattern for the three markers (compiling the dashes once is start-up time)."""
    words = "|".join("(" + r"\s+".join(marker.strip("-").split()) + ")" for marker in _MARKERS)
    return re.compile(rf"{_DASHES}\s*(?:{words})\s*{_DASHES}", re.IGNORECASE)


_MARKER = _marker_re()

# Invisible characters that editors and forums sprinkle into text; they never carry meaning.
INVISIBLE: Mapping[int, None] = MappingProxyType(
    dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
)

# When neither the caller (from the mail's Content-Type) nor the signature line says whether
# the text is format=flowed, a trailing space is a soft break only where the line and the
# next word pass this width: flowing encoders wrap at 66 to 78 columns.
_FLOW_WIDTH = 60
_ED25519_BASE64 = 88  # characters in the base64 of a 64-byte signature

_QP_EVIDENCE = re.compile(r"=(?:[0-9A-Fa-f]{2}|[ \t]*(?:\n|\Z))")
_QP_INVALID = re.compile(r"=(?![0-9A-Fa-f]{2}|[ \t]*(?:\n|\Z))")

_HTML_HINT = re.compile(
    r"</?(?:br|p|div|pre|span|html|body|blockquote|code|tt|font|table|tbody|tr|td|th|li|ul|ol"
    r"|b|i|u|em|strong|a|h[1-6]|hr|meta|head|o:p)(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
_HTML_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][A-Za-z0-9:_-]*)(?:\s[^<>]*)?/?>|<![^<>]*>|<\?[^<>]*>",
    re.DOTALL,
)
_HTML_BLOCK = frozenset(
    "p div pre blockquote li ul ol table tr h1 h2 h3 h4 h5 h6 hr body html section article"
    " header footer dl dt dd center address".split()
)
_HTML_SKIP = frozenset(("script", "style", "head", "title"))

# An attribute never holds "[": each try then reads only to the next bracket, so scanning a
# line of unclosed tags ("[b [b [b ...") is linear, not quadratic.
_BBCODE_TAG = re.compile(
    r"\[/?(?:code|quote|b|i|u|s|color|size|font|spoiler|pre|tt|noparse|indent|center|left"
    r"|right|highlight|url|email|mono|plain|icode)(?:[= ][^\[\]\n]*)?\]",
    re.IGNORECASE,
)
_QUOTE_PREFIX = re.compile(r"[\s>]*")
_QUOTE_LEVEL = re.compile(r"[ \t\xa0]*>[ \xa0]?")


@dataclass_on_first_use(frozen=True)
class RawBlock:
    """One block's lines after unmangling, outer whitespace stripped."""

    head: tuple[str, ...]  # between BEGIN and SIG (or END): header, blank line, body
    signature: tuple[str, ...] | None  # between SIG and END; None without a SIG line


@dataclass_on_first_use(frozen=True)
class Candidate:
    """One reading of a message: its text after some decodings, and whether to drop BBCode."""

    text: str
    bbcode: bool


def normalize(text: str) -> str:
    """LF line ends, no invisible characters."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.isascii():  # no line separators or invisible characters to take out
        return text
    return text.replace("\u2028", "\n").replace("\u2029", "\n").translate(INVISIBLE)


def candidates(text: str) -> list[Candidate]:
    """The readings of `text` worth trying, the most likely first.

    A transport encoding is only guessed from the text, so a plain message can look encoded
    (a base64 signature ends in `==`, a comment may hold `<b>`). The caller tries each reading
    in turn (see `pbem.orders.orderblock.find_blocks`).
    """
    return list(readings(text))


def readings(text: str) -> Iterator[Candidate]:
    """`candidates`, each made only when the caller asks for it: a plain block is read at
    the first reading, and its signature's `==` need not be decoded as quoted-printable."""
    check_text_size(text)
    text = normalize(text)
    # A saved mail may hold base64 text parts: their decoded reading comes first.
    texts = [text]
    if "ransfer" in text:  # start-up: the decoder loads only for a Content-Transfer-Encoding
        from pbem.orders.base64parts import decode_base64_parts, has_base64_part

        if has_base64_part(text):
            decoded = normalize(decode_base64_parts(text))
            texts = [decoded, text] if decoded != text else texts
    found: list[Candidate] = []
    for base in _qp_readings(texts):
        html_texts = [html_to_text(base), base] if _HTML_HINT.search(base) else [base]
        for variant in html_texts:
            for bbcode in (True, False) if _BBCODE_TAG.search(variant) else (False,):
                candidate = Candidate(variant, bbcode)
                if candidate not in found:
                    found.append(candidate)
                    yield candidate


def _qp_readings(texts: list[str]) -> Iterator[str]:
    """Each text, and its quoted-printable decoding where it looks encoded: first when the
    text is strict QP (no bare "=", such as a base64 "==" padding), else second."""
    for each in texts:
        if not _QP_EVIDENCE.search(each):
            yield each
        elif _QP_INVALID.search(each) is None:
            yield qp_decode(each)
            yield each
        else:
            yield each
            yield qp_decode(each)


def check_text_size(text: str) -> None:
    """BlockError if `text` is over MAX_TEXT_BYTES in UTF-8."""
    # A character is 1 to 4 bytes: count the bytes only when the length cannot tell.
    size = len(text) if len(text) * 4 <= MAX_TEXT_BYTES else len(text.encode("utf-8", "replace"))
    if size > MAX_TEXT_BYTES:
        raise BlockError.keyed("reason:pbem.text_too_big", size=size, limit=MAX_TEXT_BYTES)


def qp_decode(text: str) -> str:
    """Undo quoted-printable; the charset is UTF-8, else the usual Windows one."""
    data = binascii.a2b_qp(text.encode("utf-8"))
    for charset in ("utf-8", "cp1252"):
        try:
            return normalize(data.decode(charset))
        except UnicodeDecodeError:
            continue
    return normalize(data.decode("latin-1"))


def html_to_text(source: str) -> str:
    """Text as a browser would lay it out: <br> and block tags end lines, entities decoded."""
    import html  # start-up: only a mail in HTML needs it

    lines: list[str] = []
    current: list[str] = []
    pre = 0
    skip: str | None = None

    def flush() -> None:
        lines.append("".join(current))
        current.clear()

    def soft_break() -> None:
        # Block tags end a line only if it holds something; layout whitespace does not count.
        if "".join(current).strip(" \t\n"):
            flush()
        current.clear()

    def add_text(raw: str) -> None:
        text = html.unescape(raw)
        if not pre:
            current.append(text.replace("\n", " "))
            return
        first, *rest = text.split("\n")
        current.append(first)
        for part in rest:
            flush()
            current.append(part)

    position = 0
    for match in _HTML_TOKEN.finditer(source):
        if skip is None:
            add_text(source[position : match.start()])
        position = match.end()
        name = (match.group(2) or "").lower()
        closing = match.group(1) == "/"
        if not name:
            continue
        if skip is not None:
            skip = None if closing and name == skip else skip
        elif name in _HTML_SKIP and not closing:
            skip = name
        elif name == "br":
            flush()
        elif name in _HTML_BLOCK:
            soft_break()
            if name == "pre":
                pre = max(0, pre - 1) if closing else pre + 1
        elif name in ("td", "th"):
            current.append(" ")
    if skip is None:
        add_text(source[position:])
    if current:
        flush()
    return normalize("\n".join(lines))


def marker_kind(line: str) -> str | None:
    """BEGIN, SIG or END if the line (quoting already removed) is that marker, else None."""
    if "pbem" not in line.lower():
        return None
    stripped = line.strip().strip("`~").strip()
    match = _MARKER.fullmatch(stripped)
    if match is None:
        return None
    return _MARKERS[(match.lastindex or 1) - 1]  # the group that matched: one always does


def split_blocks(candidate: Candidate, *, flowed: bool | None = None,
                 delsp: bool = False) -> list[RawBlock]:
    """Every block in one reading of a message, in order; BlockError if one is malformed."""
    lines = candidate.text.split("\n")
    blocks: list[RawBlock] = []
    index = 0
    while index < len(lines):
        line = _strip_bbcode(lines[index]) if candidate.bbcode else lines[index]
        unquoted = _QUOTE_PREFIX.sub("", line, count=1)
        kind = marker_kind(unquoted)
        if kind is None:
            index += 1
            continue
        if kind != BEGIN:
            raise BlockError.keyed("reason:pbem.marker_first", kind=Verbatim(repr(kind)),
                                   begin=Verbatim(repr(BEGIN)))
        # The BEGIN line's quoting is the block's: a reply quotes every line alike.
        depth = line[: len(line) - len(unquoted)].count(">")
        block, index = _read_block(lines, index + 1, depth, candidate.bbcode, flowed, delsp)
        blocks.append(block)
    return blocks


def _read_block(
    lines: list[str], start: int, depth: int, bbcode: bool, flowed: bool | None,
    delsp: bool = False,
) -> tuple[RawBlock, int]:
    head: list[tuple[str, str]] = []
    signature: list[str] | None = None
    for index in range(start, len(lines)):
        raw = lines[index]
        content = _unquote(_strip_bbcode(raw) if bbcode else raw, depth)
        kind = marker_kind(content)
        if kind == BEGIN:
            raise BlockError.keyed("reason:pbem.second_begin", begin=Verbatim(repr(BEGIN)),
                                   end=Verbatim(repr(END)))
        if kind == SIG:
            if signature is not None:
                raise BlockError.keyed("reason:pbem.two_sigs", sig=Verbatim(repr(SIG)))
            signature = []
        elif kind == END:
            if signature is None:
                return RawBlock(_unflow(head, flowed, delsp), None), index + 1
            if flowed is None:
                flowed = _flow_evidence(signature)
            sig = tuple(line.strip() for line in signature)
            return RawBlock(_unflow(head, flowed, delsp), sig), index + 1
        elif signature is not None:
            signature.append(content)
        else:
            head.append((raw, content))
    raise BlockError.keyed("reason:pbem.no_end", begin=Verbatim(repr(BEGIN)),
                           end=Verbatim(repr(END)))


def _strip_bbcode(line: str) -> str:
    return _BBCODE_TAG.sub("", line)


def _unquote(line: str, depth: int) -> str:
    # Up to `depth` levels: some clients leave quoted blank or re-wrapped lines unmarked.
    for _ in range(depth):
        match = _QUOTE_LEVEL.match(line)
        if match is None:
            break
        line = line[match.end() :]
    return line


def _flow_evidence(signature: list[str]) -> bool | None:
    """What the ed25519 signature line says about format=flowed, if anything.

    Its 96 characters never fit a flowed line, so a flowing client always breaks it after
    `ed25519 `; a signature left whole on its line means the text was not flowed.
    """
    lines = [line for line in signature if line.strip()]
    words = lines[0].split() if lines else []
    if not words or words[0].lower() != "ed25519":
        return None
    if len(words) > 1:
        return False if len(words[1]) >= _ED25519_BASE64 else None
    wrapped = lines[0].endswith(" ") and len(lines) > 1
    return True if wrapped and len(lines[1].strip()) >= _ED25519_BASE64 else None


def _unflow(lines: list[tuple[str, str]], flowed: bool | None,
            delsp: bool = False) -> tuple[str, ...]:
    """Join format=flowed soft breaks (a physical line ending in a space); strip every line.
    With DelSp=yes (RFC 3676 4.2) the space before a soft break was added by the encoder, who
    may break inside a word: it is deleted when the lines are joined."""
    joined: list[str] = []
    index = 0
    while index < len(lines):
        pieces = [lines[index][1]]
        while index + 1 < len(lines) and _is_soft_break(*lines[index], lines[index + 1][1], flowed):
            index += 1
            if delsp and pieces[-1].endswith(" "):
                pieces[-1] = pieces[-1][:-1]
            pieces.append(lines[index][1])
        joined.append("".join(pieces).strip())
        index += 1
    return tuple(joined)


def _is_soft_break(raw: str, text: str, following: str, flowed: bool | None) -> bool:
    # The physical line decides: flowing is done to the text as sent, BBCode and all.
    if flowed is False or not raw.endswith(" ") or not text.strip() or not following.strip():
        return False
    # Encoders wrap only at spaces, so a tab or no-break space is part of the next word.
    next_word = following.lstrip(" ").split(" ")[0]
    return flowed is True or len(raw) + len(next_word) > _FLOW_WIDTH
