"""Replaying the log: `pbem verify` trusts nothing but the setup inputs and signed blocks.

Before the seed is revealed, recorded draws are replayed (each checked to be possible); once it
is known, every draw is re-derived from the seed and checked against the log.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from engine.core.adjudicate import adjudicate, run_automatic
from engine.core.agenda import is_parallel, next_pending
from engine.core.chance import Chance, ReplayMismatch
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Table
from pbem import words
from pbem.delivery import deadlines
from pbem.errors import CorruptGameError, PbemError, UsageError
from pbem.orders.orderblock import find_blocks
from pbem.orders.signatures import parse_public_key, verify
from pbem.pipeline import replacement
from pbem.rulesets import catalog_for, ruleset_for, setup_seats
from pbem.store import gamefile, hidden, seeds
from pbem.store.gamefile import GameFile, state_hash


@dataclass
class Verified:
    entries: int
    seed_checked: bool
    final_state: str
    replayed: bool = True


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


def _check_draws(seq: object, chance: Chance, recorded: list[dict[str, object]]) -> None:
    made = [d.to_data() for d in chance.draws]
    if made != recorded:
        first = next((i for i, (a, b) in enumerate(zip(made, recorded, strict=False)) if a != b),
                     min(len(made), len(recorded)))
        raise _bad(seq, f"draw #{first + 1} does not match the log")


def replay(path: Path, gf: GameFile, secrets_file: Path | None = None) -> Verified:
    """Rebuild the game from its setup and signed blocks; raise naming the first bad entry."""
    if not gf.log or gf.log[0].get("kind") != "setup":
        raise CorruptGameError("log: the first entry must be the setup")
    if hidden.is_hidden(gf):
        return _replay_hidden(path, gf, secrets_file)
    seed = seeds.known_seed(path, gf)
    ruleset = ruleset_for(str(gf.game["ruleset"]))
    catalog = catalog_for(str(gf.game["ruleset"]))
    setup = gf.log[0]
    chance = seeds.replay_chance(seed, gf.game_id, 0, setup.get("draws", []))
    seats = setup_seats(gf)
    try:
        table, _ = ruleset.setup(catalog, gf.game_id, seats, dict(gf.game["options"]), chance)
        run_automatic(ruleset, table, chance)
    except (ReplayMismatch, ValueError) as error:
        raise _bad(0, f"setup does not replay: {error}") from None
    _check_draws(0, chance, setup.get("draws", []))
    table.state["draws"] = len(chance.draws)
    seq = 0
    current = state_hash(gf.game, seq, table.state, table.agenda)
    if current != setup.get("post_state"):
        raise _bad(0, "the setup does not produce the recorded state")
    keys = _first_keys(gf)
    states = {0: current}
    for entry in gf.log[1:]:
        seq += 1
        if entry.get("seq") != seq:
            raise _bad(entry.get("seq"), f"expected seq {seq}")
        kind = entry.get("kind")
        if kind == "orders":
            written = _check_envelope(gf, table, entry, seq, states)
            table = _replay_orders(gf, table, entry, seq, current, seed, keys, written)
        elif kind == "reveal":
            _check_reveal(gf, entry, seq)
        elif kind == "timeout":
            table = _replay_timeout(gf, table, entry, seq, current, seed)
        elif kind == "correction" and entry.get("change") == "roster":
            if entry.get("prev_state") != current:
                raise _bad(seq, "prev_state does not chain to the entry before")
            try:
                replacement.check_replacement(gf, entry, keys, seq, current)
            except (ValueError, PbemError) as error:
                raise _bad(seq, f"roster change: {error}") from None
        else:
            raise _bad(seq, f"unknown entry kind '{kind}'")
        current = state_hash(gf.game, seq, table.state, table.agenda)
        if current != entry.get("post_state"):
            raise _bad(seq, "the replay does not produce the recorded post_state")
        states[seq] = current
    if keys != {p["id"]: p["key"] for p in gf.roster["players"]}:
        raise CorruptGameError("the roster's keys do not match its logged roster changes")
    if seq != gf.seq or current != gamefile.current_hash(gf):
        raise CorruptGameError("the state in the file does not match the replayed log "
                               f"(after log entry seq {seq})")
    return Verified(len(gf.log), seed is not None, current)


def _replay_hidden(path: Path, gf: GameFile, secrets_file: Path | None) -> Verified:
    """A moderated Age of Renaissance game: public checks always; the full replay when the
    seed is known (the secrets file, or after the reveal)."""
    from pbem.pipeline.hidden_replay import replay_full, verify_public

    verify_public(gf, _first_keys(gf))
    seed = seeds.known_seed(path, gf, secrets_file)
    if seed is None:
        return Verified(len(gf.log), False, gamefile.current_hash(gf), replayed=False)
    found = hidden.read_secrets(secrets_file or seeds.seed_path(path, gf)) \
        if not gf.randomness.get("seed") else None
    replay_full(gf, seed, found.sealed if found else None)
    return Verified(len(gf.log), True, gamefile.current_hash(gf))


def _first_keys(gf: GameFile) -> dict[str, str]:
    """Each player's key at the start: the roster's, with logged roster changes undone."""
    keys = {str(p["id"]): str(p["key"]) for p in gf.roster["players"]}
    for entry in reversed(gf.log):
        if entry.get("kind") == "correction" and entry.get("change") == "roster":
            old = entry.get("old") or {}
            keys[str(entry.get("player"))] = str(old.get("key"))
    return keys


def _replay_timeout(gf: GameFile, table: Table, entry: dict[str, object], seq: int,
                    prev: str, seed: bytes | None) -> Table:
    """A timeout: every logged line must be the default of the decision it answered."""
    if entry.get("prev_state") != prev:
        raise _bad(seq, "prev_state does not chain to the entry before")
    player = str(entry.get("player"))
    lines = [str(line) for line in list(entry.get("lines") or [])]  # type: ignore[call-overload]
    recorded = list(entry.get("draws", []))  # type: ignore[call-overload]
    chance = seeds.replay_chance(seed, gf.game_id, int(table.state["draws"]), recorded)
    try:
        work, _, events = deadlines.apply_defaults(ruleset_for(str(gf.game["ruleset"])), table,
                                                   player, chance, logged=lines)
    except (ValueError, RuleError, ReplayMismatch, InvariantViolation) as error:
        raise _bad(seq, f"the timeout does not replay: {error}") from None
    _check_draws(seq, chance, recorded)
    summary = [deadlines.timeout_note(player, lines),
               *words.public_texts(events)]
    if summary != entry.get("summary"):
        raise _bad(seq, "the summary does not match what the defaults did")
    work.state["draws"] = int(table.state["draws"]) + len(chance.draws)
    return work


def _replay_orders(gf: GameFile, table: Table, entry: dict[str, object], seq: int,
                   prev: str, seed: bytes | None, keys: dict[str, str], written: str) -> Table:
    if entry.get("prev_state") != prev:
        raise _bad(seq, "prev_state does not chain to the entry before")
    blocks = find_blocks(str(entry.get("block", "")))
    if len(blocks) != 1:
        raise _bad(seq, "the stored block cannot be read")
    block = blocks[0]
    player = str(entry.get("player"))
    if player not in keys or (block.player or "").lower() != player:
        raise _bad(seq, f"player '{player}' does not match the roster or the block")
    payload = block.payload()
    if hashlib.sha256(payload).hexdigest() != entry.get("payload_sha256"):
        raise _bad(seq, "payload hash does not match the block")
    if block.seq is None or (block.state or "") != written[:16]:
        raise _bad(seq, "the block was not written against the state before it")
    try:
        verify(parse_public_key(keys[player]), payload, block.signature or "")
    except PbemError as error:
        raise _bad(seq, f"bad signature: {error}") from None
    ruleset = ruleset_for(str(gf.game["ruleset"]))
    recorded = list(entry.get("draws", []))  # type: ignore[call-overload]
    chance = seeds.replay_chance(seed, gf.game_id, int(table.state["draws"]), recorded)
    try:
        outcome = adjudicate(ruleset, table, player,
                             [(line.number, line.text) for line in block.lines], chance,
                             in_place=True)
    except (RuleError, ReplayMismatch, InvariantViolation) as error:
        raise _bad(seq, f"the orders do not replay: {error}") from None
    _check_draws(seq, chance, recorded)
    if words.public_texts(outcome.events) != entry.get("summary"):
        raise _bad(seq, "the summary does not match what the orders did")
    outcome.table.state["draws"] = int(table.state["draws"]) + len(chance.draws)
    return outcome.table


def _check_envelope(gf: GameFile, table: Table, entry: dict[str, object], seq: int,
                    states: dict[int, str]) -> str:
    """The `node` an entry names must be the parallel node pending, and its block may be
    written against any state since that node opened (every entry since answered it)."""
    node = next_pending(table.agenda)
    parallel = node["id"] if node is not None and is_parallel(node) else None
    if entry.get("node") != parallel:
        raise _bad(seq, "the entry's node does not match the decision pending")
    blocks = find_blocks(str(entry.get("block", "")))
    written = blocks[0].seq if len(blocks) == 1 and blocks[0].seq is not None else seq - 1
    if written != seq - 1:
        between = gf.log[written + 1:seq]
        if parallel is None or not 0 <= written < seq - 1 or any(
                e.get("node") != parallel for e in between):
            raise _bad(seq, "the block was not written against the state before it")
    return states.get(written, "")


def _check_reveal(gf: GameFile, entry: dict[str, object], seq: int) -> None:
    seed = bytes.fromhex(str(entry.get("seed", "")))
    if seeds.commitment(seed) != gf.randomness.get("commitment"):
        raise _bad(seq, "the revealed seed does not match the commitment")


def reveal(path: Path, *, force: bool = False) -> GameFile:
    """Publish the seed in a `reveal` entry so anyone can re-derive every draw."""
    with gamefile.locked(path):
        gf = gamefile.load(path)
        if gf.randomness.get("mode") != "moderated":
            raise UsageError("this is an open game: its seed is already in the game file")
        if gf.randomness.get("seed"):
            raise UsageError("the seed has already been revealed")
        if not gf.state.get("over") and not force:
            raise UsageError("the game is not over; revealing the seed now would show every "
                             "future draw (use --force to reveal anyway)")
        seed = seeds.require_seed(path, gf)
        prev = gamefile.current_hash(gf)
        gf.seq += 1
        gf.randomness["seed"] = seed.hex()
        gf.log.append({"seq": gf.seq, "kind": "reveal", "seed": seed.hex(), "prev_state": prev,
                       "post_state": gamefile.current_hash(gf),
                       "summary": ["The moderator reveals the seed."]})
        gamefile.write_atomic(path, gamefile.dump_text(gf))
        return gf
