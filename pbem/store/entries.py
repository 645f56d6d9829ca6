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
key and back): pbem.pipeline.life; takeback (a signed `takeback SEQ`, its acceptance or
refusal, or its lapse) and undo (the position returned to what it was before SEQ):
pbem.pipeline.takeback.

Settings and timeouts change nothing in the rules' state, so their fields are bound into the
chain through the game header's `trail` (pbem.pipeline.clock), which every state hash covers.
A timeout written before format 3 has no `at`: it is read as written and replayed as before.
Reading and checking raw entries is pbem.store.entry_reader's job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, ClassVar

from engine.core.records import dataclass_on_first_use  # start-up: made when first built

Data = dict[str, Any]


@dataclass_on_first_use()
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


@dataclass_on_first_use()
class Setup(Entry):
    kind: ClassVar[str] = "setup"
    # since format 3: the deadlines and e-mails the game began with; since format 4 also the
    # seats' names and the moderator's name and e-mail (pbem.pipeline.clock.identities)
    settings: Data | None = None

    def body(self) -> Data:
        return {} if self.settings is None else {"settings": self.settings}


@dataclass_on_first_use()
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


@dataclass_on_first_use()
class Sealed(Entry):
    """A sealed answer in a moderated game: only its commitment is public until the unseal."""

    kind: ClassVar[str] = "sealed"
    player: str = ""
    node: str = ""
    commitment: str = ""
    legacy: bool = False  # format 1 wrote these as kind "orders" with `sealed: true`
    bot: str | None = None  # the bot's public key that signed for the seat (issue 24)
    # The commitment of the same player's earlier answer to the node that this one replaces
    # (issue 24): until the unseal only the last one counts.
    replaces: str | None = None

    def to_data(self) -> Data:
        if self.legacy:
            raise ValueError("format-1 entries are kept as written, never written again")
        return super().to_data()

    def body(self) -> Data:
        data: Data = {"player": self.player, "node": self.node, "commitment": self.commitment}
        if self.bot is not None:
            data["bot"] = self.bot
        if self.replaces is not None:
            data["replaces"] = self.replaces
        return data


@dataclass_on_first_use()
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


@dataclass_on_first_use()
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


@dataclass_on_first_use()
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
    language: str | None = None  # the game's default language (roster `language`)

    def body(self) -> Data:
        data: Data = {}
        if self.deadlines is not None:
            data["deadlines"] = self.deadlines
        if self.language is not None:
            data["language"] = self.language
        if self.emails is not None:
            data["emails"] = self.emails
        if self.seats is not None:
            data["seats"] = self.seats
        if self.adopted:
            data["adopted"] = True
        if self.block is not None:
            data.update(block=self.block, payload_sha256=self.payload_sha256)
        return data


@dataclass_on_first_use()
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


@dataclass_on_first_use()
class Reveal(Entry):
    kind: ClassVar[str] = "reveal"
    seed: str = ""

    def body(self) -> Data:
        return {"seed": self.seed}


@dataclass_on_first_use()
class _SignedLine(Entry):
    """A player's signed line of life (issue 24), logged `at` (ISO UTC)."""

    player: str = ""
    block: str = ""
    payload_sha256: str = ""
    at: str = ""

    def signed(self) -> Data:
        return {"player": self.player, "block": self.block, "payload_sha256": self.payload_sha256,
                "at": self.at}


@dataclass_on_first_use()
class Absence(_SignedLine):
    """A player's signed `away until ...` (`until`: when it ends, ISO UTC, read in `zone`, the
    player's time zone then, "" for UTC) or `back` (`until` None)."""

    kind: ClassVar[str] = "absence"
    until: str | None = None
    zone: str = ""

    def body(self) -> Data:
        return {**self.signed(), "until": self.until, "zone": self.zone}


@dataclass_on_first_use()
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


@dataclass_on_first_use()
class Bot(_SignedLine):
    """A player's signed `bot on SHA256:...` (`key`: that fingerprint, lower-cased; `until`:
    when the handover ends by itself, ISO UTC, read in `zone`, the player's time zone then) or
    `bot off` (`key` None): the seat
    handed to a bot's key, or taken back; the moderator's `bot off SEAT` (`player`: moderator,
    `seat`); or, with no block, the logged end of a handover whose `until` came (`ended`:
    `player` is the seat)."""

    kind: ClassVar[str] = "bot"
    key: str | None = None
    until: str | None = None
    zone: str = ""
    seat: str | None = None
    ended: bool = False

    def body(self) -> Data:
        data: Data = {**self.signed(), "key": self.key}
        data.update({k: v for k, v in (("until", self.until), ("seat", self.seat)) if v})
        if self.until:
            data["zone"] = self.zone
        if self.ended:
            data["ended"] = True
        return data


@dataclass_on_first_use()
class Takeback(Entry):
    """A signed `takeback SEQ` (`line`: ask; `needs`: the players whose acceptance it waits
    for), `accept takeback SEQ` or `refuse takeback SEQ` (`player` may be the moderator), or
    `lapse`: a request unanswered by its deadline (no player, no block). It changes no rule."""

    kind: ClassVar[str] = "takeback"
    line: str = ""  # ask | accept | refuse | lapse
    target: int = 0  # the seq of the first block taken back
    player: str = ""
    at: str = ""
    needs: list[str] | None = None  # an ask's: who must accept
    block: str | None = None
    payload_sha256: str | None = None

    def body(self) -> Data:
        data: Data = {"line": self.line, "target": self.target, "player": self.player,
                      "at": self.at}
        if self.needs is not None:
            data["needs"] = self.needs
        if self.block is not None:
            data.update(block=self.block, payload_sha256=self.payload_sha256)
        return data


@dataclass_on_first_use()
class Undo(Entry):
    """A takeback granted: the position (state and pending decisions) is what it was after
    seq `target - 1`; the entries `undone` (target to the one before this) stay in the log,
    taken back."""

    kind: ClassVar[str] = "undo"
    target: int = 0
    undone: list[int] = field(default_factory=list)

    def body(self) -> Data:
        return {"target": self.target, "undone": self.undone}


KINDS: dict[str, type[Entry]] = {
    cls.kind: cls for cls in (Setup, Orders, Sealed, Unseal, Timeout, Replacement, Settings,
                              Reveal, Absence, Pause, Bot, Takeback, Undo)}



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
