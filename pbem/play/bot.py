"""`pbem bot`: a self-play policy answers one seat's pending decisions (issue 24 §3, in part).

The bot signs with the key it is given: the seat's own key (a player lets a bot play their
seat, or the moderator handed a dropout's seat to a bot's key with a signed roster change,
`pbem replace-player SEAT --pub BOT.pub`), or a bot's key the player handed the seat to with a
signed `bot on SHA256:...` line (until `bot off`), beside their own. Its blocks are ordinary
signed blocks; one signed by a handed-over bot key is applied on the host (`--apply`), and its
orders entry keeps that key (`bot`), which verify checks against the handover.

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
from pbem.orders.signatures import PublicKey, load_private_key, parse_public_key
from pbem.orders.signing import sign_orders
from pbem.pipeline import opening as games
from pbem.pipeline.apply import apply_block
from pbem.pipeline.life import Life
from pbem.play.policy import make_policy
from pbem.store.gamefile import GameFile, fingerprint

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
    raw = load_private_key(key_path).public_key().public_bytes_raw()
    bot = None if raw == parse_public_key(entry["key"]).raw else PublicKey("ed25519", raw)
    if bot is not None and not Life.of(game.gf.roster).bot_signs(seat, bot.fingerprint()):
        raise UsageError(f"{key_path.name} is not {seat}'s key in this game, nor a bot's key "
                         f"{seat} handed the seat to (the player sends 'bot on "
                         f"{bot.fingerprint()}')")
    if bot is not None and not apply:
        raise UsageError("a bot's key signs for a seat handed to it on the host only: "
                         "run pbem bot there with --apply")
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
        header = f"game: {game.gf.game_id}\nplayer: {seat}\nseq: {game.gf.seq}\n" \
            f"state: {fingerprint(game.state_hash())}\n\n"
        blocks.append((line, sign_orders(header + line + "\n", key_path, None)))
        if not apply:
            break
        apply_block(path, blocks[-1][1], bot=bot)
    return blocks


def bots_folder(path: Path) -> Path:
    """Where the host keeps the bots' keys for a game: `lisbon.bots/` beside `lisbon.yaml`."""
    return path.with_suffix(".bots")


def play_bot_seats(path: Path, *, policy_name: str = "greedy",
                   limit: int = 200) -> list[tuple[str, str]]:
    """Under cron (`pbem timeout`): every owed seat whose key, or the bot key it was handed to,
    is in the game's bots folder plays at once. (seat, line) for each line applied; a seat the
    bot cannot play (hidden information) is left to its deadline."""
    folder = bots_folder(path)
    if not folder.is_dir():
        return []
    keys: dict[str, Path] = {}
    for key_file in sorted(folder.glob("*.key")):
        raw = load_private_key(key_file).public_key().public_bytes_raw()
        keys[PublicKey("ed25519", raw).fingerprint().lower()] = key_file
    played: list[tuple[str, str]] = []
    while len(played) < limit:
        gf = games.open_game(path, whole=False).gf
        life = Life.of(gf.roster)
        ready = [(seat, keys[fp]) for seat in waiting_for(gf.agenda)
                 for fp in (life.bots.get(seat, ""), _own_fingerprint(gf, seat)) if fp in keys]
        if gf.state.get("over") or not ready:
            break
        seat, key_file = ready[0]
        try:
            lines = bot_blocks(path, seat, key_file, policy_name=policy_name, apply=True)
        except UsageError:
            break  # e.g. a game that hides information: the seat waits for its deadline
        if not lines:
            break
        played += [(seat, line) for line, _ in lines]
    return played


def _own_fingerprint(gf: GameFile, seat: str) -> str:
    entry = gf.roster_entry(seat)
    return parse_public_key(entry["key"]).fingerprint().lower() if entry else ""
