"""The state hash a block is written against, and its canonical JSON (changing either is a
format change). Importable from pbem.store.gamefile as before."""

from __future__ import annotations

import hashlib
import json
import marshal
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


def same_json(first: Any, second: Any) -> bool:
    """Whether the two encode to the same canonical JSON (what the log's checks compare):
    equal marshal bytes (format 2: no references) are equal values of equal types, so only
    data that differs there is encoded."""
    try:
        if marshal.dumps(first, 2) == marshal.dumps(second, 2):
            return True
    except ValueError:  # not marshal's data: the encoder decides (and refuses what it cannot)
        pass
    return canonical_json(first) == canonical_json(second)


def state_json(game: dict[str, Any], seq: int, state: dict[str, Any],
               agenda: list[dict[str, Any]]) -> bytes:
    """The canonical JSON the state hash is taken of: the same bytes as `canonical_json` of
    the four, built from the encodings of the game header, the agenda and each part of the
    state, each reused while that part stays the same (most parts outlive a decision)."""
    if type(seq) is not int or type(state) is not dict or \
            not all(type(key) is str for key in state):
        return canonical_json({"game": game, "seq": seq, "state": state, "agenda": agenda})
    kept, keys, dumps = _FRAGMENTS, _KEYS, marshal.dumps
    try:
        out = [b'{"agenda":', _fragment(agenda), b',"game":', _fragment(game),
               b',"seq":%d,"state":{' % seq]
        for key in sorted(state):  # a state part's key and its encoding, inlined (the most used)
            value = state[key]
            fragment = kept.get(dumps(value))
            out.append(keys.get(key) or _key(key))
            out.append(fragment if fragment is not None else _fragment(value))
    except ValueError:  # not marshal's data (a custom type, a cycle): the encoder's own verdict
        return canonical_json({"game": game, "seq": seq, "state": state, "agenda": agenda})
    if state:
        out[5] = out[5][1:]  # the first key has no comma before it
    out.append(b"}}")
    return b"".join(out)


def reads_back(game: dict[str, Any], seq: int, state: dict[str, Any],
               agenda: list[dict[str, Any]]) -> bool:
    """Whether the state is plain data: `state_json`'s text reads back (json.loads) equal to
    the four. Part by part, each part's verdict kept by its marshal bytes (equal bytes, equal
    verdict), so a decision reads back only the parts it changed."""
    whole = {"game": game, "seq": seq, "state": state, "agenda": agenda}
    if type(seq) is not int or type(state) is not dict or \
            not all(type(key) is str for key in state):
        return bool(json.loads(canonical_json(whole).decode()) == whole)
    seen, dumps = _READ_BACK, marshal.dumps
    try:
        for value in (game, agenda, *state.values()):
            data = dumps(value)
            if data in seen:
                continue
            if json.loads(_fragment(value).decode()) != value:
                return False
            if len(seen) >= _FRAGMENTS_KEPT:
                seen.clear()
            seen.add(data)
    except ValueError:  # not marshal's data: the whole text read back decides
        return bool(json.loads(canonical_json(whole).decode()) == whole)
    return True


# A part's encoding by its marshal bytes. Equal bytes load to equal values of equal types
# (marshal tells 1 from 1.0, True and "1"), which encode alike: a reuse never changes a hash.
# The bytes also follow sharing and interning, so an equal part may miss (it is encoded anew).
# Bounded, oldest out first.
_FRAGMENTS: dict[bytes, bytes] = {}
_FRAGMENTS_KEPT = 4096
_KEYS: dict[str, bytes] = {}  # a state key as `,"key":`
_READ_BACK: set[bytes] = set()  # the parts that read back equal, by marshal bytes


def _fragment(value: Any) -> bytes:
    data = marshal.dumps(value)
    found = _FRAGMENTS.get(data)
    if found is None:
        found = canonical_json(value)
        if len(_FRAGMENTS) >= _FRAGMENTS_KEPT:
            del _FRAGMENTS[next(iter(_FRAGMENTS))]
        _FRAGMENTS[data] = found
    return found


def _key(key: str) -> bytes:
    found = b"," + canonical_json(key) + b":"
    if len(_KEYS) < _FRAGMENTS_KEPT:
        _KEYS[key] = found
    return found


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
