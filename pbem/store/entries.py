"""Typed log entries: one class per kind, written by one function, validated when read.

The log is append-only and hash-chained: each entry names the state hash before it
(`prev_state`) and after it (`post_state`). What happened is kept as structured events (a
message id and its arguments, engine.core.words), never as words: rewording a message changes
what readers see, not what verify checks. Entries written before structured events (game file
format 1) carry their words in `summary`; they are shown as written and not compared.

Kinds: setup, orders, sealed (a commitment to a sealed answer), unseal (the sealed answers
published), timeout (defaults applied), replacement (a moderator-signed roster change; format 1
called it `correction`), settings (deadlines, the NMR policy, an e-mail address or a seat's own
setting changed), reveal (the seed published), absence and pause (a player's signed `away`,
`back`, `pause` or `resume` line, or a pause proposal's lapse), bot (a seat handed to a bot's
key and back): pbem.pipeline.life.

Settings and timeouts change nothing in the rules' state, so their fields are bound into the
chain through the game header's `trail` (pbem.pipeline.clock), which every state hash covers.
A timeout written before format 3 has no `at`: it is read as written and replayed as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pbem.errors import CorruptGameError

Data = dict[str, Any]


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


@dataclass
class Entry:
    """What every entry has. `events` are the public structured events; `summary` the words
    of a format-1 entry."""

    kind: ClassVar[str] = ""
    seq: int
    post_state: str
    prev_state: str = ""
    draws: list[Data] = field(default_factory=list)
    events: list[Data] | None = None
    summary: list[str] | None = None

    def body(self) -> Data:
        """The kind's own fields, in the order they are written."""
        return {}

    def to_data(self) -> Data:
        data: Data = {"seq": self.seq, "kind": self.kind, **self.body()}
        if self.draws or self.kind in ("setup", "orders", "timeout", "unseal"):
            data["draws"] = self.draws
        if self.prev_state:
            data["prev_state"] = self.prev_state
        data["post_state"] = self.post_state
        if self.events is not None:
            data["events"] = self.events
        if self.summary is not None:
            data["summary"] = self.summary
        return data

    @property
    def actor(self) -> str:
        """Who made this entry happen, for history lines and commit messages."""
        return str(getattr(self, "player", "") or self.kind)


@dataclass
class Setup(Entry):
    kind: ClassVar[str] = "setup"
    # since format 3: the deadlines and e-mails the game began with; since format 4 also the
    # seats' names and the moderator's name and e-mail (pbem.pipeline.clock.identities)
    settings: Data | None = None

    def body(self) -> Data:
        return {} if self.settings is None else {"settings": self.settings}


@dataclass
class Orders(Entry):
    kind: ClassVar[str] = "orders"
    player: str = ""
    block: str = ""
    payload_sha256: str = ""
    node: str | None = None  # the parallel node answered, if any
    bot: str | None = None  # the bot's public key that signed for the seat (issue 24)

    def body(self) -> Data:
        data: Data = {"player": self.player, "block": self.block,
                      "payload_sha256": self.payload_sha256}
        if self.node is not None:
            data["node"] = self.node
        if self.bot is not None:
            data["bot"] = self.bot
        return data


@dataclass
class Sealed(Entry):
    """A sealed answer in a moderated game: only its commitment is public until the unseal."""

    kind: ClassVar[str] = "sealed"
    player: str = ""
    node: str = ""
    commitment: str = ""
    legacy: bool = False  # format 1 wrote these as kind "orders" with `sealed: true`

    def to_data(self) -> Data:
        if self.legacy:
            raise ValueError("format-1 entries are kept as written, never written again")
        return super().to_data()

    def body(self) -> Data:
        return {"player": self.player, "node": self.node, "commitment": self.commitment}


@dataclass
class Unseal(Entry):
    kind: ClassVar[str] = "unseal"
    node: str = ""
    last: str = ""  # whose answer completed the node
    blocks: dict[str, str] = field(default_factory=dict)
    salts: dict[str, str] = field(default_factory=dict)
    last_default: str | None = None  # the default a timeout gave as the last answer

    def body(self) -> Data:
        data: Data = {"node": self.node, "last": self.last}
        if self.last_default is not None:
            data["last_default"] = self.last_default
        data.update(blocks=self.blocks, salts=self.salts)
        return data


@dataclass
class Timeout(Entry):
    kind: ClassVar[str] = "timeout"
    player: str = ""
    automatic: bool = True
    deadline: str | None = None
    forced: bool = False
    lines: list[str] = field(default_factory=list)
    node: str | None = None
    # Since format 3: when the clock started and when the timeout ran (ISO, UTC), and for a
    # forced timeout in a game with a moderator, the moderator's signed block.
    started: str | None = None
    at: str | None = None
    block: str | None = None
    payload_sha256: str | None = None

    @property
    def legacy(self) -> bool:
        return self.at is None

    def body(self) -> Data:
        data: Data = {"player": self.player, "automatic": self.automatic,
                      "deadline": self.deadline, "forced": self.forced, "lines": self.lines}
        if self.node is not None:
            data["node"] = self.node
        if not self.legacy:
            data.update(started=self.started, at=self.at)
        if self.block is not None:
            data.update(block=self.block, payload_sha256=self.payload_sha256)
        return data


@dataclass
class Settings(Entry):
    """Deadlines and the NMR policy (the whole policy now in force), e-mail addresses changed,
    or both. `block` is the moderator's signed block in a game with a moderator; `adopted`
    marks the snapshot that starts the trail of a game begun before format 3 (unsigned)."""

    kind: ClassVar[str] = "settings"
    deadlines: Data | None = None  # {"decisions": {name: duration}, "nmr": "wait" | "skip"}
    emails: dict[str, str] | None = None
    block: str | None = None
    payload_sha256: str | None = None
    adopted: bool = False
    seats: dict[str, dict[str, str]] | None = None  # since format 4: a seat's own settings

    def body(self) -> Data:
        data: Data = {}
        if self.deadlines is not None:
            data["deadlines"] = self.deadlines
        if self.emails is not None:
            data["emails"] = self.emails
        if self.seats is not None:
            data["seats"] = self.seats
        if self.adopted:
            data["adopted"] = True
        if self.block is not None:
            data.update(block=self.block, payload_sha256=self.payload_sha256)
        return data


@dataclass
class Replacement(Entry):
    """A moderator-signed roster change: the seat's entry before and after."""

    kind: ClassVar[str] = "replacement"
    player: str = ""
    block: str = ""
    payload_sha256: str = ""
    old: Data = field(default_factory=dict)
    new: Data = field(default_factory=dict)
    legacy: bool = False  # format 1 wrote these as kind "correction", change "roster"

    def to_data(self) -> Data:
        if self.legacy:
            raise ValueError("format-1 entries are kept as written, never written again")
        return super().to_data()

    def body(self) -> Data:
        return {"player": self.player, "block": self.block,
                "payload_sha256": self.payload_sha256, "old": self.old, "new": self.new}


@dataclass
class Reveal(Entry):
    kind: ClassVar[str] = "reveal"
    seed: str = ""

    def body(self) -> Data:
        return {"seed": self.seed}


@dataclass
class _SignedLine(Entry):
    """A player's signed line of life (issue 24), logged `at` (ISO UTC)."""

    player: str = ""
    block: str = ""
    payload_sha256: str = ""
    at: str = ""

    def signed(self) -> Data:
        return {"player": self.player, "block": self.block, "payload_sha256": self.payload_sha256,
                "at": self.at}


@dataclass
class Absence(_SignedLine):
    """A player's signed `away until ...` (`until`: when it ends, ISO UTC, read in `zone`, the
    player's time zone then, "" for UTC) or `back` (`until` None)."""

    kind: ClassVar[str] = "absence"
    until: str | None = None
    zone: str = ""

    def body(self) -> Data:
        return {**self.signed(), "until": self.until, "zone": self.zone}


@dataclass
class Pause(Entry):
    """A signed `pause` or `resume` line (`player` may be the moderator), or `lapse`: a pause
    proposal that was not unanimous by its deadline (no player, no block)."""

    kind: ClassVar[str] = "pause"
    line: str = ""  # pause | resume | lapse
    player: str = ""
    at: str = ""
    block: str | None = None
    payload_sha256: str | None = None

    def body(self) -> Data:
        data: Data = {"line": self.line, "player": self.player, "at": self.at}
        if self.block is not None:
            data.update(block=self.block, payload_sha256=self.payload_sha256)
        return data


@dataclass
class Bot(_SignedLine):
    """A player's signed `bot on SHA256:...` (`key`: that fingerprint, lower-cased) or `bot off`
    (`key` None): the seat handed to a bot's key, or taken back."""

    kind: ClassVar[str] = "bot"
    key: str | None = None

    def body(self) -> Data:
        return {**self.signed(), "key": self.key}


KINDS: dict[str, type[Entry]] = {
    cls.kind: cls for cls in (Setup, Orders, Sealed, Unseal, Timeout, Replacement, Settings,
                              Reveal, Absence, Pause, Bot)}


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
                                  commitment=r.get("commitment", str)),
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
        adopted=r.get("adopted", bool, False), seats=_seats_of(r)),
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
        key=r.get("key", str, None)),
    "pause": lambda r, c: Pause(
        **c, line=r.get("line", str), player=r.get("player", str), at=r.get("at", str),
        block=r.get("block", str, None), payload_sha256=r.get("payload_sha256", str, None)),
}


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


def public_events(events: Sequence[Mapping[str, Any]]) -> list[Data]:
    """What the log keeps of a step's events: the public ones, as data."""
    return [{k: v for k, v in e.items() if k != "visible_to"} for e in events
            if "visible_to" not in e]


def append(log: list[Data], entry: Entry) -> None:
    """The one way an entry enters a log: it must follow the last one."""
    last = log[-1] if log else None
    if last is not None and (entry.seq != int(last["seq"]) + 1 or
                             entry.prev_state != last["post_state"]):
        raise ValueError(f"entry seq {entry.seq} does not follow seq {last['seq']}")
    log.append(entry.to_data())
