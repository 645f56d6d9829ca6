"""The game file: schema, deterministic YAML, the state hash, head-only reads.

Writing files atomically and the game's lock live in pbem.store.files; they are re-exported
here because every writer of a game reaches them as gamefile.write_atomic and gamefile.locked.
"""

from __future__ import annotations

import os
import pickle
import re
import stat
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any

import yaml

from engine.core.records import dataclass_on_first_use
from pbem.errors import CorruptGameError, UsageError
from pbem.store import plain_yaml, yaml_codec
from pbem.store.files import locked as locked
from pbem.store.files import write_atomic as write_atomic
from pbem.store.hashing import canonical_json as canonical_json
from pbem.store.hashing import current_hash as current_hash
from pbem.store.hashing import fingerprint as fingerprint
from pbem.store.hashing import state_hash as state_hash
from pbem.store.plain_data import check_plain_data as check_plain_data
from pbem.store.yaml_codec import BASE_LOADER, loader_for

# Format 2: typed log entries with structured events (pbem.store.entries). Format 3: settings
# changes and timeouts bound into the chain by the header's trail (pbem.pipeline.clock).
# Format 4: the setup entry's settings also fix each seat's name and the moderator's name and
# e-mail (a game begun before keeps its names unbound). An older file is read as it is, and its
# old entries stay as written when a new pbem appends.
FORMAT = 4
READABLE_FORMATS = (1, 2, 3, 4)
TOP_KEYS = ("format", "game", "roster", "randomness", "seq", "state", "agenda", "log")
MAX_FILE_BYTES = 32 << 20  # far above any real game; a bigger file is damage or an attack


@dataclass_on_first_use()  # start-up: made a dataclass only if compared, printed or replaced
class GameFile:
    game: dict[str, Any]
    roster: dict[str, Any]
    randomness: dict[str, Any]
    seq: int
    state: dict[str, Any]
    agenda: list[dict[str, Any]]
    log: list[dict[str, Any]] = field(default_factory=list)
    format: int = FORMAT
    # A moderated Age of Renaissance game's whole state (hands, deck, sealed answers) as
    # (state, agenda), attached from the moderator's secrets file (pbem.store.secrets); never written
    # to the game file, whose `state` and `agenda` are the public part.
    full: tuple[dict[str, Any], list[dict[str, Any]]] | None = field(
        default=None, compare=False, repr=False)

    @property
    def game_id(self) -> str:
        return str(self.game["id"])

    def to_data(self) -> dict[str, Any]:
        return {
            "format": self.format, "game": self.game, "roster": self.roster,
            "randomness": self.randomness, "seq": self.seq, "state": self.state,
            "agenda": self.agenda, "log": self.log,
        }

    @classmethod
    def from_data(cls, data: Any) -> GameFile:
        if not isinstance(data, dict):
            raise CorruptGameError("game file: the top level is not a mapping")
        unknown = [key for key in data if key not in TOP_KEYS]
        if unknown:
            raise CorruptGameError(f"game file: unknown top-level key '{unknown[0]}'; "
                                   f"expected {', '.join(TOP_KEYS)}")
        missing = [key for key in TOP_KEYS if key not in data]
        if missing:
            raise CorruptGameError(f"game file: missing top-level key '{missing[0]}'")
        if data["format"] not in READABLE_FORMATS or isinstance(data["format"], bool):
            raise CorruptGameError(f"game file: format {data['format']} is not supported "
                                   f"(this pbem reads formats 1 to {FORMAT}); a newer pbem "
                                   "wrote it, so upgrade pbem")
        for key, kind in (("game", dict), ("roster", dict), ("randomness", dict), ("seq", int),
                          ("state", dict), ("agenda", list), ("log", list)):
            if not isinstance(data[key], kind):
                raise CorruptGameError(f"game file: '{key}' should be a {kind.__name__}")
        _check_ids(data["game"], data["roster"])
        return cls(data["game"], data["roster"], data["randomness"], data["seq"], data["state"],
                   data["agenda"], data["log"], data["format"])

    def player_ids(self) -> list[str]:
        return [p["id"] for p in self.roster["players"]]

    def roster_entry(self, player_id: str) -> dict[str, Any] | None:
        return next((p for p in self.roster["players"] if p["id"] == player_id), None)


def _check_ids(game: dict[str, Any], roster: dict[str, Any]) -> None:
    """The nested keys every command reads first: the game's id, each seat's id, key and name,
    the moderator's key (a missing one was a KeyError; found by the tamper table in
    tests/security and the fuzz)."""
    if not isinstance(game.get("id"), str):
        raise CorruptGameError("game file: 'game.id' should be a string")
    players = roster.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise CorruptGameError("game file: 'roster.players' should be a list of mappings")
    for index, player in enumerate(players):
        for key in ("id", "key", "name"):
            if not isinstance(player.get(key), str):
                raise CorruptGameError(f"game file: 'roster.players[{index}].{key}' should be "
                                       "a string")
    moderator = roster.get("moderator")
    if moderator is not None and not (isinstance(moderator, dict)
                                      and isinstance(moderator.get("key"), str)):
        raise CorruptGameError("game file: 'roster.moderator.key' should be a string")


# --- YAML -----------------------------------------------------------------------------------





def dump_text(gf: GameFile, backend: str = "c") -> str:
    gf.format = FORMAT  # whatever this pbem writes is the current format
    if backend == "c":  # PyYAML's bytes, written faster (yaml_codec.dump)
        return yaml_codec.dump(gf.to_data())
    return yaml_codec.pyyaml_dump(gf.to_data(), backend)


def parse_data(text: str) -> Any:
    """A YAML text's plain data, read as a game file's text is read (and as cheaply: a head
    this process has just written is not parsed again)."""
    return _safe_load(text, None)


def load_text(text: str, *, loader: type | None = None) -> GameFile:
    if len(text) > MAX_FILE_BYTES:
        raise CorruptGameError(f"game file is over {_cap()}, the most pbem reads")
    return GameFile.from_data(_safe_load(text, loader, ""))


# The last texts parsed or written, as pickles of their data: a process that reads a game again
# unchanged (a bot, an inbox run, `status` then `options` then `apply` in one process), or
# reads the head it has just appended to (the next block of a self-play or an inbox run:
# `dump_appended`), parses its head and trailing entries once. Each hit is a fresh copy, so
# callers may change it. Keyed by the text and whether it was checked (`where` names a place only in errors).
_PARSED: dict[tuple[str, bool], bytes] = {}
_PARSED_KEPT = 16


def _keep_parsed(key: tuple[str, bool], data: Any) -> None:
    try:
        kept = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    except RecursionError:
        return  # nested too deep to keep (damage): left for the checks further on to refuse
    if len(_PARSED) >= _PARSED_KEPT:
        del _PARSED[next(iter(_PARSED))]  # the oldest
    _PARSED[key] = kept


def _remember(text: str, data: dict[str, Any]) -> None:
    """What a dumped text reads back as: the data itself, when it is plain data (a YAML
    round trip of plain data gives it back exactly; self-play checks this byte for byte)."""
    try:
        check_plain_data(data)
    except CorruptGameError:
        return  # not plain: left for a real parse to refuse
    _keep_parsed((text, True), data)


def _safe_load(text: str, loader: type | None, where: str = "", *, check: bool = True) -> Any:
    """YAML without anchors or aliases (one alias can expand a small file exponentially), and
    holding only what JSON holds, checked everywhere; CorruptGameError naming the place.

    `where` is the path of `text` in the file ("" for the whole file, whose line numbers are
    then shown); the log's entries are read one by one (`tail_entries`)."""
    key = (text, check)
    if loader is None and key in _PARSED:
        return pickle.loads(_PARSED[key])  # noqa: S301 - our own pickle of data we parsed
    data = _parse(text, loader, where, check)
    if loader is None:
        _keep_parsed(key, data)
    return data


def _parse(text: str, loader: type | None, where: str, check: bool) -> Any:
    if loader is None:
        try:  # pbem's own layout, read as the safe loader reads it but several times faster
            data = plain_yaml.load(text)
        except plain_yaml.NotPlain:
            pass
        else:
            if check:
                check_plain_data(data, where)
            return data
        loader = BASE_LOADER
    else:
        loader = loader_for(loader)

    def at(mark: Any) -> str:
        return f"line {mark.line + 1}" if mark is not None and not where else f"'{where}'"

    try:
        if "&" in text:  # no anchor without "&", and no alias without an anchor
            for event in yaml.parse(text, Loader=loader):
                if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                    raise CorruptGameError(f"game file: {at(event.start_mark)} has a YAML anchor "
                                           "or alias (&name or *name); a game file holds neither")
        data = yaml.load(text, Loader=loader)  # noqa: S506 - safe loaders only
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        if where:
            raise CorruptGameError(f"game file: '{where}' is not valid YAML") from None
        shown = "" if mark is None else f" at line {mark.line + 1}"
        raise CorruptGameError(f"game file is not valid YAML{shown}") from None
    if check:
        check_plain_data(data, where)
    return data


def read_game_text(path: Path) -> str:
    """The game file's text: a regular file (a FIFO would hang, /dev/zero never ends) of at
    most MAX_FILE_BYTES, in UTF-8."""
    try:
        # O_NONBLOCK: opening a FIFO returns at once, and the fstat below refuses it.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UsageError(f"no game file at {path}") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # before fdopen, which refuses folders
        os.close(descriptor)
        raise UsageError(f"{path} is not a regular file; give the path of a game file")
    with os.fdopen(descriptor, "rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise CorruptGameError(f"game file {path.name} is over {_cap()}, the most pbem reads")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CorruptGameError(f"game file {path.name} is not UTF-8 text (byte {error.start})") \
            from None


def _cap() -> str:
    return f"{MAX_FILE_BYTES} bytes ({MAX_FILE_BYTES / (1 << 20):g} MB)"


def load(path: Path) -> GameFile:
    return load_text(read_game_text(path))


def check_state(gf: GameFile) -> None:
    """A whole game's state must be where its log's last entry says (as load_head checks), so
    a hand-edited state is a corrupt file, never a crash further on (verify names the entry)."""
    last = gf.log[-1] if gf.log else None
    if isinstance(last, dict) and (last.get("seq") != gf.seq or
                                   last.get("post_state") != current_hash(gf)):
        raise CorruptGameError(f"game file: the log's last entry does not match the state at seq "
                               f"{gf.seq}; run pbem verify")


_LOG_KEY = "\nlog:\n"
_TOP_LEVEL = re.compile(r"^([^\s#-][^:\n]*):", re.MULTILINE)  # a key at column 0
_LINE_START = re.compile(r"\n[^\s#-]")  # where a line may start with one
_EMPTY_LOG = "log: []\n"


def load_head(path: Path) -> tuple[GameFile, str | None]:
    """The game without parsing its log (which only grows): the GameFile has an empty log and
    the log's YAML text comes back as is, for `dump_appended`. None when it cannot be split."""
    text = read_game_text(path)
    # `log` is the last top-level key; nested keys are indented, so this finds the top one.
    at = text.find(_LOG_KEY)
    if at < 0 or not text.endswith("\n"):
        whole = load_text(text)
        check_state(whole)  # the same check as the split read's check_tail
        return whole, None
    head = load_text(text[:at + 1] + _EMPTY_LOG)
    log_text = text[at + len(_LOG_KEY):]
    check_tail(head, log_text)
    return head, log_text


def _top_level_key(text: str) -> re.Match[str] | None:
    """_TOP_LEVEL.search(text), several times quicker on a long log: only a line starting
    with none of whitespace, `#` and `-` can hold a top-level key."""
    found = _TOP_LEVEL.match(text)
    for start in () if found else _LINE_START.finditer(text):
        found = _TOP_LEVEL.match(text, start.start() + 1)
        if found:
            break
    return found


def check_tail(head: GameFile, log_text: str) -> None:
    """A cheap check that the log's last entry is where the head says the game is: it must
    parse, and name the head's seq and state hash (a full check is `pbem verify`)."""
    stray = _top_level_key(log_text)
    if stray is not None:
        key = stray.group(1)
        if key in TOP_KEYS:
            raise CorruptGameError(f"game file: '{key}' comes after 'log', which must be last")
        raise CorruptGameError(f"game file: unknown top-level key '{key}'; expected "
                               f"{', '.join(TOP_KEYS)}")
    seen = [0]

    def first_only(entry: dict[str, Any]) -> bool:
        seen[0] += 1
        return seen[0] == 1

    last = tail_entries(log_text, first_only)
    if not last or last[-1].get("seq") != head.seq or \
            last[-1].get("post_state") != current_hash(head):
        raise CorruptGameError(f"game file: the log's last entry does not match the state at seq "
                               f"{head.seq}; run pbem verify")


def dump_appended(gf: GameFile, old_log: str) -> str:
    """The whole file, byte-identical to dump_text() of the full game: `gf.log` holds only the
    new entries, appended after the old log's text."""
    shown = GameFile(gf.game, gf.roster, gf.randomness, gf.seq, gf.state, gf.agenda, [],
                     gf.format)
    head = dump_text(shown)
    _remember(head, shown.to_data())  # what load_head of the new file parses
    if not head.endswith(_EMPTY_LOG):
        raise CorruptGameError("game file: the log is not the last key")
    new = yaml_codec.dump(gf.log) if gf.log else ""
    return head[:-len(_EMPTY_LOG)] + "log:\n" + old_log + new


def tail_entries(log_text: str, keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """The last entries of a log's YAML text, oldest first, for as long as `keep` holds going
    back from the newest; each top-level entry starts with "- " at the line start (nested
    lines are indented), so only the entries asked for are parsed."""
    found: list[dict[str, Any]] = []
    end = len(log_text)
    while end > 0:
        start = log_text.rfind("\n- ", 0, end - 1) + 1
        if start == 0 and not log_text.startswith("- "):
            break
        where = f"log[-{len(found) + 1}]"
        parsed = _safe_load(log_text[start:end], None, where, check=False)
        if not isinstance(parsed, list) or len(parsed) != 1 or not isinstance(parsed[0], dict):
            raise CorruptGameError("game file: the log's last entries cannot be read")
        check_plain_data(parsed[0], where)
        if not keep(parsed[0]):
            break
        found.append(parsed[0])
        end = start
    return found[::-1]
