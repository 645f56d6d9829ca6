"""The game file's YAML classes. The reader: PyYAML's safe loader with every non-JSON type
left as a `Rejected` marker (pbem.store.plain_yaml reads pbem's own layout faster). The
writer: PyYAML's safe dumper without aliases, a string with a line break as a literal block,
and (issue 17) the nodes of plain data built directly and the resolver's answers kept, for the
same bytes in about two thirds of the time."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml


class Rejected:
    """A YAML value no game file holds (a set, bytes, a date, `!!int x`), kept as a marker so
    that the check of the loaded data can name its key."""

    def __init__(self, what: str, node: yaml.Node) -> None:
        self.what, self.line = what, node.start_mark.line + 1


def _loader_class(base: type) -> type:
    """The safe loader, but with every non-JSON type left as a `Rejected` marker."""

    class Loader(base):  # type: ignore[misc]
        """A safe loader of its own, so the constructors below change no other loader."""

    def reject(what: str) -> Callable[[Any, yaml.Node], Rejected]:
        return lambda loader, node: Rejected(what, node)

    def checked(what: str, construct: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        def build(loader: Any, node: yaml.Node) -> Any:
            try:
                return construct(loader, node)
            except (ValueError, KeyError, OverflowError):  # `!!int x`, `!!bool maybe`
                return Rejected(f"{what} that does not parse", node)
        return build

    for tag in ("timestamp", "set", "binary", "omap", "pairs"):
        Loader.add_constructor(f"tag:yaml.org,2002:{tag}", reject(f"!!{tag}"))
    for tag in ("int", "float", "bool"):
        construct = Loader.yaml_constructors[f"tag:yaml.org,2002:{tag}"]
        Loader.add_constructor(f"tag:yaml.org,2002:{tag}", checked(f"!!{tag}", construct))
    return Loader


_LOADERS: dict[type, type] = {}


def loader_for(base: type) -> type:
    """The safe loader built on `base` (a caller's own PyYAML loader class), made once."""
    if base not in _LOADERS:
        _LOADERS[base] = _loader_class(base)
    return _LOADERS[base]


BASE_LOADER: type = _loader_class(getattr(yaml, "CSafeLoader", yaml.SafeLoader))


_STR, _INT, _BOOL, _NULL = (f"tag:yaml.org,2002:{name}" for name in ("str", "int", "bool", "null"))
_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_RESOLVED: dict[tuple[str, tuple[bool, bool]], str] = {}  # a scalar's implicit tag, by text


def _dumper_class(base: type) -> type:
    class Dumper(base):  # type: ignore[misc]
        def ignore_aliases(self, data: Any) -> bool:
            return True

        def represent_data(self, data: Any) -> Any:
            """The nodes PyYAML's safe representer builds for plain data (no aliases, block
            style, `|` for a string with a line break), built without its per-object type
            lookups; anything else goes to PyYAML's own."""
            kind = type(data)
            if kind is str:
                return yaml.ScalarNode(_STR, data, style="|" if "\n" in data else None)
            if kind is dict:
                return yaml.MappingNode(_MAP, [(self.represent_data(key), self.represent_data(value))
                                               for key, value in data.items()], flow_style=False)
            if kind is list:
                return yaml.SequenceNode(_SEQ, [self.represent_data(item) for item in data],
                                         flow_style=False)
            if kind is int:
                return yaml.ScalarNode(_INT, str(data))
            if kind is bool:
                return yaml.ScalarNode(_BOOL, "true" if data else "false")
            if data is None:
                return yaml.ScalarNode(_NULL, "null")
            return super().represent_data(data)

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            """The resolver's answer for a scalar, kept: a game file repeats its words."""
            if kind is not yaml.ScalarNode:
                return super().resolve(kind, value, implicit)
            key = (value, implicit)
            tag = _RESOLVED.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(_RESOLVED) < 65536:  # bounded: a long run writes many hashes
                    _RESOLVED[key] = tag
            return tag

    def str_presenter(dumper: Any, value: str) -> Any:
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, str_presenter)
    return Dumper


DUMPERS = {"c": _dumper_class(getattr(yaml, "CSafeDumper", yaml.SafeDumper)),
           "py": _dumper_class(yaml.SafeDumper)}


# --- the fast writer ------------------------------------------------------------------------

_AS_KEY: dict[str, str] = {}  # a string as PyYAML writes it as a mapping key
_AS_VALUE: dict[str, str] = {}  # ... and as a value or a sequence item


class NotSimple(Exception):
    """Data `dump` leaves to PyYAML (a float, a line break in a string, a long key...)."""


def dump(data: Any) -> str:
    """The game file's YAML for `data`, byte for byte what yaml.dump with DUMPERS["c"] and
    these settings writes: the block layout is written here and each distinct string is
    rendered once by PyYAML itself (its quoting rules are not copied)."""
    try:
        out: list[str] = []
        if type(data) is dict and data:
            _mapping(data, 0, out)
        elif type(data) is list and data:
            _sequence(data, 0, out)
        else:
            raise NotSimple
        return "".join(out)
    except NotSimple:
        return pyyaml_dump(data)


def pyyaml_dump(data: Any, backend: str = "c") -> str:
    """The game file's YAML as PyYAML writes it."""
    text: str = yaml.dump(data, Dumper=DUMPERS[backend], sort_keys=False, allow_unicode=True,
                          width=1_000_000, default_flow_style=False)
    return text


# A word PyYAML writes as it is (a plain scalar) in a block mapping or sequence, as key or
# value, unless its resolver reads it as something else than a string ("yes", "12", "0x1f",
# "2026-12-01"...): a letter, digit or "_" first (no indicator), then no space, quote, ":"
# or "#". Most of a game file's strings are such words (ids, hashes, message ids); rendering
# each through PyYAML was most of the cost of writing a block's entry (issue 17).
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")


def _plain_word(value: str) -> bool:
    if not _WORD.fullmatch(value):
        return False
    dumper: Any = DUMPERS["c"]
    implicit = dumper.yaml_implicit_resolvers  # the tags PyYAML's resolver may read
    return not any(pattern.match(value) for _, pattern in
                   (*implicit.get(value[0], ()), *implicit.get(None, ())))


def _scalar(value: Any, table: dict[str, str], probe: Callable[[str], str]) -> str:
    kind = type(value)
    if kind is str:
        shown = table.get(value)
        if shown is None:
            if not value.isprintable() or len(value) > 100:
                raise NotSimple  # a line break (a literal block...), a key written `? key`
            shown = value if _plain_word(value) else probe(value)
            if not shown.isprintable() or len(table) >= 65536:
                raise NotSimple  # its text could depend on the indentation
            table[value] = shown
        return shown
    if kind is int:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    raise NotSimple


def _key_probe(value: str) -> str:
    text = pyyaml_dump({value: 0})
    if not text.endswith(": 0\n"):
        raise NotSimple
    return text[:-len(": 0\n")]


def _value_probe(value: str) -> str:
    text = pyyaml_dump({"k": value})
    if not text.startswith("k: ") or not text.endswith("\n"):
        raise NotSimple
    return text[len("k: "):-1]


def _after(value: Any, indent: int, out: list[str], *, in_mapping: bool) -> None:
    """What follows `key:` or `-` on its line: a scalar, an empty collection, or a block."""
    kind = type(value)
    if kind is dict:
        if not value:
            out.append(" {}\n")
        elif in_mapping:
            out.append("\n")
            _mapping(value, indent + 2, out)
        else:
            out.append(" ")
            _mapping(value, indent + 2, out, inline=True)
    elif kind is list:
        if not value:
            out.append(" []\n")
        elif in_mapping:  # a sequence in a mapping is written at the key's indentation
            out.append("\n")
            _sequence(value, indent, out)
        else:
            out.append(" ")
            _sequence(value, indent + 2, out, inline=True)
    else:
        out.append(" " + _scalar(value, _AS_VALUE, _value_probe) + "\n")


def _mapping(data: dict[Any, Any], indent: int, out: list[str], *, inline: bool = False) -> None:
    pad = " " * indent
    for key, value in data.items():
        if type(key) is not str:
            raise NotSimple
        out.append(("" if inline else pad) + _scalar(key, _AS_KEY, _key_probe) + ":")
        inline = False
        _after(value, indent, out, in_mapping=True)


def _sequence(data: list[Any], indent: int, out: list[str], *, inline: bool = False) -> None:
    pad = " " * indent
    for item in data:
        out.append(("" if inline else pad) + "-")
        inline = False
        _after(item, indent, out, in_mapping=False)
