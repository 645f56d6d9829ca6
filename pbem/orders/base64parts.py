"""Decode the base64 text parts of a saved mail (`pbem apply mail.eml`), as `inbox` does.

Many clients send non-ASCII text as `Content-Transfer-Encoding: base64`. A saved mail keeps
that encoding, so the block finder (`pbem.orders.blockfinder.candidates`) tries a reading with
each such part decoded in place. One pass over the lines: linear in the text.
"""

from __future__ import annotations

import binascii
import codecs
import re

_BASE64_CTE = re.compile(r"content-transfer-encoding:[ \t]*base64[ \t]*", re.IGNORECASE)
_BASE64_LINE = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_CONTENT_TYPE = re.compile(r"content-type:[ \t]*([A-Za-z0-9._+-]+)/", re.IGNORECASE)
_CHARSET = re.compile(r"charset[ \t]*=[ \t]*\"?([A-Za-z0-9._:+-]{1,40})", re.IGNORECASE)
_FALLBACK_CHARSETS = ("utf-8", "cp1252")


def has_base64_part(text: str) -> bool:
    """Whether some line of `text` is a `Content-Transfer-Encoding: base64` header."""
    return any(_BASE64_CTE.fullmatch(line.strip()) for line in text.split("\n")
               if "ransfer" in line)


def decode_base64_parts(text: str) -> str:
    """`text` (LF line ends) with the body of each base64 text part decoded in place.

    A part is a run of header lines (one of them `Content-Transfer-Encoding: base64`), a
    blank line, then base64 lines up to a blank or other line (a MIME boundary, say). Parts
    that are not text (images, attachments), or whose base64 does not decode, stay as they are.
    """
    lines = text.split("\n")
    out: list[str] = []
    group: list[str] = []  # the non-blank lines since the last blank line
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        if line.strip():
            group.append(line)
            continue
        headers, group = group, []
        if not any(_BASE64_CTE.fullmatch(header.strip()) for header in headers):
            continue
        end = index
        while end < len(lines) and _BASE64_LINE.fullmatch(lines[end].strip()):
            end += 1
        decoded = _decode("".join(part.strip() for part in lines[index:end]), headers)
        if decoded is not None:
            out.extend(decoded.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
            index = end
    return "\n".join(out)


def _decode(encoded: str, headers: list[str]) -> str | None:
    """The text of one part, or None if it is not text or not valid base64."""
    header_text = " ".join(header.strip() for header in headers)
    kind = _CONTENT_TYPE.search(header_text)
    if not encoded or (kind is not None and kind.group(1).lower() != "text"):
        return None
    try:
        data = binascii.a2b_base64(encoded, strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    named = _CHARSET.search(header_text)
    charsets = [named.group(1)] if named is not None and _known(named.group(1)) else []
    for charset in [*charsets, *_FALLBACK_CHARSETS]:
        try:
            return data.decode(charset)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _known(charset: str) -> bool:
    try:
        codecs.lookup(charset)
    except LookupError:
        return False
    return True
