"""Reading the game file's raw log entries into typed ones (pbem.store.entries), checked:
every problem is a CorruptGameError that names the entry's seq and the key."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.errors import CorruptGameError
from pbem.store.entries import (
    Absence,
    Bot,
    Data,
    Entry,
    Orders,
    Pause,
    Replacement,
    Reveal,
    Sealed,
    Settings,
    Setup,
    Takeback,
    Timeout,
    Undo,
    Unseal,
)


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


class _Reader:
    """Typed access to one raw entry; every problem names the entry and the key."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data, self.seq = data, data.get("seq")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.data or self.data[key] is None and default is not ...:
            if default is ...:
                raise _bad(self.seq, f"'{key}' is missing")
            return default
        value = self.data[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise _bad(self.seq, f"'{key}' should be a {names}")
        return value

    def strings(self, key: str, default: Any = ...) -> Any:
        values = self.get(key, list, default)
        if values is None:
            return None
        if any(not isinstance(v, str) for v in values):
            raise _bad(self.seq, f"'{key}' should be a list of strings")
        return list(values)

    def mapping_of_strings(self, key: str, default: Any = ...) -> dict[str, str]:
        value = self.get(key, dict, default)
        if any(not isinstance(k, str) or not isinstance(v, str) for k, v in value.items()):
            raise _bad(self.seq, f"'{key}' should map names to strings")
        return dict(value)

    def records(self, key: str, default: Any = ...) -> Any:
        values = self.get(key, list, default)
        if values is None:
            return None
        if any(not isinstance(v, dict) or any(not isinstance(k, str) for k in v) for v in values):
            raise _bad(self.seq, f"'{key}' should be a list of mappings")
        return [dict(v) for v in values]



def _common(r: _Reader) -> Data:
    events = r.records("events", None)
    summary = r.strings("summary", None)
    if events is None and summary is None:
        raise _bad(r.seq, "it has neither events nor a summary")
    return {"seq": r.get("seq", int), "post_state": r.get("post_state", str),
            "prev_state": r.get("prev_state", str, ""), "draws": r.records("draws", []),
            "events": events, "summary": summary}


_READERS: dict[str, Callable[[_Reader, Data], Entry]] = {
    "setup": lambda r, c: Setup(**c, settings=_settings_of(r, "settings", None)),
    "orders": lambda r, c: (
        Sealed(**c, player=r.get("player", str), node=r.get("node", str),
               commitment=r.get("commitment", str), legacy=True)
        if r.get("sealed", bool, False) else
        Orders(**c, player=r.get("player", str), block=r.get("block", str),
               payload_sha256=r.get("payload_sha256", str), node=r.get("node", str, None),
               bot=r.get("bot", str, None))),
    "sealed": lambda r, c: Sealed(**c, player=r.get("player", str), node=r.get("node", str),
                                  commitment=r.get("commitment", str),
                                  bot=r.get("bot", str, None),
                                  replaces=r.get("replaces", str, None)),
    "unseal": lambda r, c: Unseal(
        **c, node=r.get("node", str), last=r.get("last", str),
        blocks=r.mapping_of_strings("blocks"), salts=r.mapping_of_strings("salts"),
        last_default=r.get("last_default", str, None)),
    "timeout": lambda r, c: Timeout(
        **c, player=r.get("player", str), automatic=r.get("automatic", bool, True),
        deadline=r.get("deadline", str, None), forced=r.get("forced", bool, False),
        lines=r.strings("lines", []), node=r.get("node", str, None),
        started=r.get("started", str, None), at=r.get("at", str, None),
        block=r.get("block", str, None), payload_sha256=r.get("payload_sha256", str, None)),
    "settings": lambda r, c: Settings(
        **c, deadlines=_settings_of(r, "deadlines", None),
        emails=r.mapping_of_strings("emails", None) if r.data.get("emails") is not None else None,
        block=r.get("block", str, None), payload_sha256=r.get("payload_sha256", str, None),
        adopted=r.get("adopted", bool, False), seats=_seats_of(r),
        language=r.get("language", str, None)),
    "replacement": lambda r, c: _replacement(r, c, legacy=False),
    "correction": lambda r, c: _replacement(r, c, legacy=True),
    "reveal": lambda r, c: Reveal(**c, seed=r.get("seed", str)),
    "absence": lambda r, c: Absence(
        **c, player=r.get("player", str), block=r.get("block", str),
        payload_sha256=r.get("payload_sha256", str), at=r.get("at", str),
        until=r.get("until", str, None), zone=r.get("zone", str)),
    "bot": lambda r, c: Bot(
        **c, player=r.get("player", str), block=r.get("block", str),
        payload_sha256=r.get("payload_sha256", str), at=r.get("at", str),
        key=r.get("key", str, None), until=r.get("until", str, None), zone=r.get("zone", str, ""),
        seat=r.get("seat", str, None), ended=r.get("ended", bool, False)),
    "pause": lambda r, c: Pause(
        **c, line=r.get("line", str), player=r.get("player", str), at=r.get("at", str),
        block=r.get("block", str, None), payload_sha256=r.get("payload_sha256", str, None)),
    "takeback": lambda r, c: Takeback(
        **c, line=r.get("line", str), target=r.get("target", int), player=r.get("player", str),
        at=r.get("at", str), needs=r.strings("needs", None), block=r.get("block", str, None),
        payload_sha256=r.get("payload_sha256", str, None)),
    "undo": lambda r, c: Undo(**c, target=r.get("target", int), undone=_seqs(r)),
}


def _seqs(r: _Reader) -> list[int]:
    value = r.get("undone", list)
    if not all(type(seq) is int for seq in value):
        raise _bad(r.seq, "'undone' must be a list of seqs")
    return list(value)


def _settings_of(r: _Reader, key: str, default: Any) -> Data | None:
    """A deadlines policy ({decisions, nmr}) or a setup's settings ({deadlines, emails})."""
    value = r.get(key, dict, default)
    if value is None:
        return None
    inner = _Reader({**value, "seq": r.seq})
    if key == "settings":
        _settings_of(inner, "deadlines", ...)
        inner.mapping_of_strings("emails")
        if "names" in value:  # since format 4, with the moderator's name and address
            inner.mapping_of_strings("names")
            if inner.get("moderator", dict, None) is not None:
                inner.mapping_of_strings("moderator")
        _seats_of(inner)
        inner.get("language", str, None)  # the game's default language, where set
    else:
        inner.mapping_of_strings("decisions")
        inner.get("nmr", str)
    return dict(value)


def _seats_of(r: _Reader) -> dict[str, dict[str, str]] | None:
    """A seat's own settings (setting -> player -> value), as a setup or settings entry holds
    them since format 4; None where absent."""
    value = r.get("seats", dict, None)
    if value is None:
        return None
    inner = _Reader({**value, "seq": r.seq})
    return {str(key): inner.mapping_of_strings(key) for key in value}


def _replacement(r: _Reader, common: Data, *, legacy: bool) -> Replacement:
    if legacy and r.get("change", str) != "roster":
        raise _bad(r.seq, f"unknown correction '{r.get('change', str)}'")
    return Replacement(**common, player=r.get("player", str), block=r.get("block", str),
                       payload_sha256=r.get("payload_sha256", str), old=r.get("old", dict),
                       new=r.get("new", dict), legacy=legacy)


def read(data: object) -> Entry:
    """One raw entry from the game file, checked; CorruptGameError names what is wrong."""
    if not isinstance(data, dict):
        raise CorruptGameError("log: an entry is not a mapping")
    r = _Reader(data)
    kind = r.get("kind", str)
    reader = _READERS.get(kind)
    if reader is None:
        raise _bad(r.seq, f"unknown entry kind '{kind}'")
    return reader(r, _common(r))


def read_all(log: Sequence[object]) -> list[Entry]:
    return [read(data) for data in log]

