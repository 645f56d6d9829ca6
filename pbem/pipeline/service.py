"""Use cases callable without the CLI: start a game, apply a signed block, list options, status.

The pipeline of architecture.md section 3: intake, authenticate, envelope checks, adjudicate on
a working copy, invariants, persist atomically under the lock. Any failure before the write
leaves the game file byte-identical.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core import sealing
from engine.core.adjudicate import adjudicate, options_now, run_automatic
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.chance import Chance, SeededChance, SeedNeeded
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Event, Table
from pbem import words
from pbem.errors import (
    BlockError,
    DoesNotFitError,
    OrdersRejected,
    PbemError,
    UsageError,
)
from pbem.orders.orderblock import OrderBlock, find_blocks
from pbem.orders.signatures import PublicKey, parse_public_key, verify
from pbem.rulesets import catalog_for, ruleset_for, seat_ids, table_of
from pbem.store import gamefile, hidden, seeds
from pbem.store.gamefile import GameFile, current_hash, fingerprint, state_hash


class EngineBug(PbemError):
    """An invariant broke: a bug in pbem; the game file is unchanged."""


@dataclass
class Applied:
    gf: GameFile
    player: str
    events: list[Event]
    note: str  # e.g. which of several blocks was used


def draws_data(chance: Chance) -> list[dict[str, object]]:
    return [d.to_data() for d in chance.draws]


def public_texts(events: list[Event]) -> list[str]:
    return words.public_texts(events)


def create_game(
    keys: list[PublicKey], *, game_id: str, seed: bytes, ruleset_name: str = "pax",
    open_game: bool = False, options: dict[str, Any] | None = None,
    moderator: PublicKey | None = None, seed_file: str = "",
) -> GameFile:
    """Set up a game in memory for players seated in the order given."""
    if len({k.raw for k in keys}) != len(keys):
        raise UsageError("two players have the same key; each player needs a key of their own")
    ruleset = ruleset_for(ruleset_name)
    options = sealing_option(ruleset_name, open_game, dict(options or {}))
    chance = SeededChance(seed, game_id, 0)
    seats = seat_ids(ruleset_name, [key.name or "" for key in keys])
    try:
        table, events = ruleset.setup(catalog_for(ruleset_name), game_id, seats,
                                      dict(options or {}), chance)
    except ValueError as error:
        raise UsageError(str(error)) from None
    events += run_automatic(ruleset, table, chance)
    table.state["draws"] = chance.next_n
    game = {"id": game_id, "ruleset": ruleset_name, "ruleset_version": 1,
            "players": len(keys), "options": dict(table.state["options"])}
    roster: dict[str, Any] = {"players": [
        {"id": bank, "name": key.name or bank, "email": key.email or "",
         "key": key.roster_text()}
        for bank, key in zip(table.state["seats"], keys, strict=True)
    ]}
    if moderator is not None:
        roster["moderator"] = {"name": moderator.name or "moderator",
                               "email": moderator.email or "", "key": moderator.roster_text()}
    randomness: dict[str, Any] = (
        {"mode": "open", "seed": seed.hex()} if open_game
        else {"mode": "moderated", "commitment": seeds.commitment(seed), "seed_file": seed_file}
    )
    if ruleset_name == "aor" and not open_game:  # hands and deck go to the secrets file only
        gf = GameFile(game, roster, randomness, 0, {}, [], [])
        hidden.set_public(gf, table.state, table.agenda)
        gf.log.append({"seq": 0, "kind": "setup", "draws": hidden.mask_draws(chance.draws),
                       "post_state": current_hash(gf), "summary": public_texts(events)})
        return gf
    post = state_hash(game, 0, table.state, table.agenda)
    entry = {"seq": 0, "kind": "setup", "draws": draws_data(chance), "post_state": post,
             "summary": public_texts(events)}
    return GameFile(game, roster, randomness, 0, table.state, table.agenda, [entry])


def sealing_option(ruleset_name: str, open_game: bool, options: dict[str, Any]) -> dict[str, Any]:
    """Age of Renaissance: sealed bids stay with the moderator, or in an open game are sealed
    by commit and reveal unless the players choose `sealing=plain`."""
    if ruleset_name != "aor":
        return options
    if not open_game:
        if options.get("sealing", "moderator") != "moderator":
            raise UsageError("sealing=commit and sealing=plain are for open games (--open); a "
                             "moderated game's sealed bids go to the moderator")
        return {**options, "sealing": "moderator"}
    if options.get("sealing") == "moderator":
        raise UsageError("an open game has no moderator to hold sealed bids; use sealing=commit "
                         "(the default) or sealing=plain")
    return {"sealing": "commit", **options}


def new_game(
    path: Path, keys: list[PublicKey], *, game_id: str, ruleset_name: str = "pax",
    seed_text: str | None = None, open_game: bool = False, options: dict[str, Any] | None = None,
    moderator: PublicKey | None = None,
) -> GameFile:
    """Start a game and write its file (and, for a moderated game, its seed file)."""
    if path.exists():
        raise UsageError(f"{path} already exists; choose another file name")
    seed = seeds.make_seed(seed_text)
    seed_file = path.with_suffix(".seed")
    gf = create_game(keys, game_id=game_id, seed=seed, ruleset_name=ruleset_name,
                     open_game=open_game, options=options, moderator=moderator,
                     seed_file=seed_file.name)
    if not open_game:
        if seed_file.exists():
            raise UsageError(f"{seed_file} already exists; remove it or choose another game file")
        seeds.write_seed_file(seed_file, seed)
        if gf.full is not None:
            secrets = hidden.Secrets(seed)
            secrets.cache = hidden.cache_of(gf)
            hidden.write_secrets(seed_file, secrets)
    gamefile.write_atomic(path, gamefile.dump_text(gf))
    return gf


def parallel_window(gf: GameFile) -> dict[int, str]:
    """seq -> state fingerprint a block may be written against. Normally only the current
    state; while a parallel node is pending, any state since it opened where every entry since
    answered that node (each answer is written against the node's opening)."""
    window = {gf.seq: fingerprint(current_hash(gf))}
    node = next_pending(gf.agenda)
    if node is None or not is_parallel(node):
        return window
    for entry in reversed(gf.log):
        if entry.get("node") != node["id"] or entry.get("kind") not in ("orders", "sealed"):
            break
        window[int(entry["seq"]) - 1] = fingerprint(str(entry["prev_state"]))
    return window


def choose_block(gf: GameFile, blocks: list[OrderBlock]) -> tuple[OrderBlock, str]:
    """The block that fits the game now; stale copies (quoted old blocks) are passed over, and
    so is a quoted report skeleton (unsigned, no orders)."""
    blocks = [b for b in blocks if b.lines or b.signature]
    if not blocks:
        raise BlockError("no order block found: expected a '-----BEGIN PBEM ORDERS-----' block")
    ours = [b for b in blocks if (b.game or "").lower() == gf.game_id.lower()]
    if not ours:
        raise DoesNotFitError(f"the block is for game '{blocks[0].game}', but this file is "
                              f"game '{gf.game_id}'")
    fp = fingerprint(current_hash(gf))
    window = parallel_window(gf)
    fresh = [b for b in ours
             if b.seq is not None and window.get(b.seq) == (b.state or "").lower()]
    if not fresh:
        block = ours[-1]
        raise DoesNotFitError(
            f"stale block: written against seq {block.seq} state {block.state}, but the game is "
            f"at seq {gf.seq} state {fp}; read the latest report and write new orders")
    # A signed block with orders beats a quoted, unsigned skeleton of the same state.
    fresh.sort(key=lambda b: (b.signature is None, not b.lines, -(b.seq or 0)))
    note = ""
    if len(blocks) > 1:
        note = f"used the block for seq {fresh[0].seq}; {len(blocks) - 1} other block(s) ignored"
    return fresh[0], note


def authenticate(gf: GameFile, block: OrderBlock) -> str:
    player = (block.player or "").lower()
    entry = gf.roster_entry(player)
    if entry is None:
        raise BlockError(f"unknown player '{block.player}'; players: {', '.join(gf.player_ids())}")
    if not block.signature:
        raise BlockError("the block is not signed; sign it with: pbem sign ORDERS --key KEY")
    if not block.lines:
        raise BlockError("the block holds no orders")
    verify(parse_public_key(entry["key"]), block.payload(), block.signature)
    return player


def resigns(block: OrderBlock) -> bool:
    """A block that starts with `resign`, which a ruleset may take at any time (AoR 11.3)."""
    return bool(block.lines) and " ".join(block.lines[0].text.lower().split()) == "resign"


def check_turn(gf: GameFile, table: Table, player: str, *, resigning: bool = False) -> None:
    if gf.state.get("over"):
        raise DoesNotFitError("the game is over; no more orders are taken")
    if resigning and hasattr(ruleset_for(gf.game["ruleset"]), "resign"):
        return
    owed = waiting_for(table.agenda)
    node = next_pending(table.agenda)
    if sealing.is_committing(node) and node is not None and player in node["seals"] \
            and player not in node.get("answers", {}) and sealing.stage(node) == sealing.SEAL:
        raise DoesNotFitError(f"{player} has already sealed an answer (a seal cannot be "
                              "changed); open it once every seal is in")
    if node is not None and is_parallel(node) and player in node.get("answers", {}):
        how = "sealed; a bid cannot be changed" if node.get("sealed") else "answered"
        raise DoesNotFitError(f"{player} has already answered this decision (already {how})")
    if player not in owed:
        what = f" to {ruleset_for(gf.game['ruleset']).actions[node['action']].decision}" \
            if node else ""
        raise DoesNotFitError(f"it is not {player}'s decision now: waiting for "
                              f"{', '.join(owed)}{what}")


def apply_block(path: Path, text: str, *, dry_run: bool = False) -> Applied:
    """The whole pipeline on a game file, under its lock; nothing is written on any error.
    Except in a dry run, the returned game holds only the new log entry (reload for more)."""
    with gamefile.locked(path):
        # Applying needs the state, not the log: parse only the head and append to the log's
        # text (the cost of an apply then stays flat as the game grows).
        gf, old_log = (gamefile.load(path), None) if dry_run else gamefile.load_head(path)
        if hidden.is_hidden(gf):
            from pbem.pipeline.hidden_apply import apply_hidden

            return apply_hidden(path, gamefile.load(path), text, dry_run=dry_run)
        pending = next_pending(gf.agenda)
        if old_log is not None and pending is not None and is_parallel(pending):
            gf, old_log = gamefile.load(path), None  # the envelope reads the node's answers
        applied = apply_text(gf, text, lambda n: seeds.chance_for(path, gf, n),
                             seed_name=seeds.seed_path(path, gf).name)
        if dry_run:
            return applied
        if old_log is None:
            gamefile.write_atomic(path, gamefile.dump_text(applied.gf))
        else:
            gamefile.write_atomic(path, gamefile.dump_appended(applied.gf, old_log))
        return applied


def apply_text(gf: GameFile, text: str, make_chance: Callable[[int], Chance], *,
               seed_name: str = "") -> Applied:
    """Find, authenticate and adjudicate a block against an in-memory game; `gf` is updated
    only when everything succeeds."""
    block, note = choose_block(gf, find_blocks(text))
    player = authenticate(gf, block)
    ruleset, table = table_of(gf)
    check_turn(gf, table, player, resigning=resigns(block))
    prev = current_hash(gf)
    chance = make_chance(int(gf.state["draws"]))
    lines = [(line.number, line.text) for line in block.lines]
    try:
        outcome = adjudicate(ruleset, table, player, lines, chance)
    except RuleError as error:
        raise OrdersRejected(error.message()) from None
    except SeedNeeded:
        raise UsageError(
            "these orders lead to a random draw, which needs the game's seed file "
            f"{seed_name}; send them to the moderator") from None
    except InvariantViolation as error:
        raise EngineBug(f"internal error (a pbem bug; the game file is unchanged): {error}") \
            from None
    node = next_pending(table.agenda)
    work = outcome.table
    work.state["draws"] = int(gf.state["draws"]) + len(chance.draws)
    gf.seq += 1
    gf.state, gf.agenda = work.state, work.agenda
    entry: dict[str, Any] = {
        "seq": gf.seq, "kind": "orders", "player": player, "block": block.text,
        "payload_sha256": hashlib.sha256(block.payload()).hexdigest(),
        "draws": draws_data(chance), "prev_state": prev, "post_state": current_hash(gf),
        "summary": public_texts(outcome.events),
    }
    if node is not None and is_parallel(node):
        entry["node"] = node["id"]
    gf.log.append(entry)
    return Applied(gf, player, outcome.events, note)


def decision_of(gf: GameFile) -> tuple[list[str], str]:
    ruleset, table = table_of(gf)
    node = next_pending(table.agenda)
    if node is None:
        return [], ""
    return waiting_for(table.agenda), ruleset.actions[node["action"]].decision


def legal_lines(gf: GameFile, player: str | None = None) -> dict[str, Any]:
    """The legal lines of `player` (default: the first player owed) for the next decision."""
    hidden.require_whole(gf)
    ruleset, table = table_of(gf)
    owed, decision = decision_of(gf)
    if player is not None and player not in gf.player_ids():
        raise UsageError(f"unknown player '{player}'; players: {', '.join(gf.player_ids())}")
    who = player if player is not None else (owed[0] if owed else None)
    data: dict[str, Any] = {
        "seq": gf.seq, "state": fingerprint(current_hash(gf)),
        "player": who, "decision": decision if who in owed else "",
        "lines": [c.line for c in options_now(ruleset, table, who)] if who in owed else [],
    }
    node = next_pending(table.agenda)
    if sealing.is_committing(node) and who in owed:
        # Commit and reveal: no plain line applies; these are the lines one may seal.
        assert node is not None
        data["sealing"] = sealing.stage(node)
        data["seal_lines"], data["lines"] = data["lines"], []
    return data


def status(gf: GameFile) -> dict[str, Any]:
    owed, decision = decision_of(gf)
    turn = gf.state.get("turn")
    data = {
        "game": gf.game_id, "ruleset": gf.game["ruleset"], "seq": gf.seq,
        "state": fingerprint(current_hash(gf)), "over": bool(gf.state.get("over")),
        "winners": list(gf.state.get("winners", [])), "result": gf.state.get("result"),
        "waiting_for": owed, "decision": decision,
        "turn": turn.get("number") if isinstance(turn, dict) else turn,
    }
    node = next_pending(gf.agenda)
    if node is not None and is_parallel(node):
        data["sealed"] = bool(node.get("sealed"))
        data["received"] = sorted(node.get("answers", {}))
        if sealing.is_committing(node):
            data["sealing"] = sealing.stage(node)
            data["received"] = sorted(set(node["seals"]) | set(node.get("answers", {})))
            data["opened"] = sorted(node.get("answers", {}))
    return data
