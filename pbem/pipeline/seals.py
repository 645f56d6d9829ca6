"""A moderated game's sealed answers: their salts and commitments, each player's answer that
counts (the last one, issue 24), and the block that matches it among the secrets' copies."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any


def seal_salt(seed: bytes, game_id: str, node: str, player: str,
              replaces: str | None = None) -> bytes:
    """A sealed answer's salt; a replacing answer's is its own, so that the salt the unseal
    publishes opens the last answer only, never the superseded ones."""
    label = f"seal|{game_id}|{node}|{player}" + (f"|{replaces}" if replaces else "")
    return hmac.new(seed, label.encode(), hashlib.sha256).digest()


def last_commitments(log: Sequence[dict[str, Any]], node: str) -> dict[str, dict[str, Any]]:
    """Each player's last sealed entry for `node` (raw), by player: the answer that counts."""
    return {str(e["player"]): e for e in log if e.get("kind") == "sealed" and e.get("node") == node}


def commitment(salt: bytes, payload: bytes) -> str:
    return hashlib.sha256(salt + payload).hexdigest()


def matching_block(seed: bytes, game_id: str, sealed: dict[str, Any],
                   candidates: Sequence[str]) -> str | None:
    """The newest of `candidates` (a player's blocks for a node, oldest first) that opens the
    raw `sealed` entry's commitment: a block whose replacing entry never reached the game file
    (a crash before the commit point) is passed over."""
    from pbem.orders.orderblock import find_blocks  # the block parser, only when needed

    salt = seal_salt(seed, game_id, str(sealed["node"]), str(sealed["player"]),
                     sealed.get("replaces"))
    for text in reversed(candidates):
        found = find_blocks(text)
        if found and commitment(salt, found[0].payload()) == sealed.get("commitment"):
            return text
    return None


def withdraw_others(agenda: list[dict[str, Any]], seat: str) -> None:
    """Take back (in place) every sealed answer but `seat`'s: what `seat` may not know (a
    sandbox fork, a bot's view)."""
    for node in agenda:
        if node.get("sealed"):
            for player in [p for p in node.get("answers", {}) if p != seat]:
                withdraw(node, player)


def withdraw(node: dict[str, Any], player: str) -> None:
    """Take `player`'s answer to `node` back (in place), and in an open game their seal: a
    newer sealed answer replaces it (issue 24)."""
    node["answers"] = {p: a for p, a in node.get("answers", {}).items() if p != player}
    if player in node.get("seals", {}):
        node["seals"] = {p: s for p, s in node["seals"].items() if p != player}
