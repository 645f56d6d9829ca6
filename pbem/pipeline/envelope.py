"""The envelope of a block: find the block meant for this game now, check its signature, and
check that it is the sender's decision. Nothing here reads the rules' state beyond the agenda.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from engine.core import sealing
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.errors import Verbatim
from engine.core.table import Table
from pbem.errors import BlockError, DoesNotFitError
from pbem.orders.orderblock import OrderBlock
from pbem.orders.signatures import PublicKey, parse_public_key, verify
from pbem.pipeline.game import ANSWER_KINDS, QUIET_KINDS, Game
from pbem.pipeline.seals import last_commitments
from pbem.store.gamefile import current_hash, fingerprint
from pbem.words import decision_reason


def parallel_window(game: Game) -> dict[int, str]:
    """seq -> state fingerprint a block may be written against. Normally only the current
    state; while a simultaneous decision is pending, any state since it opened where every
    entry since answered that decision (each answer is written against the opening); and a
    state before a run of settings changes (deadlines, e-mails), which change no rule."""
    gf = game.gf
    window = {gf.seq: fingerprint(game.state_hash())}
    node = next_pending(gf.agenda)
    parallel = node is not None and is_parallel(node)
    for entry in reversed(game.recent()):
        # A settings change, an absence or a pause leaves the rules' state as it was: a block
        # written before it holds.
        if entry.get("kind") not in QUIET_KINDS and (
                not parallel or entry.get("node") != node["id"]  # type: ignore[index]
                or entry.get("kind") not in ANSWER_KINDS):
            break
        window[int(entry["seq"]) - 1] = fingerprint(str(entry["prev_state"]))
    return window


def choose_block(game: Game, blocks: list[OrderBlock]) -> tuple[OrderBlock, str]:
    """The block that fits the game now; stale copies (quoted old blocks) are passed over, and
    so is a quoted report skeleton (unsigned, no orders)."""
    gf = game.gf
    blocks = [b for b in blocks if b.lines or b.signature]
    if not blocks:
        raise BlockError.keyed("reason:pbem.no_block")
    ours = [b for b in blocks if (b.game or "").lower() == gf.game_id.lower()]
    if not ours:
        raise DoesNotFitError.keyed("reason:pbem.other_game", block_game=blocks[0].game,
                                    game=gf.game_id)
    window = parallel_window(game)
    fresh = [b for b in ours
             if b.seq is not None and window.get(b.seq) == (b.state or "").lower()]
    if not fresh:
        block = ours[-1]
        raise DoesNotFitError.keyed("reason:pbem.stale", seq=block.seq,
                                    state=Verbatim(str(block.state)),
                                    game_seq=gf.seq,
                                    game_state=Verbatim(fingerprint(current_hash(gf))))
    # A signed block with orders beats a quoted, unsigned skeleton of the same state.
    fresh.sort(key=lambda b: (b.signature is None, not b.lines, -(b.seq or 0)))
    note = ""
    if len(blocks) > 1:
        note = f"used the block for seq {fresh[0].seq}; {len(blocks) - 1} other block(s) ignored"
    return fresh[0], note


def authenticate(game: Game, block: OrderBlock, bot: PublicKey | None = None) -> str:
    """The block's player, its signature checked: the player's key, or `bot`, a bot's key the
    player handed the seat to (`bot on SHA256:...`, issue 24)."""
    gf = game.gf
    player = (block.player or "").lower()
    entry = gf.roster_entry(player)
    if entry is None:
        raise BlockError.keyed("reason:pbem.unknown_player", player=block.player,
                               players=gf.player_ids())
    if not block.signature:
        raise BlockError.keyed("reason:pbem.unsigned")
    if not block.lines:
        raise BlockError.keyed("reason:pbem.no_orders")
    key = parse_public_key(entry["key"])
    if bot is not None:
        from pbem.pipeline.life import Life  # start-up: only a bot's block needs the roster's life

        if not Life.of(gf.roster).bot_signs(player, bot.fingerprint(), datetime.now(UTC)):
            raise BlockError(f"the key {bot.fingerprint()} does not play {player}'s seat: "
                             f"{player} hands it over with 'bot on {bot.fingerprint()}'")
        key = bot
    verify(key, block.payload(), block.signature)
    return player


def resigns(block: OrderBlock) -> bool:
    """A block that starts with `resign`, which a ruleset may take at any time (AoR 11.3)."""
    return bool(block.lines) and " ".join(block.lines[0].text.lower().split()) == "resign"


def replaced_answer(game: Game, table: Table, player: str) -> dict[str, Any] | None:
    """The entry (raw) whose answer a newer block from `player` replaces (issue 24): their
    last sealed answer to the pending decision of a moderated game, not yet unsealed, or in an
    open game their `seal HEX` while seals are still awaited. None when the block is no
    replacement (a timeout's default is never replaced)."""
    node = next_pending(table.agenda)
    if node is None or not node.get("sealed") or not is_parallel(node):
        return None
    node_id = str(node["id"])
    if sealing.is_committing(node):
        if sealing.stage(node) != sealing.SEAL or player not in node["seals"] or \
                player in node.get("answers", {}):
            return None
        return next((e for e in reversed(game.recent()) if e.get("kind") == "orders"
                     and e.get("node") == node_id and e.get("player") == player), None)
    if not game.projection.hidden or player not in node.get("answers", {}):
        return None
    return last_commitments(game.recent(), node_id).get(player)


def check_replacing(block: OrderBlock, replaced: dict[str, Any]) -> None:
    """A replacing block is written against the state its replaced answer left, or later: an
    older copy of the player's block, sent again, cannot undo their newer answer."""
    if (block.seq or 0) < int(replaced["seq"]):
        raise DoesNotFitError.keyed("reason:pbem.stale_replaced", player=block.player,
                                    seq=block.seq, replaced_seq=replaced["seq"])


def check_turn(game: Game, table: Table, player: str, *, resigning: bool = False) -> None:
    if game.gf.state.get("over"):
        raise DoesNotFitError.keyed("reason:pbem.game_over")
    if resigning and game.ruleset.can_resign:
        return
    owed = waiting_for(table.agenda)
    node = next_pending(table.agenda)
    if replaced_answer(game, table, player) is not None:
        return  # a newer sealed answer replaces the earlier one until they are opened
    if node is not None and is_parallel(node) and player in node.get("answers", {}):
        key = "reason:pbem.already_sealed" if node.get("sealed") else \
            "reason:pbem.already_answered"
        raise DoesNotFitError.keyed(key, player=player)
    if player not in owed:
        if node is None:
            raise DoesNotFitError.keyed("reason:pbem.not_your_decision", player=player,
                                        waiting=owed)
        raise DoesNotFitError.keyed("reason:pbem.not_your_decision_to", player=player,
                                    waiting=owed, decision=decision_reason(
                                        game.ruleset.name, node["action"]))
