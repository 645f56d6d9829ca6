"""A block of life (issue 24): a player's signed `away until DATE`, `back`, `pause`,
`resume`, `bot on SHA256:...` or `bot off`, or the moderator's `pause` or `resume`. It answers
no game decision, so it is taken whoever's decision is pending, and it changes no rule: it is
logged as an `absence`, `pause` or `bot` entry, bound into the chain by the header's trail
(pbem.pipeline.clock), and the roster's `life` record (pbem.pipeline.life) that the deadline
clocks and the bot's signatures read is updated beside it.

A pause proposal whose deadline has passed is logged as lapsed before anything else, and a
handover to a bot whose `until` has come as ended (`lapse_due`: every block of life, and every
`pbem timeout` run, the host's cron job)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from engine.core.errors import Verbatim
from pbem.delivery import deadlines
from pbem.delivery.deadlines import MODERATOR
from pbem.errors import BlockError, DoesNotFitError, UsageError
from pbem.orders.life_lines import LifeLine
from pbem.orders.orderblock import OrderBlock
from pbem.orders.signatures import parse_public_key, verify
from pbem.pipeline import clock
from pbem.pipeline.game import Game
from pbem.pipeline.handover import adopt, quiet_window
from pbem.pipeline.life import PROPOSAL_WINDOW, Life, until_of
from pbem.pipeline.replace import moderator_key
from pbem.store.entries import Absence, Bot, Entry, Pause
from pbem.store.gamefile import GameFile, current_hash, state_hash


def signer(gf: GameFile, block: OrderBlock, line: LifeLine) -> str:
    """Who signed the block: a player, or the moderator (`pause`, `resume`, `bot off SEAT`)."""
    player = (block.player or "").lower()
    if player == MODERATOR:
        if line.verb not in ("pause", "resume", "bot") or line.bot is not None:
            raise BlockError.keyed("reason:pbem.moderator_life",
                                   line=Verbatim(f"{line.verb}{' on' if line.bot else ''}"))
        if line.verb == "bot" and line.seat not in gf.player_ids():
            raise BlockError.keyed("reason:pbem.moderator_bot_seat", seats=gf.player_ids())
        key = moderator_key(gf)
    else:
        entry = gf.roster_entry(player)
        if entry is None:
            raise BlockError.keyed("reason:pbem.unknown_player", player=block.player,
                                   players=gf.player_ids())
        key = parse_public_key(entry["key"])
        if line.seat not in (None, player):
            raise BlockError.keyed("reason:pbem.bot_off_own", seat=line.seat)
    if not block.signature:
        raise BlockError.keyed("reason:pbem.unsigned")
    verify(key, block.payload(), block.signature)
    return player


def zone_name(gf: GameFile, player: str) -> str:
    return deadlines.zone_of(gf, player) or ""


def proposal_window(gf: GameFile) -> timedelta:
    """How long a pause proposal waits for every signature: the game's default deadline."""
    return deadlines.policy_of(gf).duration_for("default") or PROPOSAL_WINDOW


def apply_life(game: Game, block: OrderBlock, line: LifeLine,
               now: datetime | None = None) -> tuple[str, list[Entry]]:
    """Check and record one block of life on an opened game (the caller commits); who signed
    it and the entries written. Any error leaves the game as it was."""
    gf = game.gf
    if gf.state.get("over"):
        raise DoesNotFitError.keyed("reason:pbem.game_over")
    if block.seq is None or quiet_window(game).get(block.seq) != (block.state or "").lower():
        raise DoesNotFitError.keyed("reason:pbem.quiet_stale", seq=block.seq, game_seq=gf.seq)
    player = signer(gf, block, line)
    at, digest = deadlines.iso(moment := now or datetime.now(UTC)), \
        hashlib.sha256(block.payload()).hexdigest()
    if any(e.get("payload_sha256") == digest for e in game.recent()):
        raise DoesNotFitError.keyed("reason:pbem.quiet_applied")
    adopt(game)  # an older game's settings, logged before its trail binds anything
    start = len(game.new)
    lapse_due(game, moment)
    life = Life.of(gf.roster)
    entry: Entry
    if line.verb in ("away", "back"):
        zone = zone_name(gf, player)
        if line.verb == "away":
            until = until_of(line, zone)
            allowance = deadlines.policy_of(gf).absence
            said = [life.go_away(player, moment, until,
                                 deadlines.parse_duration(allowance) if allowance else None)]
        else:
            until, said = None, [life.come_back(player, moment)]
        entry = Absence(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="",
                        events=said, until=deadlines.iso(until) if until else None, zone=zone,
                        player=player, block=block.text, payload_sha256=digest, at=at)
    elif line.verb == "bot":
        zone = zone_name(gf, player) if line.day else ""
        until = until_of(line, zone) if line.day else None
        said = [life.hand_to_bot(player, line.bot, until, moment) if line.bot else
                life.take_back(line.seat or player, by=player)]
        entry = Bot(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="", events=said,
                    player=player, block=block.text, payload_sha256=digest, at=at, key=line.bot,
                    until=deadlines.iso(until) if until else None, zone=zone, seat=line.seat)
    else:
        said = life.propose(player, moment, gf.player_ids(), proposal_window(gf)) \
            if line.verb == "pause" else [life.resume(player, moment)]
        entry = Pause(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="", events=said,
                      line=line.verb, player=player, block=block.text, payload_sha256=digest,
                      at=at)
    record(game, entry, life)
    return player, game.new[start:]


def lapse_due(game: Game, now: datetime) -> str | None:
    """Log the lapse of a pause proposal whose deadline has passed (who proposed it), and the
    end of each handover to a bot whose `until` has come."""
    end_handovers(game, now)
    life = Life.of(game.gf.roster)
    if not life.lapsing(now):
        return None
    adopt(game)
    gf = game.gf
    proposer = str(life.pause["by"])
    said = life.lapse(now)
    record(game, Pause(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="",
                       events=[said], line="lapse", at=deadlines.iso(now)), life)
    return proposer


def end_handovers(game: Game, now: datetime) -> None:
    for seat in Life.of(game.gf.roster).handovers_ended(now):
        adopt(game)
        gf, life = game.gf, Life.of(game.gf.roster)
        said = life.end_handover(seat, now)
        record(game, Bot(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="",
                         events=[said], player=seat, at=deadlines.iso(now), ended=True), life)


def record(game: Game, entry: Entry, life: Life) -> None:
    gf = game.gf
    if clock.TRAIL not in gf.game:
        raise UsageError("internal: a game's settings are adopted before its trail binds")
    life.store(gf.roster)
    header = clock.bound(gf.game, entry)
    entry.post_state = state_hash(header, gf.seq + 1, gf.state, gf.agenda)
    game.advance(entry, None, header)
