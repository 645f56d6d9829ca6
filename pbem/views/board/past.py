"""The game as it stood after an earlier seq (`pbem map --seq N`, `pbem history`), rebuilt by
replaying its log."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from engine.core.chance import ReplayMismatch
from engine.core.errors import InvariantViolation, RuleError
from pbem.errors import CorruptGameError, UsageError
from pbem.pipeline.game import Game, from_gamefile
from pbem.pipeline.replay import Replay
from pbem.pipeline.replay_checks import first_keys
from pbem.store.entry_reader import read_all
from pbem.store.gamefile import GameFile


def at_seq(game: Game, seq: int) -> Game:
    """The game after log entry `seq`: the same replay as verify, each entry checked against the
    state it recorded, stopped at `seq`. The roster is today's (replacements keep their seat)."""
    gf = game.gf
    if not 0 <= seq <= gf.seq:
        raise UsageError(f"--seq {seq}: this game has seqs 0 to {gf.seq}")
    if seq == gf.seq:
        return game
    (past,) = deque(replayed(game, seq), maxlen=1)  # only the last is kept
    return past


def replayed(game: Game, last: int) -> Iterator[Game]:
    """The game after each of the seqs 0 to `last`, in order, in one replay. Each game shares
    the replay's working state: use it before asking for the next."""
    gf = game.gf
    if game.projection.hidden and game.seed is None:
        game.require_whole("draw an earlier seq")
    entries = read_all(gf.log)
    replay = Replay(game, entries, game.secrets, first_keys(gf, entries))
    table = replay.setup(entries[0])
    ruleset, projection = game.ruleset, game.projection
    for entry in entries[: last + 1]:
        if entry.seq > 0:
            chance = replay.chance(entry, int(table.state["draws"]))
            try:
                replay.step(table, entry, chance)
            except (RuleError, ReplayMismatch, InvariantViolation, ValueError) as error:
                raise CorruptGameError(f"log entry seq {entry.seq} does not replay: {error}") from None
            table.state["draws"] = int(table.state["draws"]) + len(chance.draws)
            if replay.hash_of(entry.seq, table) != entry.post_state:
                raise CorruptGameError(f"log entry seq {entry.seq}: the replay does not produce its state")
        past = GameFile(gf.game, gf.roster, gf.randomness, entry.seq,
                        projection.state(ruleset, table.state), projection.agenda(table.agenda),
                        gf.log[: entry.seq + 1], gf.format)
        if projection.hidden:
            past.full = (table.state, table.agenda)
        yield from_gamefile(past, game.seed, game.path)
