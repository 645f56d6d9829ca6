"""`replace-player` applied: a moderator-signed block hands a seat to someone new, logged as a
`replacement` entry through the one commit point (the block's checks: pbem.pipeline.replace)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pbem.delivery.deadlines import FIELDS, MODERATOR
from pbem.errors import BlockError, DoesNotFitError, UsageError
from pbem.orders.orderblock import find_blocks
from pbem.orders.signatures import parse_public_key, verify
from pbem.pipeline import opening as games
from pbem.pipeline.replace import moderator_key, parse_replacement, replacement_event
from pbem.store.entries import Replacement as ReplacementEntry
from pbem.store.gamefile import GameFile, current_hash, fingerprint, state_hash


def apply_replacement(path: Path, text: str) -> GameFile:
    """Check the moderator's block and replace the player's roster entry; log it."""
    with games.locked(path):
        game = games.open_game(path)
        gf = game.gf
        blocks = [b for b in find_blocks(text) if (b.player or "").lower() == MODERATOR]
        if not blocks:
            raise BlockError("no moderator block found ('player: moderator')")
        block = blocks[-1]
        prev = current_hash(gf)
        if (block.game or "").lower() != gf.game_id.lower():
            raise DoesNotFitError(f"the block is for game '{block.game}', not '{gf.game_id}'")
        if block.seq != gf.seq or (block.state or "").lower() != fingerprint(prev):
            raise DoesNotFitError(f"stale block: written against seq {block.seq}, but the game "
                                  f"is at seq {gf.seq}; sign a new one")
        verify(moderator_key(gf), block.payload(), block.signature or "")
        change = parse_replacement(block)
        entry = gf.roster_entry(change.player)
        if entry is None:
            raise BlockError(f"unknown player '{change.player}'; players: "
                             f"{', '.join(gf.player_ids())}")
        old = {k: entry[k] for k in FIELDS if k in entry}
        if change.key is not None:
            taken = [p["id"] for p in gf.roster["players"] if p["id"] != change.player and
                     parse_public_key(p["key"]).raw == parse_public_key(change.key).raw]
            if taken:
                raise UsageError(f"that key already belongs to {taken[0]}")
            entry["key"] = change.key
        entry.update({k: getattr(change, k) for k in FIELDS[:2] + FIELDS[3:]
                      if getattr(change, k) is not None})
        new: dict[str, Any] = {k: entry[k] for k in FIELDS if k in entry}
        game.advance(ReplacementEntry(
            seq=gf.seq + 1, prev_state=prev, post_state=state_hash(gf.game, gf.seq + 1, gf.state,
                                                                   gf.agenda),
            events=[replacement_event(change.player, new)], player=change.player,
            block=block.text, payload_sha256=hashlib.sha256(block.payload()).hexdigest(),
            old=old, new=new), None)
        games.commit(game)
        return gf
