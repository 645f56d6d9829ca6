"""The board as it stood at an earlier seq (`pbem report --seq N`) and the log told seq by seq
(`pbem log`).

The past board is rebuilt by the one replay (pbem.pipeline.replay) up to that seq, and checked
against the state hash the log recorded there. A game whose rules hide information keeps only
the public projection in its file, so its past boards need the whole history: the moderator's
secrets file, or the seed once revealed. No reader ever sees more of the past than the game
file shows; `pbem log` tells only the log's public events, which is what every player may read.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pbem.errors import UsageError
from pbem.pipeline.game import Game, from_gamefile
from pbem.pipeline.replay import Replay
from pbem.pipeline.replay_checks import first_keys
from pbem.store.entry_reader import read_all
from pbem.store.projection import public_agenda
from pbem.views.model import entry_texts


def check_seq(game: Game, seq: int, what: str) -> None:
    if not 0 <= seq <= game.gf.seq:
        raise UsageError(f"{what} {seq} is not in this game: its seqs run from 0 to "
                         f"{game.gf.seq}")


def game_at(game: Game, seq: int) -> Game:
    """The game as it stood after log entry `seq` (its board, agenda and log up to then)."""
    check_seq(game, seq, "--seq")
    gf = game.gf
    if seq == gf.seq:
        return game
    if game.projection.hidden and game.seed is None:
        raise UsageError("this moderated game hides cards: its earlier boards can be rebuilt "
                         "only by the moderator, or by anyone once the seed is revealed")
    entries = read_all(gf.log)[: seq + 1]
    replay = Replay(game, entries, game.secrets, first_keys(gf, entries))
    table = replay.setup(entries[0])
    replay.keep(0, table)
    for entry in entries[1:]:
        chance = replay.chance(entry, int(table.state["draws"]))
        replay.step(table, entry, chance)
        table.state["draws"] = int(table.state["draws"]) + len(chance.draws)
        replay.keep(entry.seq, table)  # a position a later undo returns to (a takeback)
    if game.hash_of(seq, table) != entries[-1].post_state:
        raise UsageError(f"the replay of seq {seq} does not match its log entry; run "
                         "pbem verify on this game")
    state, agenda = table.state, list(table.agenda)
    if game.projection.hidden:  # the file holds the public projection; the whole one beside
        past = dataclasses.replace(gf, seq=seq, state=game.ruleset.public_state(state),
                                   agenda=public_agenda(agenda), log=gf.log[: seq + 1],
                                   full=(state, agenda))
    else:
        past = dataclasses.replace(gf, seq=seq, state=state, agenda=agenda,
                                   log=gf.log[: seq + 1])
    return from_gamefile(past, game.seed, game.path)


def log_lines(game: Game, since: int = 0) -> list[dict[str, Any]]:
    """The log from seq `since` on, each entry in words (its public events, draws, choices)."""
    check_seq(game, since, "--since")
    rows = []
    taken = {int(seq): int(e["seq"]) for e in game.gf.log if e.get("kind") == "undo"
             for seq in e.get("undone") or []}
    for entry in game.gf.log:
        if int(entry["seq"]) >= since:
            rows.append({"seq": int(entry["seq"]), "kind": entry.get("kind"),
                         "player": entry.get("player"),
                         "texts": entry_texts(entry, game.ruleset.name),
                         "taken_back": taken.get(int(entry["seq"]))})  # by that undo's seq
    return rows
