"""`pbem selfplay`: whole games with random legal choices, to prove the engine holds up.

Full mode runs every decision through the real pipeline: a signed one-line block, found,
verified and applied exactly as `pbem apply` would, then checks the invariants (the engine does,
on every block), that the state is plain data (a JSON round trip, every block), a byte-identical
YAML round trip of the game file every EXACT_EVERY blocks and at the end, and at the end a
replay of the whole log. Fast mode (`--fast`) drives the engine alone, for the benchmark.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import sealing
from engine.core.adjudicate import Known, answer, options_now, settle
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import SeededChance
from engine.core.choice import Choice
from engine.core.errors import IllegalOrder, InvariantViolation
from engine.core.ruleset import Ruleset
from engine.core.table import Table
from pbem import rulesets
from pbem.errors import PbemError
from pbem.orders.signatures import parse_public_key, public_key_line
from pbem.pipeline import replay
from pbem.pipeline.apply import apply_text
from pbem.pipeline.game import from_gamefile
from pbem.pipeline.setup import create_game
from pbem.play.policy import Policy, make_policy
from pbem.play.selfplay_moderated import BLOCK_CAP, play_moderated
from pbem.play.stats import Stats, record_end, signed_block
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import gamefile, seeds
from pbem.store.gamefile import GameFile, current_hash
from pbem.store.hashing import Encoded, encode_state, reads_back

EXACT_EVERY = 40  # a YAML dump and parse costs more than the rules step it checks


def play_fast(seed: str, players: int, options: dict[str, Any], stats: Stats,
              policy: Policy | None = None) -> None:
    """One game through the engine alone, answers taken from the option lists."""
    policy = policy or make_policy("random")
    policy.new_game(seed)
    ruleset = ruleset_for(stats.ruleset)
    chance = SeededChance(seeds.make_seed(seed), seed, 0)
    seats = ruleset.seat_ids([f"bot{i + 1}" for i in range(players)])
    table, _ = ruleset.setup(catalog_for(stats.ruleset), seed, seats, dict(options), chance)
    events, known = settle(ruleset, table, chance)
    stats.note(events)
    for _ in range(BLOCK_CAP):  # a stall is a failure, as in full mode, not an endless loop
        if ruleset.is_over(table):
            break
        who = policy.pick_player(waiting_for(table.agenda))
        choice = policy.choose(ruleset, table, who, _legal(ruleset, table, who, known))
        stats.verbs[choice.verb or choice.line.split()[0]] += 1  # survivors have no verb
        events = answer(ruleset, table, choice, chance, who)
        settled, known = settle(ruleset, table, chance)
        events += settled
        policy.saw(events)
        stats.note(events)
        stats.decisions += 1
    if not ruleset.is_over(table):
        stats.violations.append(f"{seed}: no end after {BLOCK_CAP} decisions")
        stats.games += 1
        return
    record_end(stats, table.state)


def _legal(ruleset: Ruleset, table: Table, who: str, known: Known) -> list[Choice]:
    """`who`'s legal answers now: the ones the last settling of the state computed (the same
    call on the same state, read whole here, before the table changes), else computed."""
    return list(known[who]) if who in known else options_now(ruleset, table, who)


def _round_trip(gf: GameFile, *, exact: bool, encoded: Encoded | None = None) -> None:
    """The state is plain data (what the hash and the file can hold): its canonical JSON
    (`encoded`, when the apply already made it for the state hash) reads back equal
    (pbem.store.hashing.reads_back); with `exact`, the game file's YAML reads back to the same
    bytes and hash."""
    if encoded is None:
        encoded = encode_state(gf.game, gf.seq, gf.state, gf.agenda)
    if not reads_back(encoded, gf.game, gf.seq, gf.state, gf.agenda):
        raise InvariantViolation("the state is not plain data: it changes in a JSON round trip")
    if not exact:
        return
    probe = GameFile(gf.game, gf.roster, gf.randomness, gf.seq, gf.state, gf.agenda, [])
    loaded = gamefile.load_text(gamefile.dump_text(probe))
    # Equal data (Python's == tells a key 1 from "1") of equal JSON types (the hash tells 1
    # from 1.0 and true) dumps to the same bytes: one dump, not two.
    if _head(loaded) != _head(probe) or current_hash(loaded) != current_hash(probe):
        raise InvariantViolation("the state does not survive a YAML round trip byte for byte")


def _head(gf: GameFile) -> tuple[object, ...]:
    return gf.game, gf.roster, gf.randomness, gf.seq, gf.state, gf.agenda


def new_selfplay_game(seed: str, players: int, options: dict[str, Any],
                      ruleset: str = rulesets.DEFAULT,
                      ) -> tuple[GameFile, dict[str, Ed25519PrivateKey]]:
    keys = [Ed25519PrivateKey.from_private_bytes(
        seeds.make_seed(f"{seed}-key-{i}")) for i in range(players)]
    publics = [parse_public_key(public_key_line(
        k.public_key().public_bytes_raw(), f"bot{i + 1}", None)) for i, k in enumerate(keys)]
    gf = create_game(publics, game_id=seed, seed=seeds.make_seed(seed), open_game=True,
                     options=options, ruleset_name=ruleset)
    by_bank = {entry["id"]: keys[index] for index, entry in enumerate(gf.roster["players"])}
    return gf, by_bank


def play_full(seed: str, players: int, options: dict[str, Any], stats: Stats,
              out_dir: Path, policy: Policy | None = None) -> None:
    """One game through the real pipeline with all per-step checks."""
    policy = policy or make_policy("random")
    policy.new_game(seed)
    gf, keys = new_selfplay_game(seed, players, options, stats.ruleset)
    game = from_gamefile(gf, seeds.make_seed(seed))
    ruleset = game.ruleset
    blocks = 0
    openings: dict[tuple[str, str], str] = {}
    known: Known = {}  # the legal answers the last apply computed at the state it made
    _round_trip(gf, exact=False)
    while not gf.state["over"]:
        if blocks >= BLOCK_CAP:
            stats.violations.append(f"{seed}: no end after {BLOCK_CAP} blocks")
            stats.games += 1
            return
        table = game.table()
        player = policy.pick_player(waiting_for(table.agenda))
        try:  # a look-ahead answers legal options: a refusal there is a broken rule too
            line = policy.choose(ruleset, table, player, _legal(ruleset, table, player, known)).line
        except (IllegalOrder, InvariantViolation) as error:
            stats.violations.append(f"{seed} block {blocks + 1} ({player}, looking ahead): {error}")
            stats.failures.append(_write_repro(out_dir, seed, gamefile.dump_text(gf), ""))
            stats.games += 1
            return
        line = _commit_or_reveal(next_pending(table.agenda), player, line, openings)
        text = signed_block(gf, player, keys[player], line, game.state_hash())
        # The rules change the game's own state (no copy per block): a refused block
        # restores the state before it (the bytes its hash was built from), for its repro.
        before = (gf.seq, game.encoded(), len(gf.log))
        try:
            applied = apply_text(game, text, known=known, in_place=True)
            _round_trip(applied.gf, exact=(blocks + 1) % EXACT_EVERY == 0,
                        encoded=game.encoded())
            blocks += 1
        except (PbemError, InvariantViolation) as error:
            stats.violations.append(f"{seed} block {blocks + 1} ({player}: {line}): {error}")
            gf.seq, (gf.state, gf.agenda) = before[0], before[1].restore()
            del gf.log[before[2]:]
            stats.failures.append(_write_repro(out_dir, seed, gamefile.dump_text(gf), text))
            stats.games += 1
            return
        known = applied.options
        policy.saw(applied.events)
        stats.step(line, applied.events)
    try:  # once, at the end: a replay every few blocks made checked games quadratic in length
        _round_trip(gf, exact=True)
        replay.verify(Path("."), gf)
    except (PbemError, InvariantViolation) as error:
        stats.violations.append(f"{seed} at the end: {error}")
        stats.failures.append(_write_repro(out_dir, seed, gamefile.dump_text(gf), ""))
    record_end(stats, gf.state)


def _commit_or_reveal(node: dict[str, Any] | None, player: str, line: str,
                      openings: dict[tuple[str, str], str]) -> str:
    """In an open game a sealed answer is sent as `seal HEX`, then opened (engine.core.sealing);
    the nonce is derived, so a self-play game replays exactly."""
    if not sealing.is_committing(node):
        return line
    assert node is not None
    key = (str(node["id"]), player)
    nonce = hashlib.sha256(f"selfplay|{node['id']}|{player}".encode()).hexdigest()
    if sealing.stage(node) == sealing.SEAL:
        openings[key] = line
        return f"seal {sealing.seal_of(node['id'], player, line, nonce)}"
    return f"open {openings.pop(key)} nonce {nonce}"


def _write_repro(out_dir: Path, seed: str, game_text: str, block: str) -> str:
    """The game file just before the failing block, and the block: `pbem apply` reproduces it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    game = out_dir / f"selfplay-{seed}.yaml"
    game.write_text(game_text, encoding="utf-8")
    (out_dir / f"selfplay-{seed}.block.txt").write_text(block, encoding="utf-8")
    return str(game)


def run(games: int, players: int, seed: str, options: dict[str, Any], *, fast: bool = False,
        out_dir: Path = Path("selfplay-failures"), ruleset: str = rulesets.DEFAULT,
        moderated: bool = False, policy: str = "random") -> Stats:
    """`games` seeded games; `policy` is one of policy.POLICIES (random keeps the benchmark's
    figures comparable with earlier runs)."""
    stats = Stats(ruleset=ruleset, checked=not fast, policy=policy)
    bot = make_policy(policy)
    if moderated:
        start = time.perf_counter()
        for index in range(games):
            play_moderated(f"{seed}-moderated-{players}p-{index}", players, options, stats,
                           out_dir, bot)
        stats.seconds = time.perf_counter() - start
        return stats
    start = time.perf_counter()
    for index in range(games):
        game_seed = f"{seed}-{players}p-{index}" if ruleset == rulesets.DEFAULT else \
            f"{seed}-{ruleset}-{players}p-{index}"
        if fast:
            play_fast(game_seed, players, options, stats, bot)
        else:
            play_full(game_seed, players, options, stats, out_dir, bot)
    stats.seconds = time.perf_counter() - start
    return stats
