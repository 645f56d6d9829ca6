"""Takebacks by consent (issue 24 §4) as data: what may be taken back, who must accept, and
the one fold over the log's takeback entries that both the live path (pbem.pipeline.takeback)
and verify (pbem.pipeline.takeback_checks) run, so they cannot disagree.

A takeback never undoes randomness or a revealed secret. That is read from the log, never
from words: an entry that drew (its `draws`: a card from the deck, a market refill, a shuffle,
a die roll) is final, and so is one that sealed, opened or revealed something (`sealed`,
`unseal`, `reveal`), or answered a simultaneous decision (other players' answers were in)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import sealing
from engine.core.errors import Reason, Verbatim, because
from engine.core.table import Event, event
from pbem.delivery.deadlines import MODERATOR
from pbem.errors import REASONS
from pbem.orders.orderblock import find_blocks
from pbem.pipeline.game import QUIET_KINDS
from pbem.store.entries import Entry, Orders, Takeback, Undo
from pbem.store.entry_reader import read as read_entry

# Entries that never change the position: a takeback leaves them as they are.
_KEPT = (*QUIET_KINDS, "replacement")
_ANSWER_NOTES = ("answered", "sealed")  # an answer's public note, before the decision resolves
_FINAL = ("sealed", "unseal", "reveal", "setup")  # reason:pbem.final_KIND


class Refused(ValueError):
    """A takeback line that cannot be taken: the reason, for the player (keyed where a player
    can meet it; verify's own checks say it in English)."""

    def __init__(self, why: str | Reason) -> None:
        super().__init__(str(why))
        self.why = why if isinstance(why, Reason) else None

    @classmethod
    def keyed(cls, key: str, /, **fields: Any) -> Refused:
        return cls(because(REASONS, key, **fields))


def final_reason(entry: Entry) -> Reason | None:
    """Why this entry can never be taken back (None: it can)."""
    if entry.draws:
        purposes = ", ".join(str(d.get("purpose", "?")) for d in entry.draws[:3])
        return because(REASONS, "reason:pbem.final_drew", purposes=Verbatim(purposes))
    if entry.kind in _FINAL:
        return because(REASONS, f"reason:pbem.final_{entry.kind}")
    if isinstance(entry, Orders) and entry.node is not None:
        return _parallel_reason(entry)
    return None


def _parallel_reason(entry: Orders) -> Reason | None:
    """An answer to a decision every player answers at once is final once it opened a seal,
    or once it was the last answer and the decision resolved (every answer then shown)."""
    if any(sealing.parse_open(line) is not None for line in _lines(entry)):
        return because(REASONS, "reason:pbem.final_opened")
    if any(e.get("kind") not in _ANSWER_NOTES for e in entry.events or []):
        return because(REASONS, "reason:pbem.final_shown")
    return None


def _lines(entry: Orders) -> list[str]:
    found = find_blocks(entry.block)
    return [line.text.lower() for line in found[0].lines] if found else []


def undone_at(entries: Sequence[Entry]) -> dict[int, int]:
    """seq -> the seq of the undo entry that took it back."""
    return {seq: e.seq for e in entries if isinstance(e, Undo) for seq in e.undone}


def changed(entries: Sequence[Entry], target: int) -> list[int]:
    """The seqs a takeback of `target` undoes: every entry since that changed the position."""
    return [e.seq for e in entries[target:] if e.kind not in _KEPT]


def needed(entries: Sequence[Entry], target: int, player: str) -> list[str]:
    """Check a request to take back `target` against the log (`entries`, seq by index); who
    must accept it. Refused says why it cannot be taken."""
    if not 1 <= target < len(entries):
        raise Refused.keyed("reason:pbem.takeback_no_block", seq=target,
                            game_seq=len(entries) - 1)
    first = entries[target]
    if not isinstance(first, Orders):
        raise Refused.keyed("reason:pbem.takeback_not_orders", seq=target,
                            kind=Verbatim(first.kind))
    if player != MODERATOR and first.player != player:
        raise Refused.keyed("reason:pbem.takeback_not_yours", seq=target, player=first.player)
    undone = undone_at(entries)
    taken = undone.get(target)
    if taken is not None:
        raise Refused.keyed("reason:pbem.takeback_taken", seq=target, taken=taken)
    for entry in entries[target:]:
        reason = final_reason(entry)
        if reason is not None:
            raise Refused.keyed("reason:pbem.takeback_final", seq=entry.seq, final=reason)
    if player == MODERATOR:
        return []
    return sorted({e.player for e in entries[target:]  # a block taken back since acted not
                   if isinstance(e, Orders) and e.seq not in undone} - {player})


def said(entry: Takeback) -> Event:
    """The public event of a takeback line."""
    if entry.line == "ask":
        return event("pbem.takeback.asked" if entry.needs else "pbem.takeback.own",
                     kind="takeback", player=entry.player, target=entry.target,
                     needs=", ".join(entry.needs or []))
    if entry.line == "lapse":
        return event("pbem.takeback.lapsed", kind="takeback", target=entry.target)
    return event({"accept": "pbem.takeback.accepted", "refuse": "pbem.takeback.refused"}[
        entry.line], kind="takeback", player=entry.player, target=entry.target)


def undone_event(target: int, undone: list[int]) -> Event:
    return event("pbem.takeback.done", kind="undo", target=target, before=target - 1,
                 undone=list(undone))


@dataclass
class Consent:
    """The open request, folded from the log: its ask and who has accepted it. Any entry that
    changes the position (a block, a timeout) closes it unanswered."""

    ask: Takeback | None = None
    accepted: set[str] = field(default_factory=set)
    due: bool = False  # the request was granted: the next entry must be its undo

    def see(self, entry: Entry) -> None:
        """Fold one entry in; Refused if it could not have been taken."""
        if self.due and not isinstance(entry, Undo):
            raise Refused("a granted takeback is not followed by its undo")
        if isinstance(entry, Undo):
            if not self.due or self.ask is None or entry.target != self.ask.target:
                raise Refused("an undo that no granted takeback asked for")
            self.ask, self.accepted, self.due = None, set(), False
        elif isinstance(entry, Takeback):
            self.take(entry)
        elif entry.kind not in QUIET_KINDS:
            self.ask, self.accepted = None, set()

    def take(self, entry: Takeback) -> None:
        if entry.line == "ask":
            if self.ask is not None:
                raise Refused.keyed("reason:pbem.takeback_open", seq=self.ask.target)
            self.ask, self.accepted = entry, set()
            self.due = not entry.needs
            return
        if self.ask is None or self.ask.target != entry.target:
            raise Refused.keyed("reason:pbem.takeback_not_open", seq=entry.target)
        if entry.line == "lapse":
            self.ask = None
            return
        if entry.player not in (self.ask.needs or []):
            raise Refused.keyed("reason:pbem.takeback_need_not", player=entry.player,
                                seq=entry.target, waiting=list(self.ask.needs or []))
        if entry.player in self.accepted:
            raise Refused.keyed("reason:pbem.takeback_accepted", player=entry.player,
                                seq=entry.target)
        if entry.line == "refuse":
            self.ask = None
            return
        self.accepted.add(entry.player)
        self.due = self.accepted >= set(self.ask.needs or [])


def consent_of(recent: Sequence[Mapping[str, Any]]) -> Consent:
    """The open request, folded from the trailing run of raw entries that change no rule (a
    block or a timeout after a request closes it)."""
    run: list[Entry] = []
    for raw in reversed(recent):
        if raw.get("kind") not in QUIET_KINDS:
            break
        if raw.get("kind") == "takeback":
            run.append(read_entry(raw))
    folded = Consent()
    for entry in reversed(run):
        folded.see(entry)
    return folded


def open_request(recent: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The open request as data (`pbem status`): its seq, who asked, who has yet to answer."""
    ask = (folded := consent_of(recent)).ask
    if ask is None:
        return None
    return {"target": ask.target, "by": ask.player,
            "waiting_for": sorted(set(ask.needs or []) - folded.accepted)}
