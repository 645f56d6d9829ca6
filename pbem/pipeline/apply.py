"""`apply`: the one pipeline for a signed block, for every ruleset and mode.

find the block -> authenticate -> check the turn -> adjudicate on a working copy (invariants
checked) -> record the log entries -> commit. Any failure before the commit leaves every file
byte-identical.
"""

from __future__ import annotations

import hashlib
from dataclasses import field
from datetime import datetime
from pathlib import Path

from engine.core.adjudicate import Known, adjudicate
from engine.core.agenda import is_parallel, next_pending
from engine.core.chance import SeedNeeded
from engine.core.errors import InvariantViolation, RuleError
from engine.core.records import dataclass_on_first_use
from engine.core.table import Event, Table
from pbem.errors import CorruptGameError, DoesNotFitError, OrdersRejected, PbemError, UsageError
from pbem.orders.life_lines import is_life, life_line
from pbem.orders.orderblock import find_blocks
from pbem.orders.signatures import PublicKey
from pbem.orders.takeback_lines import takeback_line
from pbem.pipeline import opening as games
from pbem.pipeline.envelope import (
    authenticate,
    check_replacing,
    check_turn,
    choose_block,
    replaced_answer,
    resigns,
)
from pbem.pipeline.game import Game
from pbem.pipeline.record import Step, record
from pbem.pipeline.seals import withdraw
from pbem.store import gamefile
from pbem.store.entries import Entry, Orders
from pbem.store.entry_reader import read as read_entry
from pbem.store.gamefile import GameFile


class EngineBug(PbemError):
    """An invariant broke: a bug in pbem; the game file is unchanged."""


@dataclass_on_first_use()
class Applied:
    gf: GameFile
    player: str
    events: list[Event]  # what the step did, every reader's share included
    note: str  # e.g. which of several blocks was used
    entries: list[Entry] = field(default_factory=list)  # the log entries written
    game: Game | None = None
    # The legal answers at the new state by owed player, as adjudicating computed them: a
    # caller that goes on playing (self-play) hands them to the next `apply_text`.
    options: Known = field(default_factory=dict)

    @property
    def opened(self) -> Game:
        assert self.game is not None
        return self.game


def apply_block(path: Path, text: str, *, dry_run: bool = False,
                bot: PublicKey | None = None, now: datetime | None = None) -> Applied:
    """The whole pipeline on a game file, under its lock; nothing is written on any error.
    `bot`: the bot's key that signed for the seat (pbem bot); `now`: the run's time (a mail
    run's `--now`), which absences and takebacks count from (None: the clock)."""
    with games.locked(path):
        game = games.open_game(path)
        check_tail(game)
        try:
            applied = apply_text(game, text, bot=bot, now=now)
        except DoesNotFitError as error:
            stale = error.why is not None and error.why.key.startswith("reason:pbem.stale")
            seq = applied_before(path, text) if stale else None
            if seq is None:
                raise
            raise DoesNotFitError.keyed("reason:pbem.already_applied", seq=seq) from None
        if not dry_run:
            games.commit(game)
        return applied


def check_tail(game: Game) -> None:
    """A cheap check of the chain's tail, without parsing the whole log: the last two entries
    read as typed entries and chain to each other and to the head (`pbem verify` checks all)."""
    if game.log_text is not None:
        seen: list[int] = []

        def two(_: dict[str, object]) -> bool:
            seen.append(1)
            return len(seen) <= 2

        raw = gamefile.tail_entries(game.log_text, two)
    else:
        raw = game.gf.log[-2:]
    last = [read_entry(data) for data in raw]
    if not last or last[-1].seq != game.gf.seq or \
            last[-1].post_state != gamefile.current_hash(game.gf):
        raise CorruptGameError("game file: the log's last entry does not match the state at "
                               f"seq {game.gf.seq}; run pbem verify")
    if len(last) == 2 and (last[0].seq != last[1].seq - 1 or
                           last[1].prev_state != last[0].post_state):
        raise CorruptGameError(f"log entry seq {last[1].seq}: prev_state does not chain to the "
                               "entry before; run pbem verify")


def applied_before(path: Path, text: str) -> int | None:
    """The seq at which one of these blocks was applied, if one was (a resent block)."""
    digests = set()
    for block in find_blocks(text):
        try:
            digests.add(hashlib.sha256(block.payload()).hexdigest())
        except PbemError:
            continue
    log = gamefile.load(path).log  # only on this error path: the whole log
    return next((int(e["seq"]) for e in reversed(log) if e.get("payload_sha256") in digests), None)


def apply_text(game: Game, text: str, *, known: Known | None = None,
               bot: PublicKey | None = None, now: datetime | None = None,
               in_place: bool = False) -> Applied:
    """Find, authenticate and adjudicate a block against an opened game; the game changes
    only when everything succeeds. `known`: the `options` of the Applied that made the
    game's current state (nothing else changed it since). `in_place`: the rules work on the
    game's own state, not a copy, so a block refused by the rules leaves the game spoilt; the
    caller drops it or restores the state it kept (self-play)."""
    found = find_blocks(text)
    if not any(b.lines and is_life(b.lines[0].text) for b in found):
        game.require_whole("apply orders")  # before anything else, as it always was
    block, note = choose_block(game, found)
    asked = takeback_line(block)
    line = life_line(block)
    if asked is not None or line is not None:  # no game decision (issue 24)
        if asked is not None:  # takeback, accept takeback, refuse takeback
            from pbem.pipeline.takeback import apply_takeback  # start-up: only when asked

            player, entries = apply_takeback(game, block, asked, now)
        else:  # away, back, pause, resume, bot
            from pbem.pipeline.life_apply import apply_life  # start-up: only a line of life

            assert line is not None
            player, entries = apply_life(game, block, line, now)
        return Applied(game.gf, player, [e for entry in entries for e in entry.events or []],
                       note, entries, game)
    game.require_whole("apply orders")
    player = authenticate(game, block, bot)
    table = game.table()
    check_turn(game, table, player, resigning=resigns(block))
    node = next_pending(table.agenda)
    replaced = replaced_answer(game, table, player)
    if replaced is not None:
        check_replacing(block, replaced)
    replaces = str(replaced["commitment"]) if replaced is not None and \
        replaced.get("kind") == "sealed" else None  # a moderated game's commitment
    draws = int(table.state["draws"])
    chance = game.chance(draws)
    lines = [(line.number, line.text) for line in block.lines]
    in_place = in_place and replaced is None and not game.projection.hidden
    if in_place:
        game.state_hash()  # the entry's prev_state, taken before the state changes
    try:
        outcome = adjudicate(game.ruleset, table if replaced is None else withdrawn(table, player),
                             player, lines, chance, known=None if replaced else known,
                             in_place=in_place)
    except RuleError as error:
        raise OrdersRejected.from_rule(error) from None
    except SeedNeeded:
        raise UsageError(
            "these orders lead to a random draw, which needs the game's seed file "
            f"{game.secrets_name()}; send them to the moderator") from None
    except InvariantViolation as error:
        raise EngineBug(f"internal error (a pbem bug; the game file is unchanged): {error}") \
            from None
    work = outcome.table
    work.state["draws"] = draws + len(chance.draws)
    payload = block.payload()
    parallel = str(node["id"]) if node is not None and is_parallel(node) else None
    by_bot = bot.roster_text() if bot is not None else None  # logged with the entry

    def make(seq: int, prev: str, post: str, draws: list[dict[str, object]],
             events: list[dict[str, object]]) -> Entry:
        return Orders(seq=seq, prev_state=prev, post_state=post, draws=draws, events=events,
                      player=player, block=block.text,
                      payload_sha256=hashlib.sha256(payload).hexdigest(), node=parallel,
                      bot=by_bot)

    step = Step(player, node, table, work, outcome.events, chance.draws, payload=payload,
                block=block.text, bot=by_bot, replaces=replaces)
    start = len(game.new)
    record(game, step, make, game.unopened())
    return Applied(game.gf, player, step.shown, note, game.new[start:], game, outcome.options)


def withdrawn(table: Table, player: str) -> Table:
    """A copy of `table` without `player`'s answer (or seal) to the pending decision, a sealed
    answer being replaced, to adjudicate the newer one against."""
    work = table.copy()
    pending = next_pending(work.agenda)
    assert pending is not None
    withdraw(pending, player)
    return work
