"""A fast reader for the block YAML pbem writes (issue 17): plain data, as PyYAML's safe loader
reads it, for the part of YAML our dumper emits (block mappings and sequences, `[]` and `{}`,
plain, quoted and literal scalars). Everything else (flow collections, anchors, tags, comments,
multi-line plain or quoted scalars, tabs, other line breaks, a scalar the safe loader would read
as anything but a string, null, a boolean or a decimal integer) raises NotPlain, and the caller
reads the text with PyYAML: what this module returns is always what PyYAML would have returned.

Why: every `pbem apply` reads the game file's head and its last entries, and PyYAML's
constructor is pure Python even under libyaml; a reader of one known layout is several times
faster.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pbem.store import yaml_codec


class NotPlain(Exception):
    """The text is outside what this reader knows; read it with PyYAML."""


# Characters PyYAML's reader refuses or reads as line breaks, a BOM, tabs (indentation rules),
# and the stream markers: whoever wrote them, PyYAML reads the text.
_OUTSIDE_CLASS = ("[^\x0A\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD"
                  "\U00010000-\U0010FFFF]")
_MARKERS = re.compile(r"\n(?:---|\.\.\.|%)")
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")
_LITERAL = re.compile(r"\|([1-9])?([-+])?\Z")
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
_INDICATORS = frozenset("[]{},#&*!|>'\"%@`")
_ESCAPES = {"0": "\0", "a": "\x07", "b": "\x08", "t": "\x09", "n": "\x0A", "v": "\x0B",
            "f": "\x0C", "r": "\x0D", "e": "\x1B", " ": " ", '"': '"', "\\": "\\",
            "N": "\x85", "_": "\xA0", "L": "\u2028", "P": "\u2029"}
_HEX = {"x": 2, "u": 4, "U": 8}
_LOADER: Any = yaml_codec.BASE_LOADER  # the resolver the game file's loader resolves with
_RESOLVERS: dict[Any, list[tuple[str, Any]]] = _LOADER.yaml_implicit_resolvers
# Nesting deeper than this is left to PyYAML (a game file nests about 8 deep): this reader
# recurses, and a RecursionError must never be its answer.
MAX_DEPTH = 64
# A quoted key longer than this is left to PyYAML, which refuses a key over 1024 characters.
MAX_KEY = 128
# A SHA-256 in hex with a letter other than b is a string to every resolver: a float needs a
# `.` or `:`, a timestamp a `-`, an int only digits, or `0b` then binary digits, or `0x`.
_HASH = re.compile(r"[0-9a-f]{64}\Z")
_ALL_B = re.compile(r"[0-9b]*\Z")  # no letter but b: left to the resolvers
_PLAIN: dict[str, Any] = {}  # plain scalars seen, by text: a game file repeats its words


@cache
def _outside() -> re.Pattern[str]:
    """The refused characters' pattern, compiled when a text is not all printable (start-up: its
    Unicode ranges cost a few milliseconds to compile, and most texts never need it)."""
    return re.compile(_OUTSIDE_CLASS)


def load(text: str) -> Any:
    """The data PyYAML's safe loader reads from `text`, or NotPlain."""
    if not text.endswith("\n") or text.startswith(("---", "...", "%")) or _MARKERS.search(text):
        raise NotPlain
    # isprintable() is far quicker than the pattern, and True only without any refused character
    if not text.replace("\n", " ").isprintable() and _outside().search(text):
        raise NotPlain
    reader = _Reader(text[:-1].split("\n"))
    value = reader.node(0, 0)
    if reader.at != len(reader.lines):
        raise NotPlain  # a line the layout does not explain: a continuation, a stray indent
    return value


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines, self.at, self.nesting = lines, 0, 0
        self.depth = [len(line) - len(line.lstrip(" ")) for line in lines]  # each line's indent

    def node(self, index: int, indent: int) -> Any:
        """The block collection whose first line is `index`, its entries at `indent`."""
        line = self.lines[index]
        if self.depth[index] != indent or not line.strip() or self.nesting >= MAX_DEPTH:
            raise NotPlain
        self.at = index
        self.nesting += 1
        found = self.sequence(indent) if line.startswith("- ", indent) else self.mapping(indent)
        self.nesting -= 1
        return found

    def sequence(self, indent: int) -> list[Any]:
        found: list[Any] = []
        lines = self.lines
        while self.at < len(lines):
            line = lines[self.at]
            if self.depth[self.at] != indent or not line.startswith("- ", indent):
                break
            item = line[indent + 2:]
            known = _PLAIN.get(item, _PLAIN)
            if known is not _PLAIN:  # a plain scalar read before: no `- `, `: ` or `:` end
                found.append(known)
                self.at += 1
                continue
            if item.startswith("- ") or _entry(item) is not None:
                lines[self.at] = " " * (indent + 2) + item  # the item is a collection there
                self.depth[self.at] = indent + 2 + len(item) - len(item.lstrip(" "))
                found.append(self.node(self.at, indent + 2))
            else:
                found.append(self.scalar(item, indent))
        return found

    def mapping(self, indent: int) -> dict[Any, Any]:
        found: dict[Any, Any] = {}
        lines = self.lines
        while self.at < len(lines):
            line = lines[self.at]
            if self.depth[self.at] != indent or line.startswith("- ", indent):
                break
            # `key: value`, both plain scalars read before (what _entry and scalar would find:
            # neither can be empty, start with a space, a quote or `|`, or end with `:`)
            colon = line.find(": ", indent)
            if colon > indent:
                key = _PLAIN.get(line[indent:colon], _PLAIN)
                if key is not _PLAIN:
                    value = _PLAIN.get(line[colon + 2:], _PLAIN)
                    if value is not _PLAIN:
                        found[key] = value
                        self.at += 1
                        continue
            entry = _entry(line[indent:])
            if entry is None:
                raise NotPlain
            key, rest = entry
            if rest:
                found[key] = self.scalar(rest, indent)
                continue
            self.at += 1  # `key:` alone: a collection follows, or null
            following = lines[self.at] if self.at < len(lines) else ""
            deeper = self.depth[self.at] if following else 0
            if following.strip() and deeper > indent:
                found[key] = self.node(self.at, deeper)
            elif following.startswith("- ", indent) and deeper == indent:
                found[key] = self.sequence(indent)
            else:
                found[key] = None
        return found

    def scalar(self, text: str, indent: int) -> Any:
        """The value on the current line (`text`), in a collection at `indent`; a literal block
        takes the lines after it."""
        self.at += 1
        first = text[:1]
        if first == "|":
            return self.literal(text, indent)
        if text in ("[]", "{}"):
            return [] if text == "[]" else {}
        if first == "'" or first == '"':
            value, end = _quoted(text)
            if end != len(text):
                raise NotPlain
            return value
        return _plain(text)

    def literal(self, header: str, indent: int) -> str:
        """A literal block scalar (`|`, with its indentation and chomping indicators)."""
        form = _LITERAL.match(header)
        if form is None:
            raise NotPlain
        lines, start = self.lines, self.at
        if form.group(1):
            inner = indent + int(form.group(1))
        else:
            first = start  # the first line with text (not a copy of the rest of the file)
            while first < len(lines) and not lines[first]:
                first += 1
            inner = self.depth[first] if first < len(lines) else 0
            if inner <= indent:
                raise NotPlain
        end, pad = start, " " * inner
        while end < len(lines):
            line = lines[end]
            if line and not line.strip():
                raise NotPlain  # spaces only: PyYAML's rules for them are not copied here
            if line and not line.startswith(pad):
                break
            end += 1
        body = [line[inner:] for line in lines[start:end]]
        while end > start and not lines[end - 1]:  # trailing empty lines end the block's text
            end -= 1
        kept = body[:end - start]
        trailing = len(body) - len(kept)
        self.at = start + len(body)
        if not kept:
            raise NotPlain
        text = "\n".join(kept)
        chomp = form.group(2)
        if chomp == "-":
            return text
        return text + "\n" * (1 + trailing) if chomp == "+" else text + "\n"


def _entry(text: str) -> tuple[Any, str] | None:
    """(key, the rest after `: `) when `text` is a mapping entry, else None (a scalar)."""
    first = text[:1]
    if first == "'" or first == '"':
        try:
            key, end = _quoted(text)
        except NotPlain:
            return None
        if end == len(text) or text[end] != ":":
            return None
        if end > MAX_KEY:
            raise NotPlain
        rest = text[end + 1:]
    else:
        colon = text.find(": ")
        if colon < 0:
            if not text.endswith(":"):
                return None
            colon = len(text) - 1
        key, rest = _plain(text[:colon]), text[colon + 1:]
    if rest and not rest.startswith(" ") or rest.startswith("  ") or rest == " ":
        raise NotPlain
    return key, rest[1:]


def _quoted(text: str) -> tuple[str, int]:
    """A one-line quoted scalar at the start of `text`, and where it ends."""
    if text[0] == "'":
        end = 1
        while True:
            end = text.find("'", end)
            if end < 0:
                raise NotPlain
            if text[end + 1:end + 2] != "'":
                return text[1:end].replace("''", "'"), end + 1
            end += 2
    parts, at = [], 1
    while True:
        stop = min((i for i in (text.find('"', at), text.find("\\", at)) if i >= 0), default=-1)
        if stop < 0:
            raise NotPlain
        parts.append(text[at:stop])
        if text[stop] == '"':
            return "".join(parts), stop + 1
        code = text[stop + 1:stop + 2]
        if code in _ESCAPES:
            parts.append(_ESCAPES[code])
            at = stop + 2
        elif code in _HEX:
            digits = text[stop + 2:stop + 2 + _HEX[code]]
            if len(digits) != _HEX[code] or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise NotPlain
            point = int(digits, 16)
            if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:
                raise NotPlain  # the reader refuses it
            parts.append(chr(point))
            at = stop + 2 + _HEX[code]
        else:
            raise NotPlain


def _plain(text: str) -> Any:
    """A plain scalar as the safe loader resolves it: a string, null, a boolean or a decimal
    integer (anything else it would resolve to is left to PyYAML)."""
    known = _PLAIN.get(text, _PLAIN)
    if known is not _PLAIN:
        return known
    if (not text or len(text) > 128 or text[0] in _INDICATORS or text[0] in "-?:" and text[1:2] in ("", " ")
            or text != text.strip(" ") or ": " in text or " #" in text or text.endswith(":")):
        raise NotPlain
    if _HASH.match(text) and not _ALL_B.match(text):
        tag = "tag:yaml.org,2002:str"  # a hash (each entry holds new ones): no resolver asked
    else:
        tag = next((tag for tag, pattern in _RESOLVERS.get(text[0], ()) if pattern.match(text)),
                   "tag:yaml.org,2002:str")
    value: Any
    if tag == "tag:yaml.org,2002:str":
        value = text
    elif tag == "tag:yaml.org,2002:null":
        value = None
    elif tag == "tag:yaml.org,2002:bool":
        value = _BOOLS[text.lower()]
    elif tag == "tag:yaml.org,2002:int" and _DECIMAL.match(text):
        value = int(text)
    else:
        raise NotPlain
    if len(_PLAIN) < 65536:  # bounded: a long run reads many hashes
        _PLAIN[text] = value
    return value
