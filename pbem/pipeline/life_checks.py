"""verify's checks of absences and pauses (issue 24), in the public pass (they need no state,
so they hold before a moderated game's reveal too).

Each `absence`, `pause` and `bot` entry is re-run through the same transitions the live path ran
(pbem.pipeline.life), with the allowance, time zones and proposal window the log had in force
then: its line must be its signed block's, its end the date read in the player's zone, its
events what the transition says, and a refused request can never have been logged. Each
timeout must not have answered for a player away at the time, nor (unless the moderator forced
it) run during a pause or on a clock started before an absence or a pause ended. An orders
entry signed by a bot's key must be for a seat handed to that key then. At the end, the
roster's `life` record must be the one the log rebuilds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime

from pbem.delivery.deadlines import MODERATOR, Policy, parse_duration, parse_time, policy_from
from pbem.errors import CorruptGameError, PbemError
from pbem.orders.life_lines import LifeLine, life_line
from pbem.orders.orderblock import OrderBlock, find_blocks
from pbem.orders.signatures import parse_public_key, verify
from pbem.pipeline.life import LIFE, PROPOSAL_WINDOW, Life, until_of
from pbem.pipeline.replace import moderator_key
from pbem.store.entries import (
    Absence,
    Bot,
    Entry,
    Pause,
    Replacement,
    Settings,
    Setup,
    Timeout,
)
from pbem.store.gamefile import GameFile
from pbem.store.hashing import same_json


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


def _moment(seq: int, text: str | None) -> datetime:
    try:
        return parse_time(str(text))
    except PbemError:
        raise _bad(seq, f"'{str(text)[:40]}' is not a time pbem writes") from None


def check_signed(gf: GameFile, entry: Absence | Pause | Bot, keys: Mapping[str, str],
                 window: Mapping[int, str]) -> LifeLine | None:
    """The entry's block: this game, written against a state in `window`, signed by its
    player (or the moderator), holding the entry's one line. None for a lapse."""
    if isinstance(entry, Pause) and entry.line == "lapse":
        if entry.block is not None or entry.player:
            raise _bad(entry.seq, "a lapse carries no block and no player")
        return None
    if isinstance(entry, Bot) and entry.ended:
        if entry.block or entry.payload_sha256 or entry.key:
            raise _bad(entry.seq, "a handover's end carries no block and no key")
        return None
    found = find_blocks(entry.block or "")
    if len(found) != 1:
        raise _bad(entry.seq, "the stored block cannot be read")
    block = found[0]
    if hashlib.sha256(block.payload()).hexdigest() != entry.payload_sha256:
        raise _bad(entry.seq, "payload hash does not match the block")
    _check_header(gf, entry, block, window)
    try:
        line = life_line(block)
        key = moderator_key(gf) if entry.player == MODERATOR else \
            parse_public_key(keys[entry.player])
        verify(key, block.payload(), block.signature or "")
    except (PbemError, KeyError) as error:
        raise _bad(entry.seq, f"{entry.kind}: {error}") from None
    if line is None or _verb(entry) != line.verb or \
            isinstance(entry, Bot) and (entry.key != line.bot or entry.seat != line.seat):
        raise _bad(entry.seq, f"{entry.kind}: the entry is not what its block says")
    return line


def _verb(entry: Absence | Pause | Bot) -> str:
    if isinstance(entry, Pause):
        return entry.line
    if isinstance(entry, Bot):
        return "bot"
    return "away" if entry.until is not None else "back"


def _check_header(gf: GameFile, entry: Absence | Pause | Bot, block: OrderBlock,
                  window: Mapping[int, str]) -> None:
    if (block.player or "").lower() != entry.player or \
            (block.game or "").lower() != gf.game_id.lower():
        raise _bad(entry.seq, f"{entry.kind}: the block is not this game's or this player's")
    if block.seq is None or window.get(block.seq) != (block.state or "").lower():
        raise _bad(entry.seq, "the block was not written against the state before it")


class LifeCheck:
    """The fold of the log that verify runs: the settings in force and the life record."""

    def __init__(self, gf: GameFile) -> None:
        self.gf, self.life = gf, Life({}, {})
        self.policy: Policy | None = None
        self.zones: dict[str, str] | None = None  # None: a game whose setup predates format 4
        # binds no time zone (its roster's are set unlogged), so an absence's zone is as logged
        self.logged = False  # whether any absence or pause was logged

    def see(self, entry: Entry, line: LifeLine | None) -> None:
        """Fold one entry in; `line` is an absence's or pause's checked line."""
        if isinstance(entry, Setup) and entry.settings is not None:
            self.policy = policy_from(dict(entry.settings["deadlines"]))
            if "seats" in entry.settings:
                self.zones = dict(entry.settings["seats"].get("timezone", {}))
        elif isinstance(entry, Settings):
            if entry.deadlines is not None:
                self.policy = policy_from(entry.deadlines)
            if self.zones is not None:
                self.zones.update((entry.seats or {}).get("timezone", {}))
        elif isinstance(entry, Replacement) and entry.new.get("timezone") is not None:
            if self.zones is not None:
                self.zones[entry.player] = str(entry.new["timezone"])
        elif isinstance(entry, Timeout) and not entry.legacy:
            self.timeout(entry)
        elif isinstance(entry, Absence | Pause | Bot):
            self.logged = True
            if not (isinstance(entry, Bot) and entry.ended) and \
                    self.life.handovers_ended(_moment(entry.seq, entry.at)):
                raise _bad(entry.seq, f"{entry.kind}: a handover to a bot had ended, unlogged")
            try:
                events = self.absence(entry, line) if isinstance(entry, Absence) else \
                    self.pause(entry, line) if isinstance(entry, Pause) else \
                    self.bot(entry, line)
            except PbemError as error:
                raise _bad(entry.seq, f"{entry.kind}: it was refused when it came ({error})"
                           ) from None
            if not same_json(events, entry.events or []):
                raise _bad(entry.seq, f"{entry.kind}: the events do not match what it did")

    def absence(self, entry: Absence, line: LifeLine | None) -> list[object]:
        at = _moment(entry.seq, entry.at)
        if self.policy is None:
            raise _bad(entry.seq, "an absence before the game's settings are logged")
        if line is None or line.verb == "back":
            return [self.life.come_back(entry.player, at)]
        if self.zones is not None and entry.zone != self.zones.get(entry.player, ""):
            raise _bad(entry.seq, "absence: its time zone is not the player's")
        until = until_of(line, entry.zone)
        if entry.until is None or _moment(entry.seq, entry.until) != until:
            raise _bad(entry.seq, "absence: its end is not the signed date in the player's zone")
        allowance = self.policy.absence
        return [self.life.go_away(entry.player, at, until,
                                  parse_duration(allowance) if allowance else None)]

    def bot(self, entry: Bot, line: LifeLine | None) -> list[object]:
        at = _moment(entry.seq, entry.at)
        if entry.ended:
            try:
                return [self.life.end_handover(entry.player, at)]
            except ValueError as error:
                raise _bad(entry.seq, f"bot: {error}") from None
        if entry.key is None:
            return [self.life.take_back(entry.seat or entry.player, by=entry.player)]
        if self.zones is not None and entry.until and \
                entry.zone != self.zones.get(entry.player, ""):
            raise _bad(entry.seq, "bot: its time zone is not the player's")
        until = until_of(line, entry.zone) if line and line.day else None
        if (entry.until and _moment(entry.seq, entry.until)) != until:
            raise _bad(entry.seq, "bot: its end is not the signed date in the player's zone")
        return [self.life.hand_to_bot(entry.player, entry.key, until, at)]

    def pause(self, entry: Pause, line: LifeLine | None) -> list[object]:
        at = _moment(entry.seq, entry.at)
        if entry.line == "lapse":
            try:
                return [self.life.lapse(at)]
            except ValueError as error:
                raise _bad(entry.seq, f"pause: {error}") from None
        if self.life.lapsing(at):
            raise _bad(entry.seq, "pause: the proposal before it had lapsed, unlogged")
        if entry.line == "resume":
            return [self.life.resume(entry.player, at)]
        held = (self.policy.decisions if self.policy else {}).get("default")
        window = parse_duration(held) if held else PROPOSAL_WINDOW
        return list(self.life.propose(entry.player, at, self.gf.player_ids(), window))

    def timeout(self, entry: Timeout) -> None:
        at = _moment(entry.seq, entry.at)
        if self.life.handovers_ended(at):
            raise _bad(entry.seq, "timeout: a handover to a bot had ended, unlogged")
        away = self.life.away_until(entry.player, at)
        if away is not None:
            raise _bad(entry.seq, f"timeout: {entry.player} was away then")
        if entry.forced:
            return
        if self.life.paused:
            raise _bad(entry.seq, "timeout: it ran while the game was paused")
        record = self.life.away.get(entry.player) or {}
        ends = [self.life.pause.get("resumed"), record.get("until")]
        started = _moment(entry.seq, entry.started)
        if any(started < _moment(entry.seq, end) for end in ends if end):
            raise _bad(entry.seq, "timeout: its clock started before an absence or a pause "
                       "ended (it restarts from the full deadline)")

    def bot_key(self, entry: Entry) -> str | None:
        """The bot's key that signed an orders or sealed entry for its seat, checked against the seat's
        handover then; None for the player's own key."""
        bot = getattr(entry, "bot", None)
        if bot is None:
            return None
        try:
            fingerprint = parse_public_key(str(bot)).fingerprint()
        except PbemError as error:
            raise _bad(entry.seq, f"its bot key: {error}") from None
        if not self.life.bot_signs(str(getattr(entry, "player", "")), fingerprint):
            raise _bad(entry.seq, f"signed by the bot key {fingerprint}, which the seat was "
                       "not handed to then")
        return str(bot)

    def finish(self) -> None:
        held = self.gf.roster.get(LIFE)
        if held != (self.life.data() if self.logged else None):
            raise CorruptGameError("the roster's absences and pauses are not the ones its "
                                   "logged absence and pause entries set")
