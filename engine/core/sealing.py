"""Commit, then reveal: sealed answers in a game with no moderator (issue 8; aor-pbem.md 6.2).

In a game whose options say `sealing: commit`, a sealed parallel node is answered twice. First
each player sends `seal HEX`, the SHA-256 of the answer with a secret nonce; nobody learns
anything. When every seal is in, each sends `open LINE nonce HEX`; the line must be legal and
must hash to the seal. The node resolves when every answer is open. A player who never sealed
gets the default answer; one who sealed but never opened gets the default and is `forfeit`
(the ruleset puts them last, so that declining to open after seeing the others rarely pays).

The node keeps `seals` {player: hex}, and `forfeit` [player] once a timeout opens for someone.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

Node = dict[str, Any]

SEAL_TAG = "pbem-seal-1"
SEAL_LINE = re.compile(r"^seal\s+([0-9a-f]{64})$")
OPEN_LINE = re.compile(r"^open\s+(.+?)\s+nonce\s+([0-9a-f]{64})$")
SEAL, OPEN = "seal", "open"


def uses_commit(options: dict[str, object]) -> bool:
    return options.get("sealing") == "commit"


def is_committing(node: Node | None) -> bool:
    """A sealed node answered by commit and reveal."""
    return node is not None and "players" in node and bool(node.get("sealed")) and "seals" in node


def stage(node: Node) -> str:
    """`seal` while someone may still seal, then `open`."""
    done = set(node["seals"]) | set(node.get("answers", {}))
    return SEAL if any(p not in done for p in node["players"]) else OPEN


def owed(node: Node) -> list[str]:
    answered = set(node.get("answers", {}))
    if stage(node) == SEAL:
        return [p for p in node["players"] if p not in answered and p not in node["seals"]]
    return [p for p in node["players"] if p not in answered]


def seal_of(node_id: str, player: str, line: str, nonce: str) -> str:
    """The seal of a canonical answer line: sha256 of tag | node | player | line | nonce."""
    text = f"{SEAL_TAG}|{node_id}|{player}|{line}|{nonce}"
    return hashlib.sha256(text.encode()).hexdigest()


def parse_seal(text: str) -> str | None:
    match = SEAL_LINE.match(text.strip().lower())
    return match.group(1) if match else None


def parse_open(text: str) -> tuple[str, str] | None:
    """(the answer line, the nonce) of an `open LINE nonce HEX` line."""
    match = OPEN_LINE.match(" ".join(text.strip().lower().split()))
    return (match.group(1), match.group(2)) if match else None
