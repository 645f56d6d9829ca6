"""`reveal`: the moderator publishes the seed in a `reveal` entry, so anyone can re-derive
every draw (and, with hidden information, every hand)."""

from __future__ import annotations

from pathlib import Path

from engine.core.table import event
from pbem.errors import UsageError
from pbem.pipeline import opening as games
from pbem.store.entries import Reveal
from pbem.store.gamefile import GameFile, current_hash, state_hash


def reveal(path: Path, *, force: bool = False) -> GameFile:
    with games.locked(path):
        game = games.open_game(path)
        gf = game.gf
        if gf.randomness.get("mode") != "moderated":
            raise UsageError("this is an open game: its seed is already in the game file")
        if gf.randomness.get("seed"):
            raise UsageError("the seed has already been revealed")
        if not gf.state.get("over") and not force:
            raise UsageError("the game is not over; revealing the seed now would show every "
                             "future draw (use --force to reveal anyway)")
        if game.seed is None:
            raise UsageError(f"this needs the game's seed file {game.secrets_name()}, which "
                             "only the moderator holds")
        prev = current_hash(gf)
        gf.randomness["seed"] = game.seed.hex()
        game.advance(Reveal(seq=gf.seq + 1, prev_state=prev,
                            post_state=state_hash(gf.game, gf.seq + 1, gf.state, gf.agenda),
                            events=[event("pbem.reveal", kind="reveal")], seed=game.seed.hex()),
                     None)
        games.commit(game)
        return gf
