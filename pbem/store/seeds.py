"""Seed material: making seeds, the seed file, the commitment, and building the Chance."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from engine.core.chance import Chance, Draw, NoChance, ReplayChance, SeededChance
from pbem.errors import CorruptGameError, UsageError
from pbem.store import secrets
from pbem.store.gamefile import GameFile


def make_seed(seed_text: str | None) -> bytes:
    """A 32-byte seed: derived from `--seed TEXT` for reproducible games, else random."""
    if seed_text is None:
        return os.urandom(32)
    return hashlib.sha256(f"pbem-seed:{seed_text}".encode()).digest()


def commitment(seed: bytes) -> str:
    return "sha256:" + hashlib.sha256(seed).hexdigest()


def seed_path(game_path: Path, gf: GameFile) -> Path:
    name = str(gf.randomness.get("seed_file") or game_path.with_suffix(".seed").name)
    if name in (".", "..") or any(c in name for c in "/\\\0"):
        # the file sits beside the game: a path from the file must not lead elsewhere
        raise CorruptGameError("game file: 'randomness.seed_file' should be a file name beside "
                               "the game file")
    return game_path.resolve().parent / name


def seed_text(seed: bytes) -> str:
    """A seed file's text: the seed in hex."""
    return seed.hex() + "\n"


def _parse_seed(text: str, where: str) -> bytes:
    if text.lstrip().startswith("{"):  # a secrets file (a game with hidden information)
        return secrets.parse(text, where).seed
    try:
        return bytes.fromhex(text.strip())
    except ValueError:
        raise CorruptGameError(f"{where} does not hold a hex seed") from None


def known_seed(game_path: Path, gf: GameFile, secrets_file: Path | None = None) -> bytes | None:
    """The seed if this run may know it: open games, revealed games, or the moderator's file."""
    if gf.randomness.get("seed"):
        seed = _parse_seed(str(gf.randomness["seed"]), "the game file's seed")
    else:
        path = secrets_file or seed_path(game_path, gf)
        if secrets_file is not None and not secrets_file.is_file():
            raise UsageError(f"no seed or secrets file at {secrets_file}")
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise UsageError(f"cannot read {path.name}: {getattr(error, 'strerror', None) or error}") \
                from None
        seed = _parse_seed(text, path.name)
    expected = gf.randomness.get("commitment")
    if expected and commitment(seed) != expected:
        raise CorruptGameError("the seed does not match the game's commitment")
    return seed


def chance_for(game_path: Path, gf: GameFile, next_n: int) -> Chance:
    seed = known_seed(game_path, gf)
    if seed is None:
        return NoChance()
    return SeededChance(seed, gf.game_id, next_n)


def replay_chance(seed: bytes | None, game_id: str, next_n: int,
                  recorded: list[dict[str, object]]) -> Chance:
    """For verify: re-derive draws when the seed is known, else replay the recorded ones."""
    if seed is not None:
        return SeededChance(seed, game_id, next_n)
    draws = [Draw(int(str(d["n"])), str(d["purpose"]), str(d["outcome"])) for d in recorded]
    return ReplayChance(draws, next_n)


def require_seed(game_path: Path, gf: GameFile) -> bytes:
    seed = known_seed(game_path, gf)
    if seed is None:
        raise UsageError(f"this needs the game's seed file {seed_path(game_path, gf).name}, "
                         "which only the moderator holds")
    return seed
