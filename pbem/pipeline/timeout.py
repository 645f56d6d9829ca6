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

from engine.core import sealing
from engine.core.adjudicate import answer, asked, run_automatic
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.chance import Chance, SeedNeeded
from engine.core.errors import InvariantViolation, RuleError
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table, event
from pbem.delivery import deadlines
from pbem.errors import UsageError
from pbem.pipeline import game as games
from pbem.pipeline.apply import EngineBug
from pbem.pipeline.game import Game
from pbem.pipeline.record import Step, record
from pbem.store.entries import Entry, Timeout
from pbem.store.gamefile import GameFile

_MAX_STEPS = 200


@dataclass
class TimedOut:
    player: str
    lines: list[str]
    events: list[Event]  # what the defaults did, as shown to the public
    note: str  # why nothing was applied, when `lines` is empty


def timeout_event(player: str, lines: Sequence[str]) -> Event:
    return event("pbem.timeout", kind="timeout", player=player, lines=list(lines))


def _governed(node: dict[str, object] | None, player: str, nmr: str, table: Table) -> bool:
    """Whether a timeout of `player` answers this node."""
    if node is None or player not in waiting_for(table.agenda):
        return False
    return not (node["action"] in deadlines.MAIN_TURN_ACTIONS and nmr == "wait")


def apply_defaults(ruleset: Ruleset, table: Table, player: str, chance: Chance, *,
                   nmr: str = "skip", logged: Sequence[str] | None = None,
                   ) -> tuple[Table, list[str], list[Event]]:
    """Answer the player's pending decisions with their defaults, on a working copy. With
    `logged` (verify), each logged line must be the default of the decision it answered."""
    work, lines, events = table.copy(), list[str](), list[Event]()
    while len(lines) < (_MAX_STEPS if logged is None else len(logged)):
        node = next_pending(work.agenda)
        if not _governed(node, player, nmr, work):
            if logged is None:
                break
            raise ValueError(f"'{logged[len(lines)]}' answers no decision of {player}")
        assert node is not None
        action = ruleset.actions[node["action"]]
        here = asked(node, player)
        default = action.default(work, here, action.options(work, here))
        if logged is not None and logged[len(lines)] != default.line:
            raise ValueError(f"'{logged[len(lines)]}' is not the default '{default.line}'")
        if sealing.is_committing(node) and player in node["seals"]:
            node["forfeit"] = sorted({*node.get("forfeit", []), player})  # sealed, never opened
        # The default is applied as a choice, not parsed as a line: an NMR "skip" passes the
        # turn with no action, which D1 does not let a player choose (ruling R-701).
        events += answer(ruleset, work, default, chance, player)
        events += run_automatic(ruleset, work, chance)
        ruleset.check_invariants(work)
        lines.append(default.line)
        if is_parallel(node) and logged is None:
            break  # one answer to a simultaneous decision; what follows has its own clock
    return work, lines, events


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
            if not _governed(next_pending(table.agenda), due.player, nmr, table):
                results.append(TimedOut(due.player, [], [], "waiting: the NMR policy is 'wait'"))
                continue
            results.append(time_out(game, due.player, nmr=nmr, deadline=due.deadline,
                                    forced=force))
        if game.new:
            games.commit(game)
        return game.gf, results
