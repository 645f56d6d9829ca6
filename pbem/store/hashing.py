"""The state hash a block is written against, and its canonical JSON (changing either is a
format change). Importable from pbem.store.gamefile as before."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol


class Position(Protocol):
    """What a state hash covers (a GameFile has it)."""

    game: dict[str, Any]
    seq: int
    state: dict[str, Any]
    agenda: list[dict[str, Any]]


# What json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) builds per
# call, built once.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(data: Any) -> bytes:
    return _CANONICAL.encode(data).encode()


def state_json(game: dict[str, Any], seq: int, state: dict[str, Any],
               agenda: list[dict[str, Any]]) -> bytes:
    """The canonical JSON the state hash is taken of."""
    return canonical_json({"game": game, "seq": seq, "state": state, "agenda": agenda})


def state_hash(game: dict[str, Any], seq: int, state: dict[str, Any],
               agenda: list[dict[str, Any]]) -> str:
    """SHA-256 of the canonical form of what a block is written against (changing it is a
    format change). Reports and block headers use its first 16 hex digits."""
    return digest(state_json(game, seq, state, agenda))


def digest(text: bytes) -> str:
    """The state hash of a state's canonical JSON (`state_json`)."""
    return hashlib.sha256(text).hexdigest()


def fingerprint(full_hash: str) -> str:
    return full_hash[:16]


def current_hash(gf: Position) -> str:
    return state_hash(gf.game, gf.seq, gf.state, gf.agenda)
