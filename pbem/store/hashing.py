"""The state hash a block is written against, and its canonical JSON (changing either is a
format change). Importable from pbem.store.gamefile as before."""

from __future__ import annotations

import hashlib
import json
import marshal
from typing import Any, NamedTuple, Protocol


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
        same = marshal.dumps(first, 2) == marshal.dumps(second, 2)
    except ValueError:  # not marshal's data: the encoder decides (and refuses what it cannot)
        same = False
    return same or canonical_json(first) == canonical_json(second)


class Encoded(NamedTuple):
    """A state's canonical JSON, and the marshal bytes it was built from (None when it was
    encoded whole): an exact copy of the state, which `restore` gives back and `reads_back`
    checks."""

    text: bytes
    head: tuple[bytes, bytes] | None = None  # the game header's and the agenda's
    keys: tuple[str, ...] = ()  # the state's keys, sorted
    parts: list[bytes] | None = None  # each state part's, in that order

    def restore(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The state (its keys sorted) and agenda as they were encoded."""
        assert self.head is not None and self.parts is not None, "encoded whole: no copy"
        loads = marshal.loads
        return dict(zip(self.keys, map(loads, self.parts), strict=True)), loads(self.head[1])


def state_json(game: dict[str, Any], seq: int, state: dict[str, Any],
               agenda: list[dict[str, Any]]) -> bytes:
    """The canonical JSON the state hash is taken of: the same bytes as `canonical_json` of
    the four, built from the encodings of the game header, the agenda and each part of the
    state, each reused while that part stays the same (most parts outlive a decision)."""
    return encode_state(game, seq, state, agenda).text


def encode_state(game: dict[str, Any], seq: int, state: dict[str, Any],
                 agenda: list[dict[str, Any]]) -> Encoded:
    """`state_json`'s text, with the parts it was built from."""
    order = _ORDERS.get(tuple(state)) if type(state) is dict else None
    if order is None:
        order = _order(state)
    if type(seq) is not int or order is None:
        return Encoded(canonical_json(_whole(game, seq, state, agenda)))
    kept, dumps = _FRAGMENTS, marshal.dumps
    try:
        head = (dumps(game), dumps(agenda))
        out = [b'{"agenda":', kept.get(head[1]) or _fragment(head[1], agenda), b',"game":',
               kept.get(head[0]) or _fragment(head[0], game), b',"seq":%d,"state":{' % seq]
        parts = []
        for key, named in order:
            value = state[key]
            data = dumps(value)
            parts.append(data)
            out += (named, kept.get(data) or _fragment(data, value))
    except ValueError:  # not marshal's data (a custom type, a cycle): the encoder's own verdict
        return Encoded(canonical_json(_whole(game, seq, state, agenda)))
    out.append(b"}}")
    return Encoded(b"".join(out), head, tuple(key for key, _ in order), parts)


def reads_back(encoded: Encoded, game: dict[str, Any], seq: int, state: dict[str, Any],
               agenda: list[dict[str, Any]]) -> bool:
    """Whether the state is plain data: `encoded` (its `encode_state`) reads back (json.loads)
    equal to the four. Part by part, each part's verdict kept by its marshal bytes (equal
    bytes, equal verdict), so a decision reads back only the parts it changed."""
    if encoded.head is None or encoded.parts is None:
        return bool(json.loads(encoded.text.decode()) == _whole(game, seq, state, agenda))
    seen = _READ_BACK
    for data in (*encoded.head, *encoded.parts):
        if data in seen:
            continue
        value = marshal.loads(data)  # the part, of the same types
        if json.loads((_FRAGMENTS.get(data) or _fragment(data, value)).decode()) != value:
            return False
        if len(seen) >= _FRAGMENTS_KEPT:
            seen.clear()
        seen.add(data)
    return True


def _whole(game: dict[str, Any], seq: int, state: dict[str, Any],
           agenda: list[dict[str, Any]]) -> dict[str, Any]:
    """What the state hash covers, as one value."""
    return {"game": game, "seq": seq, "state": state, "agenda": agenda}


# A part's encoding by its marshal bytes. Equal bytes load to equal values of equal types
# (marshal tells 1 from 1.0, True and "1"), which encode alike: a reuse never changes a hash.
# The bytes also follow sharing and interning, so an equal part may miss (it is encoded anew).
# Bounded, oldest out first.
_FRAGMENTS: dict[bytes, bytes] = {}
_FRAGMENTS_KEPT = 4096
_ORDERS: dict[tuple[str, ...], list[tuple[str, bytes]]] = {}  # by a state's keys: `_order`
_READ_BACK: set[bytes] = set()  # the parts that read back equal, by marshal bytes


def _fragment(data: bytes, value: Any) -> bytes:
    """The encoding of `value`, whose marshal bytes are `data`, kept."""
    found = canonical_json(value)
    if len(_FRAGMENTS) >= _FRAGMENTS_KEPT:
        _FRAGMENTS.pop(next(iter(_FRAGMENTS)), None)  # another thread may have taken it
    _FRAGMENTS[data] = found
    return found


def _order(state: Any) -> list[tuple[str, bytes]] | None:
    """A state's keys as the canonical JSON orders them, each with its encoding (`"key":`, a
    comma before all but the first), kept by the keys in their order; None unless the state
    is a dict of str keys (then it is encoded whole)."""
    if type(state) is not dict or not all(type(key) is str for key in state):
        return None
    order = [(key, b"," + canonical_json(key) + b":") for key in sorted(state)]
    if order:
        order[0] = (order[0][0], order[0][1][1:])
    if len(_ORDERS) >= _FRAGMENTS_KEPT:
        _ORDERS.clear()
    _ORDERS[tuple(state)] = order
    return order


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
