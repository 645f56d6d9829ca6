"""`timeout`: the defaults of an overdue player, through the same pipeline as a block.

A timeout answers only what the player owes now: their decisions in a row while it is their
turn, or their one answer to a simultaneous decision (never the next decision after it, whose
clock has not started). Each answer is the ruleset's `Action.default`, checked against the
decision's legal options and applied as a choice; verify re-derives every logged line.

A timeout is logged with the clock's start, its deadline and when it ran, bound into the chain
by the header's trail (pbem.pipeline.clock). Only an overdue decision times out, unless the
moderator forces it with a signed block; a game without a moderator cannot force one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.core.agenda import is_parallel, next_pending
from engine.core.chance import SeedNeeded
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Event
from pbem.delivery import deadlines
from pbem.errors import UsageError
from pbem.pipeline import clock
from pbem.pipeline import opening as games
from pbem.pipeline.apply import EngineBug
from pbem.pipeline.defaults import apply_defaults, governed, timeout_event
from pbem.pipeline.game import Game
from pbem.pipeline.handover import adopt, quiet_window
from pbem.pipeline.life import Life
from pbem.pipeline.life_apply import lapse_due
from pbem.pipeline.record import Step, record
from pbem.store.entries import Entry, Timeout
from pbem.store.gamefile import GameFile, current_hash, fingerprint


@dataclass
class TimedOut:
    player: str
    lines: list[str]
    events: list[Event]  # what the defaults did, as shown to the public
    note: str  # why nothing was applied, when `lines` is empty


def time_out(game: Game, player: str, *, nmr: str, deadline: datetime | None, forced: bool,
             started: datetime | None = None, at: datetime | None = None,
             signed: tuple[str, str] | None = None) -> TimedOut:
    """Apply and record one player's defaults on an opened game. `signed` is the moderator's
    block (and its payload hash) of a forced timeout."""
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

    def make(seq: int, prev: str, post: str, draws: list[dict[str, object]],
             shown: list[dict[str, object]]) -> Entry:
        return Timeout(seq=seq, prev_state=prev, post_state=post, draws=draws,
                       events=[timeout_event(player, lines), *shown], player=player,
                       deadline=_iso(deadline), forced=forced, lines=lines, node=parallel,
                       started=_iso(started), at=_iso(at or datetime.now(UTC)),
                       block=signed[0] if signed else None,
                       payload_sha256=signed[1] if signed else None)

    sealed = node is not None and bool(node.get("sealed"))
    step = Step(player, node, table, work, events, chance.draws,
                default_line=lines[0] if sealed and lines else None,
                bind=lambda seq: clock.bound(game.gf.game, make(seq, "", "", [], [])))
    record(game, step, make, game.unopened())
    return TimedOut(player, lines, [timeout_event(player, lines), *step.shown], "")


def _iso(moment: datetime | None) -> str | None:
    return deadlines.iso(moment) if moment else None


def run_timeout(path: Path, since: datetime | Callable[[GameFile], datetime], now: datetime, *,
                force: bool = False, only: Sequence[str] = (), key: Path | None = None,
                block_text: str | None = None) -> tuple[GameFile, list[TimedOut]]:
    """Apply the defaults of every overdue player (with `force`, of every owing player: the
    moderator's call, signed with `key` or given as the moderator's `block_text`). The clock's
    start is `since`, or asked of the game as it is under the lock."""
    with games.locked(path):
        game = games.open_game(path)
        game.require_whole("apply timeouts")
        gf = game.gf
        signed_for: list[str] | None = None
        if force or block_text is not None:
            if not clock.has_moderator(gf):
                raise UsageError("this game has no moderator, so no timeout can be forced: only "
                                 "a decision whose deadline has passed times out")
            adopt(game)  # an older game's settings, logged before the block is signed
            if block_text is not None:
                block = clock.moderator_lines(gf, block_text, quiet_window(game))
                signed_for = clock.forced_players(block)
                only = [p for p in signed_for if not only or p in only]
                force = True
            elif key is not None:
                clock.moderator_private(gf, key)  # a wrong key fails before anything is done
            else:
                raise UsageError("a forced timeout is the moderator's call: give --key "
                                 "MODERATOR.key (or --block FILE, a block the moderator signed)")
        nmr = deadlines.policy_of(gf).nmr
        started = since(gf) if callable(since) else since
        results: list[TimedOut] = []
        lapsed = lapse_due(game, now)  # a pause proposal past its deadline: the log says so
        if lapsed is not None:
            results.append(TimedOut(lapsed, [], [], "the pause proposed lapsed (not every "
                                                    "player sent 'pause' in time)"))
        life = Life.of(gf.roster)
        chosen = []
        for due in deadlines.due_now(gf, started):
            if only and due.player not in only:
                continue
            away = life.away_until(due.player, now)
            if away is not None:  # never answered for while away, not even when forced
                results.append(TimedOut(due.player, [], [], f"away until {deadlines.iso(away)}"))
                continue
            if life.paused and not force:
                results.append(TimedOut(due.player, [], [], "paused: no clock runs until "
                                                            "'resume'"))
                continue
            if not (force or due.is_late(now)):
                when = "no deadline" if due.deadline is None else f"due {deadlines.iso(due.deadline)}"
                results.append(TimedOut(due.player, [], [], f"not overdue ({when})"))
                continue
            table = game.table()
            if not governed(next_pending(table.agenda), due.player, nmr, table):
                results.append(TimedOut(due.player, [], [], "waiting: the NMR policy is 'wait'"))
                continue
            chosen.append(due)
        if chosen:
            adopt(game)
        if any(entry.get("kind") == "takeback" for entry in game.recent()):
            from pbem.pipeline.takeback import lapse_due as takeback_lapse  # start-up: rare

            asked = takeback_lapse(game, now, at_deadline=bool(chosen))  # unanswered: lapses
            if asked is not None:
                results.append(TimedOut(asked[0], [], [], f"the takeback of seq {asked[1]} "
                                        "lapsed (not every player accepted it in time)"))
        signed = None
        if chosen and force:
            if signed_for is None:
                assert key is not None
                text = clock.moderator_block(gf, [f"timeout {d.player}" for d in chosen], key)
                block = clock.moderator_lines(gf, text, {gf.seq: fingerprint(current_hash(gf))})
            signed = (block.text, clock.payload_digest(block))
        for due in chosen:
            results.append(time_out(game, due.player, nmr=nmr, deadline=due.deadline,
                                    forced=force, started=due.started or started, at=now,
                                    signed=signed))
        if game.new:
            games.commit(game)
        return game.gf, results


def forced_block(path: Path, players: Sequence[str], key: Path | None) -> str:
    """The moderator's signed block forcing the timeouts of `players` now (`timeout --print`,
    for a moderator who is not the host; the host applies it with `timeout --block`)."""
    gf = games.open_game(path, whole=False).gf
    if not clock.has_moderator(gf):
        raise UsageError("this game has no moderator, so no timeout can be forced")
    if not players or key is None:
        raise UsageError("the moderator's block names the players and is signed: give "
                         "--player NAME (repeat) and --key MODERATOR.key")
    return clock.moderator_block(gf, [f"timeout {p}" for p in players], key)
