"""Games to draw: set up, then played some steps with seeded random legal lines (in memory)."""

from __future__ import annotations

import random
from typing import Any

from engine.core.adjudicate import options_now
from engine.core.agenda import next_pending, waiting_for
from pbem.pipeline.apply import apply_text
from pbem.pipeline.game import Game, from_gamefile
from pbem.play.selfplay import _commit_or_reveal, new_selfplay_game
from pbem.play.stats import signed_block
from pbem.store import seeds


def played(ruleset: str, players: int, steps: int, seed: str = "board", **options: Any) -> Game:
    """An open game after `steps` random legal blocks (fewer if it ends first)."""
    gf, keys = new_selfplay_game(seed, players, options, ruleset)
    game = from_gamefile(gf, seeds.make_seed(seed))
    rng = random.Random(seed)
    openings: dict[tuple[str, str], str] = {}
    for _ in range(steps):
        if gf.state["over"]:
            break
        table = game.table()
        owed = waiting_for(table.agenda)
        player = owed[0] if len(owed) == 1 else rng.choice(owed)
        line = rng.choice([c.line for c in options_now(game.ruleset, table, player)])
        line = _commit_or_reveal(next_pending(table.agenda), player, line, openings)
        apply_text(game, signed_block(gf, player, keys[player], line))
    return game
