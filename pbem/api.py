"""pbem as a library, for scripts and tests: the pipeline's use cases on game files.

Each function takes a game file's path (or an already loaded GameFile where reading is all it
does) and behaves exactly as the command of the same name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import rulesets
from pbem.orders.signatures import PublicKey
from pbem.pipeline import queries, replay
from pbem.pipeline.apply import Applied, apply_block
from pbem.pipeline.game import Game, from_gamefile
from pbem.pipeline.opening import open_game
from pbem.pipeline.setup import new_game as _new_game
from pbem.store import gamefile
from pbem.store.gamefile import GameFile

__all__ = ["Applied", "apply_block", "legal_lines", "new_game", "status", "verify"]


def _opened(game: Path | GameFile) -> Game:
    return open_game(game) if isinstance(game, Path) else from_gamefile(game)


def new_game(path: Path, keys: list[PublicKey], *, game_id: str,
             ruleset_name: str = rulesets.DEFAULT, **options: Any) -> GameFile:
    return _new_game(path, keys, game_id=game_id, ruleset_name=ruleset_name, **options)


def status(game: Path | GameFile) -> dict[str, Any]:
    return queries.status(_opened(game))


def legal_lines(game: Path | GameFile, player: str | None = None) -> dict[str, Any]:
    return queries.legal_lines(_opened(game), player)


def verify(path: Path, gf: GameFile | None = None,
           secrets_file: Path | None = None) -> replay.Verified:
    return replay.verify(path, gf if gf is not None else gamefile.load(path), secrets_file)
