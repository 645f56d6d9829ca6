"""`verify`: one replay for every ruleset and mode, dispatched on the log entry's kind.

Two passes. The public pass needs only the game file: the hash chain, every signature and
payload hash, the state each block was written against, every opened sealed block against its
commitment, and a revealed seed against the commitment. The replay pass rebuilds the game from
the setup: with the seed every draw is re-derived; without it (a moderated game before the
reveal) the recorded draws are replayed, each checked to be possible; a game with hidden
information needs the seed (the moderator's secrets file, or the reveal). After each entry the
state hash, the draws and the structured events must be what the log says. Words are never
compared: a format-1 entry's `summary` is shown as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import sealing
from engine.core.adjudicate import Known, adjudicate, run_automatic
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.chance import Chance, Draw, ReplayChance, ReplayMismatch, SeededChance
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Event, Table
from pbem.delivery.deadlines import Policy, policy_from
from pbem.errors import CorruptGameError, UsageError
from pbem.pipeline import clock
from pbem.pipeline.defaults import apply_defaults, timeout_event
from pbem.pipeline.game import Game, from_gamefile
from pbem.pipeline.record import split_sealed, timed_out, unseal_event
from pbem.pipeline.replay_checks import check_head, check_public, first_keys, one_block, roster_step
from pbem.pipeline.roster_checks import check_roster
from pbem.pipeline.seals import commitment, matching_block, seal_salt, withdraw
from pbem.pipeline.takeback_rules import undone_event
from pbem.rulesets import catalog_of, setup_seats
from pbem.store import sandbox, seeds
from pbem.store.entries import (
    Absence,
    Bot,
    Entry,
    Orders,
    Pause,
    Replacement,
    Sealed,
    Settings,
    Setup,
    Takeback,
    Timeout,
    Undo,
    Unseal,
    public_events,
)
from pbem.store.entry_reader import read_all
from pbem.store.gamefile import GameFile, current_hash
from pbem.store.hashing import same_json
from pbem.store.projection import RECEIVED
from pbem.store.secrets import Secrets


@dataclass
class Verified:
    entries: int
    seed_checked: bool
    final_state: str
    replayed: bool = True


def keep_ruleset_version(state: dict[str, Any], version: int) -> None:
    """A game plays by the rulings of the ruleset version it began with (game.ruleset_version);
    a state set up before its ruleset had versions holds no `ruleset_version` (version 1)."""
    if version > 1:
        state["ruleset_version"] = version
    else:
        state.pop("ruleset_version", None)


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


def verify(path: Path, gf: GameFile, secrets_file: Path | None = None,
           expect: Sequence[tuple[int, str]] = ()) -> Verified:
    """Check the whole log; raise naming the first bad entry. `expect` holds (seq, state
    fingerprint) pairs a player was told (receipts and reports carry them): a game rolled back
    or forked past one of them fails, even when its own chain is whole."""
    entries = read_all(gf.log)
    if not entries or entries[0].kind != "setup":
        raise CorruptGameError("log: the first entry must be the setup")
    for seq, state in expect:
        if not 0 <= seq < len(entries) or not entries[seq].post_state.startswith(state.lower()):
            raise CorruptGameError(f"the game does not pass through seq {seq} state {state}: "
                                   "this file was rolled back or is another game's history")
    check_head(gf, entries)
    keys = first_keys(gf, entries)
    check_public(gf, entries, dict(keys))
    check_roster(gf, entries)  # names, e-mails and deadlines, rebuilt from the log
    seed = seeds.known_seed(path, gf, secrets_file)
    game = from_gamefile(gf, seed, path)
    if game.projection.hidden and seed is None:
        return Verified(len(entries), False, current_hash(gf), replayed=False)
    held = None
    if game.projection.hidden and not gf.randomness.get("seed"):
        from pbem.store import secrets  # the moderator's file, read only here

        held = secrets.read(secrets_file or seeds.seed_path(path, gf))
    Replay(game, entries, held, keys).run()
    return Verified(len(entries), seed is not None, current_hash(gf))


def rebuild(game: Game, held: Secrets) -> Table:
    """The whole state of a game with hidden information, from its log and secrets."""
    entries = read_all(game.gf.log)
    return Replay(game, entries, held, first_keys(game.gf, entries)).run()


class Replay:
    def __init__(self, game: Game, entries: list[Entry], held: Secrets | None,
                 keys: dict[str, str]) -> None:
        self.game, self.entries, self.keys = game, entries, keys
        self.gf, self.ruleset = game.gf, game.ruleset
        self.blocks: dict[tuple[str, str], str] = dict(held.sealed_blocks()) if held else {}
        for entry in entries:
            if isinstance(entry, Unseal):
                for player, text in entry.blocks.items():
                    self.blocks[(entry.node, player)] = text
        # The sealed answers a newer one replaced before the unseal (issue 24): their blocks are
        # never opened; each is replayed with the block that counts, its commitment is checked
        # through the `replaces` of the entry after it.
        last: dict[tuple[str, str], int] = {}
        for entry in entries:
            if isinstance(entry, Sealed):
                last[(entry.node, entry.player)] = entry.seq
        self.superseded = {e.seq for e in entries
                           if isinstance(e, Sealed) and last[(e.node, e.player)] != e.seq}
        copies = held.sealed_copies() if held is not None and game.seed is not None else {}
        for entry in entries:
            if isinstance(entry, Sealed) and entry.seq not in self.superseded and \
                    len(copies.get((entry.node, entry.player), [])) > 1:
                assert game.seed is not None
                found = matching_block(game.seed, self.gf.game_id, {
                    "node": entry.node, "player": entry.player, "replaces": entry.replaces,
                    "commitment": entry.commitment}, copies[(entry.node, entry.player)])
                if found is not None:
                    self.blocks[(entry.node, entry.player)] = found
        self.raw = self.gf.log
        # The header as it stood (its trail grows with the settings and timeouts), and the
        # deadlines and e-mails in force, rebuilt from the log (None: a game begun before
        # format 3, until its adopted snapshot).
        self.header = {k: v for k, v in self.gf.game.items() if k != clock.TRAIL}
        self.policy: Policy | None = None
        self.emails: dict[str, str] = {}
        # The legal answers at the state the last entry left, when it was a block adjudicated
        # here (computed while settling it): the next block's first line does not recompute them.
        self.known: Known = {}
        # The positions a takeback returns to (issue 24 §4): kept after the seq before each
        # undo's target, and restored by the undo.
        self.marks = {e.target - 1 for e in entries if isinstance(e, Undo)}
        self.kept: dict[int, Table] = {}

    def hash_of(self, seq: int, table: Table) -> str:
        return self.game.projection.hash(self.ruleset, self.header, seq, table.state,
                                         table.agenda)

    def chance(self, entry: Entry, next_n: int) -> Chance:
        if self.game.seed is not None:
            return SeededChance(self.game.seed, self.gf.game_id, next_n)
        recorded = [Draw(int(str(d["n"])), str(d["purpose"]), str(d["outcome"]))
                    for d in entry.draws]
        return ReplayChance(recorded, next_n)

    def run(self) -> Table:
        table = self.replay()
        if current_hash(self.gf) != self.hash_of(self.gf.seq, table) or \
                self.entries[-1].seq != self.gf.seq:
            raise CorruptGameError("the state in the file does not match the replayed log "
                                   f"(after log entry seq {self.entries[-1].seq})")
        if self.keys != {p["id"]: p["key"] for p in self.gf.roster["players"]}:
            raise CorruptGameError("the roster's keys do not match its logged roster changes")
        return table

    def replay(self) -> Table:
        """Every entry replayed and checked against the log; the position after the last."""
        table = self.setup(self.entries[0])
        self.keep(0, table)
        for entry in self.entries[1:]:
            seq = entry.seq
            chance = self.chance(entry, int(table.state["draws"]))
            try:
                events = self.step(table, entry, chance)
            except (RuleError, ReplayMismatch, InvariantViolation, ValueError) as error:
                verb = "do" if entry.kind == "orders" else "does"
                raise _bad(seq, f"the {entry.kind} {verb} not replay: {error}") from None
            if self.game.projection.draws(self.ruleset, chance.draws) != entry.draws:
                raise _bad(seq, "the draws do not match the log")
            table.state["draws"] = int(table.state["draws"]) + len(chance.draws)
            if events is not None and entry.events is not None and \
                    not same_json(public_events(events), entry.events):
                raise _bad(seq, "the events do not match what the entry did")
            if self.hash_of(seq, table) != entry.post_state:
                raise _bad(seq, "the replay does not produce the recorded post_state")
            self.keep(seq, table)
        return table

    def keep(self, seq: int, table: Table) -> None:
        if seq in self.marks:
            self.kept[seq] = table.copy()

    def setup(self, entry: Entry) -> Table:
        if entry.seq != 0:
            raise _bad(entry.seq, "the setup must be seq 0")
        if isinstance(entry, Setup) and entry.settings is not None:
            self.header[clock.TRAIL] = clock.start(entry.settings)
            self.adopt(entry.settings)
        forked = sandbox.start_table(self.gf, catalog_of(self.gf))
        if forked is not None:  # a sandbox begins where it was forked (pbem.pipeline.fork)
            if entry.draws or entry.events or self.hash_of(0, forked) != entry.post_state:
                raise _bad(0, "the sandbox does not begin at the position its header holds")
            return forked
        chance = self.chance(entry, 0)
        try:
            table, events = self.ruleset.setup(catalog_of(self.gf), self.gf.game_id,
                                               setup_seats(self.gf),
                                               dict(self.gf.game["options"]), chance)
            events += run_automatic(self.ruleset, table, chance)
        except (ReplayMismatch, ValueError) as error:
            raise _bad(0, f"setup does not replay: {error}") from None
        keep_ruleset_version(table.state, int(self.gf.game.get("ruleset_version", 1)))
        table.state["draws"] = len(chance.draws)
        if self.game.projection.draws(self.ruleset, chance.draws) != entry.draws:
            raise _bad(0, "the draws do not match the log")
        if self.hash_of(0, table) != entry.post_state:
            raise _bad(0, "the setup does not produce the recorded state")
        if entry.events is not None and \
                not same_json(public_events(events), entry.events):
            raise _bad(0, "the events do not match what the setup did")
        return table

    def step(self, table: Table, entry: Entry, chance: Chance) -> list[Event] | None:
        """Apply one entry in place; the public events it made (None: nothing to compare)."""
        node = next_pending(table.agenda)
        parallel = str(node["id"]) if node is not None and is_parallel(node) else None
        if isinstance(entry, Orders | Timeout | Sealed) and entry.node != parallel:
            raise ValueError("the entry's node does not match the decision pending")
        known, self.known = self.known, {}
        if isinstance(entry, Orders):
            if node is not None and sealing.is_committing(node) and \
                    sealing.stage(node) == sealing.SEAL and entry.player in node["seals"]:
                withdraw(node, entry.player)  # a newer seal replaces the earlier one
                known = {}
            return self.adjudicate(table, entry.player, one_block(entry.seq, entry.block), chance,
                                   known)
        if isinstance(entry, Sealed):
            return self.sealed(table, entry, chance)
        if isinstance(entry, Unseal):
            return self.unseal(table, entry, chance)
        if isinstance(entry, Timeout):
            return self.timeout(table, entry, chance)
        if isinstance(entry, Settings):
            return self.settings(entry)
        if isinstance(entry, Absence | Pause | Bot | Takeback):  # checked by the public pass
            clock.bind(self.header, entry)
            return None
        if isinstance(entry, Undo):
            return self.undo(table, entry)
        roster_step(self.gf, entry, self.keys)  # replacement or reveal: the state stays
        if isinstance(entry, Replacement) and self.policy is not None and "email" in entry.new:
            self.emails[entry.player] = str(entry.new["email"])
        return None

    def undo(self, table: Table, entry: Undo) -> list[Event]:
        """A granted takeback: the position kept after the seq before its target."""
        kept = self.kept.get(entry.target - 1)
        if kept is None:
            raise ValueError(f"seq {entry.target - 1} is not a position of this log")
        restored = kept.copy()
        table.state, table.agenda = restored.state, restored.agenda
        clock.bind(self.header, entry)
        return [undone_event(entry.target, entry.undone)]

    def adopt(self, settings: dict[str, object]) -> None:
        self.policy = policy_from(dict(settings["deadlines"]))  # type: ignore[call-overload]
        self.emails = dict(settings["emails"])  # type: ignore[call-overload]

    def settings(self, entry: Settings) -> list[Event]:
        if entry.adopted != (self.policy is None):
            raise ValueError("only a game begun before format 3 adopts its settings, once, "
                             "before any other settings change")
        clock.bind(self.header, entry)
        if entry.adopted:
            if entry.deadlines is None or entry.emails is None:
                raise ValueError("the adopted settings are not whole")
            self.adopt({"deadlines": entry.deadlines, "emails": entry.emails})
        else:
            assert self.policy is not None
            if entry.deadlines is not None:
                self.policy = policy_from(entry.deadlines)
            for player, address in (entry.emails or {}).items():
                if player not in self.emails:
                    raise ValueError(f"unknown player '{player}'")
                self.emails[player] = address
        return [clock.settings_event(entry.deadlines, entry.emails, entry.seats,
                                     entry.language)]

    def adjudicate(self, table: Table, player: str, block: object, chance: Chance,
                   known: Known | None = None) -> list[Event]:
        lines = [(line.number, line.text) for line in block.lines]  # type: ignore[attr-defined]
        outcome = adjudicate(self.ruleset, table, player, lines, chance, in_place=True,
                             known=known)
        self.known = outcome.options
        return outcome.events

    def sealed(self, table: Table, entry: Sealed, chance: Chance) -> list[Event] | None:
        pending = next_pending(table.agenda)
        assert pending is not None
        text = self.blocks.get((entry.node, entry.player))
        if text is None:
            raise UsageError(f"the sealed block of {entry.player} (log entry seq {entry.seq}) "
                             "is not in the secrets file; ask the player to send it again")
        block = one_block(entry.seq, text)
        assert self.game.seed is not None
        salt = seal_salt(self.game.seed, self.gf.game_id, entry.node, entry.player,
                         entry.replaces)
        if entry.seq not in self.superseded and \
                commitment(salt, block.payload()) != entry.commitment:
            raise ValueError(f"{entry.player}'s sealed block does not match its commitment")
        if waiting_for(table.agenda) == [entry.player]:  # the unseal entry resolves it
            pending["answers"] = dict(sorted({**pending["answers"],
                                              entry.player: RECEIVED}.items()))
            return None
        if entry.replaces is not None:  # the newer answer is adjudicated in its place
            if entry.player not in pending["answers"]:
                raise ValueError(f"{entry.player} has no earlier sealed answer to replace")
            withdraw(pending, entry.player)
        return self.adjudicate(table, entry.player, block, chance)

    def unseal(self, table: Table, entry: Unseal, chance: Chance) -> list[Event]:
        pending = next_pending(table.agenda)
        if pending is None or pending["id"] != entry.node or \
                pending["answers"].get(entry.last) != RECEIVED:
            raise ValueError("the unseal does not follow the last sealed answer")
        del pending["answers"][entry.last]
        if entry.last_default is not None:
            work, _, events = apply_defaults(self.ruleset, table, entry.last, chance,
                                             logged=[entry.last_default])
            table.state, table.agenda = work.state, work.agenda
        elif (entry.node, entry.last) in self.blocks:
            events = self.adjudicate(table, entry.last,
                                     one_block(entry.seq, self.blocks[(entry.node, entry.last)]),
                                     chance)
        else:
            raise ValueError(f"{entry.last}'s last answer has neither a block nor a default")
        noted, resolved = split_sealed(events)
        self.check_last_answer(entry, public_events(noted))
        defaults = timed_out(self.raw[:entry.seq], entry.node)
        return [unseal_event(dict(entry.blocks), defaults), *resolved]

    def check_last_answer(self, entry: Unseal, noted: list[Event]) -> None:
        """The last sealed answer's own entry (a commitment, or a timeout) is replayed here, by
        the unseal: its events must be what answering did (found by the tamper table)."""
        last = self.entries[entry.seq - 1]
        if entry.last_default is not None:
            noted = [timeout_event(entry.last, [entry.last_default]), *noted]
        if last.events is not None and not same_json(last.events, noted):
            raise _bad(last.seq, "the events do not match what the last sealed answer did")

    def timeout(self, table: Table, entry: Timeout, chance: Chance) -> list[Event] | None:
        pending = next_pending(table.agenda)
        nmr = "skip"  # a timeout written before format 3: replayed as it always was
        if entry.legacy != (self.policy is None):
            raise ValueError("a timeout without its clock (started, at) in a game whose "
                             "settings are logged" if entry.legacy else
                             "a timeout with a clock before the game's settings are logged")
        if self.policy is not None:
            clock.check_timeout(self.gf, entry, self.policy,
                                str(pending["action"]) if pending is not None else None)
            clock.bind(self.header, entry)
            nmr = self.policy.nmr
        if self.game.projection.hidden and pending is not None and pending.get("sealed") and \
                waiting_for(table.agenda) == [entry.player]:
            pending["answers"] = dict(sorted({**pending["answers"],
                                              entry.player: RECEIVED}.items()))
            return None  # its default is applied by the unseal entry
        work, _, events = apply_defaults(self.ruleset, table, entry.player, chance,
                                         nmr=nmr, logged=entry.lines)
        table.state, table.agenda = work.state, work.agenda
        return [timeout_event(entry.player, entry.lines), *events]
