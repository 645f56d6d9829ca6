"""A takeback block (issue 24 §4): a player's signed `takeback SEQ`, `accept takeback SEQ` or
`refuse takeback SEQ`, or the moderator's `takeback SEQ`. Like a block of life it answers no
game decision, so it is taken whoever's decision is pending, and it is logged as a `takeback`
entry (quiet: a block written before it still holds) bound into the chain by the header's trail.

When the request is granted (the player's own line when nobody else acted since, else the
last acceptance; the moderator's line at once) an `undo` entry follows in the same commit: the
position (state and pending decisions) becomes what it was after seq SEQ - 1, rebuilt by
replaying the log (pbem.pipeline.replay), and only the fingerprint differs, because it covers
the seq. The undone entries stay in the log; the undo names them. A request unanswered by the
game's default deadline lapses: the next `pbem timeout` run, or the next takeback line, logs it.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from engine.core.errors import Verbatim
from engine.core.table import Table
from pbem.delivery import deadlines
from pbem.delivery.deadlines import MODERATOR
from pbem.errors import BlockError, DoesNotFitError, OrdersRejected, UsageError
from pbem.orders.orderblock import OrderBlock
from pbem.orders.signatures import parse_public_key, verify
from pbem.orders.takeback_lines import TakebackLine
from pbem.pipeline import clock
from pbem.pipeline.game import Game, from_gamefile
from pbem.pipeline.handover import adopt, quiet_window
from pbem.pipeline.life_apply import proposal_window
from pbem.pipeline.replace import moderator_key
from pbem.pipeline.takeback_rules import (
    Consent,
    Refused,
    changed,
    consent_of,
    needed,
    said,
    undone_event,
)
from pbem.store import gamefile
from pbem.store.entries import Entry, Takeback, Undo
from pbem.store.entry_reader import read_all
from pbem.store.gamefile import GameFile, current_hash, state_hash


def signer(gf: GameFile, block: OrderBlock, line: TakebackLine) -> str:
    """Who signed the block: a player, or the moderator (`takeback SEQ` only)."""
    player = (block.player or "").lower()
    if player == MODERATOR:
        if line.verb != "ask":
            raise BlockError.keyed("reason:pbem.moderator_takeback", line=Verbatim(line.text()))
        key = moderator_key(gf)
    else:
        entry = gf.roster_entry(player)
        if entry is None:
            raise BlockError.keyed("reason:pbem.unknown_player", player=block.player,
                                   players=gf.player_ids())
        key = parse_public_key(entry["key"])
    if not block.signature:
        raise BlockError.keyed("reason:pbem.unsigned")
    verify(key, block.payload(), block.signature)
    return player


def consent(game: Game) -> Consent:
    """The open request of the game as this run holds it (its trailing entries)."""
    return consent_of(game.recent())


def apply_takeback(game: Game, block: OrderBlock, line: TakebackLine,
                   now: datetime | None = None) -> tuple[str, list[Entry]]:
    """Check and record one takeback block on an opened game (the caller commits); who signed
    it and the entries written. Any error leaves the game as it was."""
    gf = game.gf
    if gf.state.get("over"):
        raise DoesNotFitError.keyed("reason:pbem.takeback_over")
    game.require_whole("take back a block")
    if block.seq is None or quiet_window(game).get(block.seq) != (block.state or "").lower():
        raise DoesNotFitError.keyed("reason:pbem.quiet_stale", seq=block.seq, game_seq=gf.seq)
    player = signer(gf, block, line)
    moment = now or datetime.now(UTC)
    digest = hashlib.sha256(block.payload()).hexdigest()
    if any(e.get("payload_sha256") == digest for e in game.recent()):
        raise DoesNotFitError.keyed("reason:pbem.quiet_applied")
    adopt(game)  # an older game's settings, logged before its trail binds anything
    start = len(game.new)
    lapse_due(game, moment)
    folded = consent(game)
    entry = Takeback(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="", line=line.verb,
                     target=line.target, player=player, at=deadlines.iso(moment),
                     block=block.text, payload_sha256=digest)
    stored = committed(game) if line.verb == "ask" else None  # read once, when needed
    try:
        if stored is not None:
            entry.needs = needed(log_of(game, stored), line.target, player)
        folded.see(entry)
    except Refused as error:
        raise OrdersRejected.keyed("reason:pbem.takeback_refused", line=Verbatim(line.text()),
                                   why=error.why or str(error)) from None
    entry.events = [said(entry)]
    record(game, entry)
    if folded.due:
        grant(game, line.target, stored or committed(game))
    return player, game.new[start:]


def lapse_due(game: Game, now: datetime, *, at_deadline: bool = False) -> tuple[str, int] | None:
    """Log the lapse of an open request whose deadline has passed, or of any open request
    when a deadline's timeout is about to be applied (`at_deadline`); who asked, and the
    seq they asked to take back."""
    ask = consent(game).ask
    if ask is None or not at_deadline and \
            now < deadlines.parse_time(ask.at) + proposal_window(game.gf):
        return None
    adopt(game)
    gf = game.gf
    lapse = Takeback(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="", line="lapse",
                     target=ask.target, at=deadlines.iso(now))
    lapse.events = [said(lapse)]
    record(game, lapse)
    return ask.player, ask.target


def committed(game: Game) -> GameFile:
    """The game file as this run found it, its whole log parsed (only a takeback reads it)."""
    if game.log_text is None:
        return game.gf  # held in memory: its log is whole, this run's entries included
    assert game.path is not None
    return gamefile.load(game.path)


def log_of(game: Game, stored: GameFile) -> list[Entry]:
    """The whole log as typed entries, this run's included."""
    return read_all(game.gf.log if stored is game.gf else [*stored.log, *game.gf.log])


def position_at(game: Game, stored: GameFile, seq: int) -> Table:
    """The whole position after seq `seq`, rebuilt (and checked) by replaying the log."""
    from pbem.pipeline.replay import Replay  # start-up: only a takeback replays
    from pbem.pipeline.replay_checks import first_keys  # start-up: the same

    entries = read_all(stored.log)  # the keys at the start count every roster change
    replaying = from_gamefile(stored, game.seed, game.path)
    return Replay(replaying, entries[:seq + 1], game.secrets,
                  first_keys(stored, entries)).replay()


def grant(game: Game, target: int, stored: GameFile) -> None:
    """The undo entry: the position after seq `target - 1`, at the next seq."""
    gf = game.gf
    table = position_at(game, stored, target - 1)
    undone = changed(log_of(game, stored), target)
    entry = Undo(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="", target=target,
                 undone=undone, events=[undone_event(target, undone)])
    record(game, entry, table)


def record(game: Game, entry: Entry, table: Table | None = None) -> None:
    gf = game.gf
    if clock.TRAIL not in gf.game:
        raise UsageError("internal: a game's settings are adopted before its trail binds")
    header = clock.bound(gf.game, entry)
    entry.post_state = state_hash(header, gf.seq + 1, gf.state, gf.agenda) if table is None \
        else game.hash_of(gf.seq + 1, table, header)
    game.advance(entry, table, header)
