"""`pbem sign`: fill in a block's header from the game file and sign its canonical payload."""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.core.agenda import waiting_for
from pbem.errors import UsageError
from pbem.orders.orderblock import canonical_payload, format_block, parse_order_text
from pbem.orders.signatures import load_private_key, parse_public_key, sign, sshsig_armor
from pbem.store import gamefile
from pbem.store.gamefile import current_hash, fingerprint


def sign_orders(text: str, key_path: Path, game_path: Path | None, *, ssh: bool = False) -> str:
    block = parse_order_text(text)
    private = load_private_key(key_path)
    raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    game, player, seq, state = block.game, block.player, block.seq, block.state
    if game_path is not None:
        gf = gamefile.load(game_path)
        game = game or gf.game_id
        mine = [p["id"] for p in gf.roster["players"] if parse_public_key(p["key"]).raw == raw]
        moderator = gf.roster.get("moderator")  # signs `pause` and `resume` (issue 24)
        if moderator and parse_public_key(moderator["key"]).raw == raw:
            mine.append("moderator")
        if player is None:
            if not mine:
                raise UsageError(f"{key_path.name} is not the key of any player in "
                                 f"{game_path.name}")
            # one key for several seats (a sandbox, pbem fork): the first seat owed an answer
            owed = [p for p in waiting_for(gf.agenda) if p in mine]
            player = (owed or mine)[0]
        elif player.lower() not in mine:
            raise UsageError(f"{key_path.name} is not {player}'s key in {game_path.name}")
        seq = gf.seq if seq is None else seq
        state = state or fingerprint(current_hash(gf))
    if game is None or player is None or seq is None or state is None:
        raise UsageError("the orders lack a game/player/seq/state header; pass --game GAME.yaml "
                         "to fill it in from the game file")
    lines = [line.text for line in block.lines]
    if not lines:
        raise UsageError("no orders to sign: write one order per line")
    payload = canonical_payload(game, player, seq, state, lines)
    signature = sshsig_armor(private, payload) if ssh else sign(private, payload)
    return format_block(game, player, seq, state, lines, signature)
