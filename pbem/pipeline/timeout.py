"""`timeout`: the defaults of an overdue player, through the same pipeline as a block.

A timeout answers only what the player owes now: their decisions in a row while it is their
turn, or their one answer to a simultaneous decision (never the next decision after it, whose
clock has not started). Each answer is the ruleset's `Action.default`, applied as a choice;
verify re-derives every logged line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from engine.core.agenda import is_parallel, next_pending
from engine.core.chance import SeedNeeded
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Event
from pbem.delivery import deadlines
from pbem.errors import UsageError
from pbem.pipeline import opening as games
from pbem.pipeline.apply import EngineBug
from pbem.pipeline.defaults import apply_defaults, governed, timeout_event
from pbem.pipeline.game import Game
from pbem.pipeline.record import Step, record
from pbem.store.entries import Entry, Timeout
from pbem.store.gamefile import GameFile


@dataclass
class TimedOut:
    player: str
    lines: list[str]
    events: list[Event]  # what the defaults did, as shown to the public
    note: str  # why nothing was applied, when `lines` is empty


def time_out(game: Game, player: str, *, nmr: str, deadline: datetime | None,
             forced: bool) -> TimedOut:
    """Apply and record one player's defaults on an opened game."""
    table = game.table()
    node = next_pending(table.agenda)
    chance = game.chance(int(table.state["draws"]))
    try:
        work, lines, events = apply_defaults(game.ruleset, table, player, chance, nmr=nmr)
    except SeedNeeded:
        raise UsageError("the defaults lead to a random draw, which needs the game's seed file "
                         f"{game.secrets_name()}") from None
    except (RuleError, InvariantViolation, ValueError) as error:
        raise EngineBug(f"internal error (a default is not legal; the game file is "
                        f"unchanged): {error}") from None
    work.state["draws"] = int(table.state["draws"]) + len(chance.draws)
    parallel = str(node["id"]) if node is not None and is_parallel(node) else None
    stamp = deadlines.iso(deadline) if deadline else None

    def make(seq: int, prev: str, post: str, draws: list[dict[str, object]],
             shown: list[dict[str, object]]) -> Entry:
        return Timeout(seq=seq, prev_state=prev, post_state=post, draws=draws,
                       events=[timeout_event(player, lines), *shown], player=player,
                       deadline=stamp, forced=forced, lines=lines, node=parallel)

    sealed = node is not None and bool(node.get("sealed"))
    step = Step(player, node, table, work, events, chance.draws,
                default_line=lines[0] if sealed and lines else None)
    record(game, step, make, game.unopened())
    return TimedOut(player, lines, [timeout_event(player, lines), *step.shown], "")


def run_timeout(path: Path, since: datetime | Callable[[GameFile], datetime], now: datetime, *,
                force: bool = False, only: Sequence[str] = ()) -> tuple[GameFile, list[TimedOut]]:
    """Apply the defaults of every overdue player (with `force`, of every owing player). The
    clock's start is `since`, or asked of the game as it is under the lock."""
    with games.locked(path):
        game = games.open_game(path)
        game.require_whole("apply timeouts")
        nmr = deadlines.policy_of(game.gf).nmr
        results: list[TimedOut] = []
        started = since(game.gf) if callable(since) else since
        for due in deadlines.due_now(game.gf, started):
            if only and due.player not in only:
                continue
            if not (force or due.is_late(now)):
                when = "no deadline" if due.deadline is None else f"due {deadlines.iso(due.deadline)}"
                results.append(TimedOut(due.player, [], [], f"not overdue ({when})"))
                continue
            table = game.table()
            if not governed(next_pending(table.agenda), due.player, nmr, table):
                results.append(TimedOut(due.player, [], [], "waiting: the NMR policy is 'wait'"))
                continue
            results.append(time_out(game, due.player, nmr=nmr, deadline=due.deadline,
                                    forced=force))
        if game.new:
            games.commit(game)
        return game.gf, results
