"""A game held for one command: the file's head, its ruleset, what this run may see, and the
log entries this run adds (opened and committed by pbem.pipeline.opening).

Every command that changes a game goes through `open_game` and `commit`, whatever the ruleset
and mode:
- the game file is read head-only (its log kept as text, with just the trailing entries a
  pending simultaneous decision needs), so the cost of a command stays flat as the game grows;
- in a moderated game with hidden information the whole state comes from the moderator's
  secrets file (the generation matching the game file), or is rebuilt by replaying the log;
- `advance` moves the game by one typed log entry, checking the chain;
- `commit` writes the secrets' new generation, then the game file (appending to the log's text):
  the game file's atomic rename is the commit point, so a crash leaves the game at the old
  state or the new, never in between. Read-only commands never write.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from engine.core.chance import Chance, NoChance, SeededChance
from engine.core.records import dataclass_on_first_use
from engine.core.ruleset import Ruleset
from engine.core.table import Table
from pbem.errors import UsageError
from pbem.pipeline.seals import last_commitments, matching_block
from pbem.rulesets import catalog_of, ruleset_of
from pbem.store import secrets, seeds
from pbem.store.entries import Entry, append
from pbem.store.gamefile import GameFile, current_hash
from pbem.store.hashing import Encoded, digest, encode_state
from pbem.store.projection import Projection, projection_for

ANSWER_KINDS = ("orders", "sealed", "timeout")  # entries that answer a simultaneous decision
# Entries that change no rule (settings; absences, pauses and takeback requests, issue 24): a
# block written against the state before a run of them still holds.
QUIET_KINDS = ("settings", "absence", "pause", "bot", "takeback")


@dataclass_on_first_use()
class Game:
    gf: GameFile
    ruleset: Ruleset
    projection: Projection
    path: Path | None = None
    log_text: str | None = None  # the stored log's YAML text when only the head was parsed
    tail: list[dict[str, Any]] = field(default_factory=list)  # trailing entries, raw
    secrets: secrets.Secrets | None = None
    seed: bytes | None = None
    new: list[Entry] = field(default_factory=list)  # entries added by this run
    sealed: dict[str, dict[str, str]] | None = None  # unopened sealed blocks, once asked
    # State hashes computed this run, keyed by seq and the objects hashed: the state changes
    # only through `advance` (which drops older seqs); `hash_of` adds the objects an open game
    # is about to store, so `advance` checks them without hashing them twice.
    hashes: dict[tuple[int, int, int, int], str] = field(default_factory=dict, repr=False)
    # The canonical JSON of the last state `hash_of` hashed, by the same key, with its parts
    # (what checked self-play reads back, and keeps to restore a state a block spoilt).
    encodings: dict[tuple[int, int, int, int], Encoded] = field(default_factory=dict, repr=False)

    def state_hash(self) -> str:
        """The game file's current state hash, computed once per state this run holds."""
        gf = self.gf
        key = (gf.seq, id(gf.game), id(gf.state), id(gf.agenda))
        if key not in self.hashes:
            self.hashes[key] = current_hash(gf)
        return self.hashes[key]

    def unopened(self) -> dict[str, dict[str, str]]:
        """The sealed blocks not yet opened (node -> player -> block), kept up to date by the
        steps of this run and stored with the next generation."""
        if self.sealed is None:
            self.sealed = sealed_blocks(self)
        return self.sealed

    @property
    def whole(self) -> bool:
        """Whether this run sees the whole state (always, unless the moderator's file is
        needed and absent)."""
        return not self.projection.hidden or self.gf.full is not None

    def table(self) -> Table:
        """The whole state when this run has it, else the public one shaped for the views."""
        if self.gf.full is not None:
            state, agenda = self.gf.full
        elif self.projection.hidden:
            state, agenda = self.ruleset.viewable(self.gf.state), self.gf.agenda
        else:
            state, agenda = self.gf.state, self.gf.agenda
        return Table(state, agenda, catalog_of(self.gf))

    def require_whole(self, what: str) -> None:
        if not self.whole:
            raise UsageError(
                f"only the moderator can {what} in this moderated game: the hidden cards are in "
                f"the moderator's secrets file {self.secrets_name()}")

    def secrets_name(self) -> str:
        return seeds.seed_path(self.path or Path("game.yaml"), self.gf).name

    def chance(self, next_n: int) -> Chance:
        return NoChance() if self.seed is None else SeededChance(self.seed, self.gf.game_id,
                                                                  next_n)

    def recent(self) -> list[dict[str, Any]]:
        """The trailing raw entries known to this run, new ones included."""
        return [*self.tail, *self.gf.log] if self.log_text is not None else list(self.gf.log)

    def encoded(self) -> Encoded:
        """The canonical JSON of the game file's current state (its hash is taken of it), with
        the marshal bytes it was built from (an exact copy of the state)."""
        gf = self.gf
        found = self.encodings.get((gf.seq, id(gf.game), id(gf.state), id(gf.agenda)))
        return found if found is not None else encode_state(gf.game, gf.seq, gf.state,
                                                            gf.agenda)

    def hash_of(self, seq: int, table: Table, header: dict[str, Any] | None = None) -> str:
        game = self.gf.game if header is None else header
        if self.projection.hidden:
            return self.projection.hash(self.ruleset, game, seq, table.state, table.agenda)
        # The file will hold these very objects: `advance` checks them without a second hash.
        key = (seq, id(game), id(table.state), id(table.agenda))
        encoded = encode_state(game, seq, table.state, table.agenda)
        self.hashes[key] = found = digest(encoded.text)
        self.encodings = {key: encoded}
        return found

    def advance(self, entry: Entry, table: Table | None,
                header: dict[str, Any] | None = None) -> None:
        """Move the game by one entry; `table` is the whole state after it (None when the
        state does not change), `header` the game header after it (its trail grown by a
        settings change or a timeout). The entry's hashes must chain, else it is a pbem bug."""
        gf = self.gf
        if entry.seq != gf.seq + 1 or entry.prev_state != self.state_hash():
            raise AssertionError(f"entry seq {entry.seq} does not follow seq {gf.seq}")
        gf.seq = entry.seq
        if header is not None:
            gf.game = header
        if table is not None:
            if self.projection.hidden:
                gf.full = (table.state, table.agenda)
            gf.state = self.projection.state(self.ruleset, table.state)
            gf.agenda = self.projection.agenda(table.agenda)
        if entry.post_state != self.state_hash():  # computed unless hash_of hashed these
            raise AssertionError(f"entry seq {entry.seq}: post_state is not the state stored")
        self.hashes = {k: v for k, v in self.hashes.items() if k[0] == gf.seq}
        self.encodings = {k: v for k, v in self.encodings.items() if k[0] == gf.seq}
        append(gf.log, entry)
        self.new.append(entry)


def table_of(gf: GameFile) -> tuple[Ruleset, Table]:
    """The ruleset and table of a game held in memory (the whole state when attached)."""
    game = from_gamefile(gf)
    return game.ruleset, game.table()


def from_gamefile(gf: GameFile, seed: bytes | None = None, path: Path | None = None) -> Game:
    """A game held in memory (self-play, tests): its whole log is parsed."""
    ruleset = ruleset_of(gf)
    return Game(gf, ruleset, projection_for(ruleset, gf), path=path, seed=seed)


def sealed_blocks(game: Game) -> dict[str, dict[str, str]]:
    """The unopened sealed blocks of the current generation (node -> player -> block)."""
    if game.secrets is None:
        return {}
    found = game.secrets.at(current_hash(game.gf))
    if found is not None:
        return {node: dict(answers) for node, answers in found.sealed.items()}
    blocks: dict[str, dict[str, str]] = {}
    log = game.recent()
    for (node, player), copies in game.secrets.sealed_copies().items():
        last = last_commitments(log, node).get(player)
        picked = matching_block(game.secrets.seed, game.gf.game_id, last, copies) \
            if last is not None and len(copies) > 1 else None
        blocks.setdefault(node, {})[player] = picked or copies[-1]
    opened = {(str(e.get("node")), p) for e in game.recent() if e.get("kind") == "unseal"
              for p in dict(e.get("blocks") or {})}
    return {n: {p: t for p, t in a.items() if (n, p) not in opened} for n, a in blocks.items()}
