"""Opening a game for a command and committing what it did: the one commit point.

- the game file is read head-only (its log kept as text, with just the trailing entries a
  pending simultaneous decision needs), so the cost of a command stays flat as the game grows;
- in a moderated game with hidden information the whole state comes from the moderator's
  secrets file (the generation matching the game file), or is rebuilt by replaying the log;
- `commit` writes the secrets' new generation, then the game file (appending to the log's
  text): the game file's atomic rename is the commit point. Reading never writes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.core.agenda import is_parallel, next_pending
from pbem.pipeline.game import ANSWER_KINDS, QUIET_KINDS, Game, from_gamefile
from pbem.store import creation, gamefile, secrets, seeds
from pbem.store.gamefile import GameFile, current_hash


def _tail_for(gf: GameFile, log_text: str) -> list[dict[str, Any]]:
    """The run of entries answering the pending simultaneous decision, and settings changes,
    absences and pauses (for the window of states a block may be written against:
    pbem.pipeline.envelope)."""
    node = next_pending(gf.agenda)
    parallel = node is not None and is_parallel(node)
    return gamefile.tail_entries(
        log_text, lambda e: e.get("kind") in QUIET_KINDS or parallel and e.get("node") ==
        node["id"] and e.get("kind") in ANSWER_KINDS)  # type: ignore[index]


def open_game(path: Path, *, whole: bool = True, head_only: bool = True,
              secrets_file: Path | None = None) -> Game:
    """The game at `path` for this run. With `whole`, attach the whole state when this run
    holds the moderator's file (a missing file leaves the public state: `require_whole`)."""
    if head_only:
        gf, log_text = gamefile.load_head(path)
    else:
        gf, log_text = gamefile.load(path), None
        gamefile.check_state(gf)
    game = from_gamefile(gf, path=path)
    game.log_text = log_text
    if log_text is not None:
        game.tail = _tail_for(gf, log_text)
    game.seed = seeds.known_seed(path, gf, secrets_file)
    if game.projection.hidden and whole:
        attach(game, secrets_file)
    return game


def attach(game: Game, secrets_file: Path | None = None) -> None:
    """The whole state from the secrets generation that matches the game file, else rebuilt
    by replaying the log with the seed (nothing is written: reading never writes)."""
    assert game.path is not None
    game.secrets = secrets.read(secrets_file or seeds.seed_path(game.path, game.gf))
    if game.secrets is None:
        return
    found = game.secrets.at(current_hash(game.gf))
    if found is not None and found.seq == game.gf.seq:
        game.gf.full = (found.state, found.agenda)
        return
    full = gamefile.load(game.path)
    from pbem.pipeline.replay import rebuild  # start-up: only a lost generation replays

    table = rebuild(from_gamefile(full, game.secrets.seed, game.path), game.secrets)
    game.gf.full = (table.state, table.agenda)


def commit(game: Game) -> None:
    """Store the new entries: the secrets' generation for the new state first, then the game
    file, whose atomic rename is the commit point."""
    assert game.path is not None
    gf = game.gf
    if game.projection.hidden and game.secrets is not None and gf.full is not None:
        # Without the whole state (a roster change by a host without the secrets), the next
        # moderator's run rebuilds it from the log.
        game.secrets.add(secrets.Generation(current_hash(gf), gf.seq, gf.full[0], gf.full[1],
                                            game.unopened()))
        secrets.write(seeds.seed_path(game.path, gf), game.secrets)
    if game.log_text is None:
        gamefile.write_atomic(game.path, gamefile.dump_text(gf))
    else:
        gamefile.write_atomic(game.path, gamefile.dump_appended(gf, game.log_text))


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """The game's lock; holding it, a run also clears what killed runs left of the game file
    and of its seed or secrets file (both are written only under this lock), and the journal
    of a `new` killed after its commit."""
    seed = [path.with_suffix(".seed")] if path.name else []  # no name: locked() refuses it
    with gamefile.locked(path, companions=seed):
        creation.finish_abandoned(path)
        yield
