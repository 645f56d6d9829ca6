"""verify's checks of takebacks (issue 24 §4), in the public pass: every `takeback` entry's
block is this game's, written against a state its window allows, signed by its player (or the
moderator) and says what the entry says, once; each request is re-checked against the log
before it (what may be taken back, who must accept) and folded through the same consent the
live path runs (pbem.pipeline.takeback_rules); each `undo` follows a granted request and names
the entries it undoes. The replay pass then restores the position (pbem.pipeline.replay)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping

from pbem.delivery.deadlines import MODERATOR, Policy, parse_duration, parse_time
from pbem.errors import CorruptGameError, PbemError
from pbem.orders.orderblock import find_blocks
from pbem.orders.signatures import parse_public_key, verify
from pbem.orders.takeback_lines import takeback_line
from pbem.pipeline.life import PROPOSAL_WINDOW
from pbem.pipeline.replace import moderator_key
from pbem.pipeline.takeback_rules import Consent, Refused, changed, needed, said, undone_event
from pbem.store.entries import Entry, Takeback, Timeout, Undo
from pbem.store.gamefile import GameFile
from pbem.store.hashing import same_json


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


class TakebackCheck:
    def __init__(self, gf: GameFile, entries: list[Entry]) -> None:
        self.gf, self.entries = gf, entries
        self.consent = Consent()
        self.digests: set[str] = set()

    def see(self, entry: Entry, keys: Mapping[str, str],
            window: Callable[[], Mapping[int, str]], policy: Policy | None) -> None:
        """Fold one entry in (every entry: a block or a timeout closes an open request), with
        the deadlines `policy` then in force."""
        seq = entry.seq
        try:
            if isinstance(entry, Takeback):
                self.signed(entry, keys, window())
                if entry.line == "ask" and entry.needs != needed(
                        self.entries[:seq], entry.target, entry.player):
                    raise Refused("it does not wait for the players who acted since")
                if entry.line == "lapse":
                    self.lapse(entry, policy)
                if not same_json(entry.events or [], [said(entry)]):
                    raise Refused("the events do not match what it did")
            elif isinstance(entry, Undo):
                if entry.undone != changed(self.entries[:seq], entry.target) or \
                        not same_json(
                            entry.events or [], [undone_event(entry.target, entry.undone)]):
                    raise Refused("it does not name the entries it undoes")
            self.consent.see(entry)
        except (Refused, PbemError) as error:
            raise _bad(seq, f"{entry.kind}: {error}") from None

    def lapse(self, entry: Takeback, policy: Policy | None) -> None:
        """A request lapses at its deadline (the game's `default` one from the ask), or just
        before a timeout run answers for someone (the timeout entry follows it)."""
        ask, seq = self.consent.ask, entry.seq
        if ask is None:
            return  # the consent fold says why
        held = (policy.decisions if policy else {}).get("default")
        due = parse_time(ask.at) + (parse_duration(held) if held else PROPOSAL_WINDOW)
        timed_out = seq + 1 < len(self.entries) and isinstance(self.entries[seq + 1], Timeout)
        if parse_time(entry.at) < due and not timed_out:
            raise Refused("it lapsed before its deadline, and no timeout followed")

    def signed(self, entry: Takeback, keys: Mapping[str, str],
               window: Mapping[int, str]) -> None:
        if entry.line == "lapse":
            if entry.block is not None or entry.player:
                raise Refused("a lapse carries no block and no player")
            return
        found = find_blocks(entry.block or "")
        if len(found) != 1:
            raise Refused("the stored block cannot be read")
        block = found[0]
        if hashlib.sha256(block.payload()).hexdigest() != entry.payload_sha256:
            raise Refused("payload hash does not match the block")
        if entry.payload_sha256 in self.digests:
            raise Refused("its block was applied before")
        self.digests.add(entry.payload_sha256)
        if (block.player or "").lower() != entry.player or \
                (block.game or "").lower() != self.gf.game_id.lower():
            raise Refused("the block is not this game's or this player's")
        if block.seq is None or window.get(block.seq) != (block.state or "").lower():
            raise Refused("the block was not written against the state before it")
        if entry.player not in keys and entry.player != MODERATOR:
            raise Refused(f"unknown player '{entry.player}'")
        key = moderator_key(self.gf) if entry.player == MODERATOR else \
            parse_public_key(keys[entry.player])
        verify(key, block.payload(), block.signature or "")
        line = takeback_line(block)
        if line is None or (line.verb, line.target) != (entry.line, entry.target):
            raise Refused("the entry is not what its block says")

    def finish(self) -> None:
        if self.consent.due:
            raise _bad(self.entries[-1].seq, "a granted takeback is not followed by its undo")
