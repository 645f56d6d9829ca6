"""Moderated Age of Renaissance self-play (issue 8): whole games through the moderator's real
pipeline on disk (game file, secrets file, lock), random answers from each player's legal lines.

After every block the public file must name no card held in a hand, and no sealed answer may
appear in it before its `unseal` entry; at the end `verify` replays the whole game with the
secrets file. A violation writes the game and secrets files and the block to the failure folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core.errors import InvariantViolation
from pbem.errors import PbemError
from pbem.orders.signatures import parse_public_key, public_key_line
from pbem.pipeline import replay
from pbem.pipeline.apply import apply_block
from pbem.pipeline.opening import open_game
from pbem.pipeline.queries import legal_lines, status
from pbem.pipeline.setup import new_game
from pbem.play.policy import Policy
from pbem.play.stats import Stats, record_end, signed_block
from pbem.store import gamefile, plain_yaml, seeds
from pbem.store.gamefile import GameFile

BLOCK_CAP = 5000  # a stall is a failure, not an endless loop


# Keys whose values name rules, not hands: an event's kind and message id (an event of kind
# `war` shows no War card), and the cards made obsolete by a card played (Long Bow obsoletes
# Armor and Stirrups whoever holds them, engine.aor.events.note_obsolete).
STRUCTURAL = ("kind", "msg", "obsolete")


def strings_in(data: object) -> set[str]:
    """Every string value in parsed YAML (keys left out: `civil_war: []` is a rule fact; so are
    the values of STRUCTURAL keys). One walk with a stack: a set per node cost more than the
    rest of the check (it runs on the whole head after every block)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in STRUCTURAL)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            found.add(item)
    return found


class PublicText:
    """The strings of the public game file, its log read once per entry: the log only grows
    (store.gamefile.dump_appended), so a check after every block stays linear in game length."""

    def __init__(self) -> None:
        self.log = ""
        self.log_strings: set[str] = set()

    def strings(self, path: Path) -> set[str]:
        text = path.read_text(encoding="utf-8")
        at = text.find(LOG_KEY)
        if at < 0:
            return strings_in(_load(text))
        # the head as the game's own reader parses it (a head just written by this process
        # is not parsed again: gamefile.dump_appended)
        head, log = gamefile.parse_data(text[:at + 1] + "log: []\n"), text[at + len(LOG_KEY):]
        if not log.startswith(self.log):  # rewritten, not appended: read it all again
            self.log, self.log_strings = "", set()
        new = log[len(self.log):]
        if new.strip():
            self.log_strings |= strings_in(_load(new))
        self.log = log
        return strings_in(head) | self.log_strings


LOG_KEY = "\nlog:\n"
_SAFE_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's: far faster


def _load(text: str) -> Any:
    try:
        return plain_yaml.load(text)  # what the safe loader reads, faster (pbem's own layout)
    except plain_yaml.NotPlain:
        return yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader


def hand_cards(gf: GameFile) -> set[str]:
    assert gf.full is not None
    return {card for data in gf.full[0]["players"].values() for card in data["hand"].values()}


def secrecy_problems(shown: set[str], gf: GameFile, answers_logged: list[dict[str, Any]],
                     known: frozenset[str] = frozenset()) -> list[str]:
    """Cards in hands named in the public file (`shown`: its strings), and sealed answers
    shown before unsealing (`answers_logged`: the entries answering the pending decision).
    `known`: hand cards the public file already named when they were drawn (a card played
    earlier, reshuffled into a new deck and drawn again: the file names it as history, and
    this check cannot tell a leak of it from that)."""
    assert gf.full is not None
    found = [f"{card} is in a hand and in the public file"
             for data in gf.full[0]["players"].values() for card in data["hand"].values()
             if card in shown and card not in known]
    node = gf.full[1][0] if gf.full[1] else None
    if node is not None and node.get("sealed"):
        for who, line in node.get("answers", {}).items():
            if any(str(line) in str(entry.get("block", "")) for entry in answers_logged
                   if entry.get("player") == who and entry.get("node") == node["id"]):
                found.append(f"{who}'s sealed answer is readable before unsealing")
    return found


def bot_keys(seed: str, players: int) -> dict[str, Ed25519PrivateKey]:
    names = [f"bot{i + 1}" for i in range(players)]
    return {name: Ed25519PrivateKey.from_private_bytes(seeds.make_seed(f"{seed}-key-{name}"))
            for name in names}


def play_moderated(seed: str, players: int, options: dict[str, Any], stats: Stats,
                   out_dir: Path, policy: Policy | None = None) -> None:
    """One moderated game of `stats.ruleset` on disk (with hidden information, if the
    ruleset has any, the secrets file and sealed answers). Bots see only their legal lines
    here, so every policy picks among them at random (its seed and coverage tally still hold)."""
    policy = policy or Policy()
    policy.new_game(seed)
    folder = Path(tempfile.mkdtemp(prefix="pbem-moderated-", dir=_scratch()))
    try:
        _play(folder, seed, players, options, stats, out_dir, policy)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _scratch() -> str | None:
    """Where a game's files are played: a memory file system when the machine has one. The
    pipeline is the same (atomic renames, the lock, every fsync it asks for); only the waits for
    the disk go, which were most of a moderated game's wall time (bench/README.md, session 10)."""
    shm = "/dev/shm"
    if not (os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK)):
        return None
    fs = os.statvfs(shm)  # a container's is often 64 MB: a game's files need room to grow
    return shm if fs.f_bavail * fs.f_frsize >= 256 << 20 else None


def _play(folder: Path, seed: str, players: int, options: dict[str, Any], stats: Stats,
          out_dir: Path, policy: Policy) -> None:
    keys = bot_keys(seed, players)
    publics = [parse_public_key(public_key_line(k.public_key().public_bytes_raw(), name, None))
               for name, k in keys.items()]
    path = folder / "game.yaml"
    new_game(path, publics, game_id=seed, ruleset_name=stats.ruleset, seed_text=seed,
             options=options)
    public = PublicText()
    game = open_game(path)
    shown: set[str] = set()
    known: frozenset[str] = frozenset()  # hand cards public before they were drawn
    for blocks in range(BLOCK_CAP):
        gf = game.gf
        if gf.state["over"]:
            break
        owed = status(game)["waiting_for"]
        player = policy.pick_player(owed)
        line = policy.rng.choice(legal_lines(game, player)["lines"])
        text = signed_block(gf, player, keys[player], line, game.state_hash())
        secrets = seeds.seed_path(path, gf)
        before = (path.read_bytes(), secrets.read_bytes() if secrets.exists() else None)
        try:
            applied = apply_block(path, text)
            after = open_game(path)
            problems = []
            if after.projection.hidden:
                held_before, held = hand_cards(game.gf), hand_cards(after.gf)
                known = frozenset(known & held | {c for c in held - held_before if c in shown})
                shown = public.strings(path)
                problems = secrecy_problems(shown, after.gf, after.tail, known)
            if problems:
                raise InvariantViolation("; ".join(problems))
            game = after  # the file as the next block finds it: opened once
        except (PbemError, InvariantViolation) as error:
            stats.violations.append(f"{seed} block {blocks + 1} ({player}: {line}): {error}")
            path.write_bytes(before[0])  # the reproducing files are the game before the block
            if before[1] is not None:
                secrets.write_bytes(before[1])
            stats.failures.append(_keep(out_dir, seed, path, text))
            stats.games += 1
            return
        policy.saw(applied.events)
        stats.step(line, applied.events)
    else:
        stats.violations.append(f"{seed}: no end after {BLOCK_CAP} blocks")
        stats.games += 1
        return
    try:
        replay.verify(path, gamefile.load(path), seeds.seed_path(path, gf))
    except PbemError as error:
        stats.violations.append(f"{seed}: verify: {error}")
    record_end(stats, gf.state)


def _keep(out_dir: Path, seed: str, path: Path, block: str) -> str:
    """The game and secrets files as they were before the failing block, and the block."""
    out_dir.mkdir(parents=True, exist_ok=True)
    game = out_dir / f"selfplay-{seed}.yaml"
    shutil.copy(path, game)
    secrets = seeds.seed_path(path, gamefile.load(path))
    shutil.copy(secrets, out_dir / secrets.name)  # the name the game file records
    (out_dir / f"selfplay-{seed}.block.txt").write_text(block, encoding="utf-8")
    return str(game)
