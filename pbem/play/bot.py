"""`pbem bot`: a self-play policy answers one seat's pending decisions (issue 24 §3, in part).

The bot signs with the key it is given, which must be the seat's key in the roster: a player
lets a bot play their own seat, or the moderator hands a dropout's seat to a bot's key with a
signed roster change (`pbem replace-player SEAT --pub BOT.pub`). Its blocks are ordinary signed
blocks, so they go through `apply`, mail and git like any other, and verify checks them.

The bot decides from what the game file shows. A game with hidden information (a moderated
Age of Renaissance game) is refused: there the bot would have to decide from its seat's own
projection alone, which is not built yet. Looking ahead, the policies draw from a throw-away
seed (pbem.play.policy), never the game's.
"""

from __future__ import annotations

from pathlib import Path

from engine.core.adjudicate import options_now
from engine.core.agenda import next_pending, waiting_for
from pbem.errors import UsageError
from pbem.orders.signatures import load_private_key, parse_public_key
from pbem.orders.signing import sign_orders
from pbem.pipeline import opening as games
from pbem.pipeline.apply import apply_block
from pbem.play.policy import make_policy

BOT_POLICIES = ("greedy", "random")


def bot_blocks(path: Path, seat: str, key_path: Path, *, policy_name: str = "greedy",
               apply: bool = False, limit: int = 50) -> list[tuple[str, str]]:
    """The lines the bot chose for `seat` and their signed blocks: the next one (printed), or
    with `apply` each one applied in turn while the seat still owes a decision (at most
    `limit`)."""
    if policy_name not in BOT_POLICIES:
        raise UsageError(f"unknown policy '{policy_name[:40]}'; policies: "
                         f"{', '.join(BOT_POLICIES)}")
    seat = seat.lower()
    game = games.open_game(path, whole=False)
    entry = game.gf.roster_entry(seat)
    if entry is None:
        raise UsageError(f"unknown seat '{seat}'; seats: {', '.join(game.gf.player_ids())}")
    if load_private_key(key_path).public_key().public_bytes_raw() != \
            parse_public_key(entry["key"]).raw:
        raise UsageError(f"{key_path.name} is not {seat}'s key in this game; the moderator "
                         "hands a seat to a bot with pbem replace-player SEAT --pub BOT.pub")
    if game.projection.hidden:
        raise UsageError("this game hides information: the bot would have to decide from its "
                         "seat's own projection, which pbem bot does not build yet")
    policy = make_policy(policy_name)
    policy.new_game(f"{game.gf.game_id}|{game.gf.seq}|{seat}")  # the same choice if rerun
    blocks: list[tuple[str, str]] = []
    while len(blocks) < limit:
        game = games.open_game(path)
        table = game.table()
        node = next_pending(table.agenda)
        if game.gf.state.get("over") or node is None or seat not in waiting_for(table.agenda):
            break
        if node.get("sealed"):
            raise UsageError("a sealed decision: pbem bot does not seal answers yet")
        options = options_now(game.ruleset, table, seat)
        line = policy.choose(game.ruleset, table, seat, options).line
        blocks.append((line, sign_orders(line + "\n", key_path, path)))
        if not apply:
            break
        apply_block(path, blocks[-1][1])
    return blocks
