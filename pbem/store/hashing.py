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
# The same bytes without the check for reference cycles (about a tenth of a state hash): a
# cycle then recurses until RecursionError, and only then is the checking encoder asked, so a
# cycle still gets its ValueError (and nesting too deep its RecursionError) as before.
_UNCHECKED = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              check_circular=False)


def canonical_json(data: Any) -> bytes:
    try:
        return _UNCHECKED.encode(data).encode()
    except RecursionError:
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
