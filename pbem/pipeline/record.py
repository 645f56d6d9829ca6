"""Recording one player's step as log entries: the same for a block and for a timeout.

In a moderated game with hidden information, an answer to a sealed decision is logged as its
commitment (`sealed`), its block kept in the secrets until the last answer arrives; that last
answer is logged with the node merely marked "received", then an `unseal` entry publishes every
block and salt and carries what resolving the answers did. Until then a player may send a newer
block: its `sealed` entry names the commitment it replaces, and only the last one is opened.
Everywhere else a step is one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field
from typing import Any

from engine.core.agenda import waiting_for
from engine.core.chance import Draw
from engine.core.records import dataclass_on_first_use
from engine.core.table import Event, Table, event
from pbem.pipeline.game import Game
from pbem.pipeline.seals import commitment, last_commitments, seal_salt
from pbem.store.entries import Entry, Sealed, Unseal, public_events
from pbem.store.projection import RECEIVED

# Builds the entry of the step itself: (seq, prev_state, post_state, draws, events) -> Entry.
MakeEntry = Callable[[int, str, str, list[dict[str, object]], list[dict[str, Any]]], Entry]


def split_sealed(events: Sequence[Event]) -> tuple[list[Event], list[Event]]:
    """The last sealed answer's events: its own "answer is in" note, then the resolution."""
    return ([e for e in events if e.get("kind") in ("sealed", "sealed_answer")],
            [e for e in events if e.get("kind") not in ("sealed", "sealed_answer")])


def unseal_event(blocks: dict[str, str], defaults: dict[str, str]) -> Event:
    """The public note of an unseal: every sealed answer by player; timed-out ones marked."""
    from pbem.orders.orderblock import find_blocks  # the block parser, only when unsealing

    answers = {}
    for player, text in blocks.items():
        found = find_blocks(text)
        answers[player] = ", ".join(x.text for x in found[0].lines) if found else "?"
    return event("pbem.unseal", kind="unseal", answers=dict(sorted(answers.items())),
                 defaults=dict(sorted(defaults.items())))


def timed_out(log: Sequence[dict[str, Any]], node: str) -> dict[str, str]:
    """The default answers timeouts gave to a sealed node, by player."""
    return {str(e["player"]): str(e["lines"][0]) for e in log
            if e.get("kind") == "timeout" and e.get("node") == node and e.get("lines")}


@dataclass_on_first_use()
class Step:
    """One player's step, adjudicated on a working copy, ready to record."""

    player: str
    node: dict[str, Any] | None  # the decision pending before the step
    before: Table
    work: Table
    events: list[Event]
    draws: Sequence[Draw]
    payload: bytes | None = None  # the signed block's payload; None for a timeout
    block: str | None = None
    default_line: str | None = None  # a timeout's default, when it is the sealed answer
    bot: str | None = None  # the bot's key that signed the block for the seat (issue 24)
    replaces: str | None = None  # the commitment of the sealed answer this one replaces
    shown: list[Event] = field(default_factory=list)  # what the step did, for its reports
    # The game header after the step's own entry (given its seq): a timeout grows the header's
    # trail, which its state hash covers (pbem.pipeline.clock).
    bind: Callable[[int], dict[str, Any]] | None = None


def record(game: Game, step: Step, make: MakeEntry,
           sealed: dict[str, dict[str, str]]) -> None:
    """Log `step` (updating `sealed`, node -> player -> unopened block)."""
    node = step.node
    seq, prev = game.gf.seq + 1, game.state_hash()
    header = step.bind(seq) if step.bind is not None else None
    rules = game.ruleset
    if not (game.projection.hidden and node is not None and node.get("sealed")):
        draws = game.projection.draws(rules, step.draws)
        game.advance(make(seq, prev, game.hash_of(seq, step.work, header), draws,
                          public_events(step.events)), step.work, header)
        step.shown = list(step.events)
        return
    assert game.seed is not None
    node_id = str(node["id"])
    stored = dict(sealed.get(node_id, {}))
    if step.block is not None:
        stored[step.player] = step.block
    if waiting_for(step.before.agenda) != [step.player]:
        sealed[node_id] = stored
        game.advance(_sealed_or(game, step, make, seq, prev, step.work, step.events, header),
                     step.work, header)
        step.shown = list(step.events)
        return
    middle = step.before.copy()
    pending = middle.agenda[0]
    pending["answers"] = dict(sorted({**pending["answers"], step.player: RECEIVED}.items()))
    noted, resolved = split_sealed(step.events)
    game.advance(_sealed_or(game, step, make, seq, prev, middle, noted, header), middle, header)
    defaults = timed_out(game.recent(), node_id)
    opened = unseal_event(stored, defaults)
    last = last_commitments(game.recent(), node_id)
    salts = {p: seal_salt(game.seed, game.gf.game_id, node_id, p,
                          last[p].get("replaces") if p in last else None).hex()
             for p in sorted(stored)}
    unseal = Unseal(seq=seq + 1, prev_state=game.state_hash(),
                    post_state=game.hash_of(seq + 1, step.work),
                    draws=game.projection.draws(rules, step.draws),
                    events=public_events([opened, *resolved]), node=node_id, last=step.player,
                    blocks=stored, salts=salts, last_default=step.default_line)
    sealed.pop(node_id, None)
    game.advance(unseal, step.work)
    step.shown = [*noted, opened, *resolved]


def _sealed_or(game: Game, step: Step, make: MakeEntry, seq: int, prev: str, table: Table,
               events: list[Event], header: dict[str, Any] | None) -> Entry:
    """A block's commitment, or a timeout's own entry (its default is public)."""
    post = game.hash_of(seq, table, header)
    if step.payload is None:
        return make(seq, prev, post, [], public_events(events))
    assert game.seed is not None and step.node is not None
    salt = seal_salt(game.seed, game.gf.game_id, str(step.node["id"]), step.player,
                     step.replaces)
    return Sealed(seq=seq, prev_state=prev, post_state=post, events=public_events(events),
                  player=step.player, node=str(step.node["id"]),
                  commitment=commitment(salt, step.payload), bot=step.bot,
                  replaces=step.replaces)
