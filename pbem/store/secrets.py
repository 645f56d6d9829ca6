"""The moderator's secrets file of a game with hidden information (beside the game file).

It holds the seed and, for the last two states of the game, a *generation*: the whole state and
agenda at that state (hands, the deck, sealed answers), keyed by the public state hash the game
file records, and the sealed blocks not yet opened. The game file's atomic rename is the commit
point of an apply: the new generation is written first, so a crash between the two writes
leaves the previous generation, which matches the game file, and nothing is lost or stuck.

Format 1 ("pbem-secrets-1") held one cache and the sealed blocks beside it; it is read as one
generation.
"""

from __future__ import annotations

import json
import os
from dataclasses import field
from pathlib import Path
from typing import Any

from engine.core.records import dataclass_on_first_use  # start-up: made when first built
from pbem.errors import CorruptGameError, UsageError
from pbem.store import gamefile

FORMAT = "pbem-secrets-2"
LEGACY_FORMAT = "pbem-secrets-1"
KEEP = 2  # generations kept: the current state's and the one before


@dataclass_on_first_use()
class Generation:
    post_state: str
    seq: int
    state: dict[str, Any]
    agenda: list[dict[str, Any]]
    sealed: dict[str, dict[str, str]] = field(default_factory=dict)  # node -> player -> block

    def to_data(self) -> dict[str, Any]:
        return {"post_state": self.post_state, "seq": self.seq, "state": self.state,
                "agenda": self.agenda, "sealed": self.sealed}


@dataclass_on_first_use()
class Secrets:
    seed: bytes
    generations: list[Generation] = field(default_factory=list)

    def at(self, post_state: str) -> Generation | None:
        return next((g for g in reversed(self.generations) if g.post_state == post_state), None)

    def sealed_blocks(self) -> dict[tuple[str, str], str]:
        """Every unopened sealed block any generation holds, by (node, player)."""
        found: dict[tuple[str, str], str] = {}
        for generation in self.generations:
            for node, answers in generation.sealed.items():
                for player, text in answers.items():
                    found[(node, player)] = text
        return found

    def sealed_copies(self) -> dict[tuple[str, str], list[str]]:
        """Every sealed block any generation holds, by (node, player), oldest first: a player
        who replaced an answer has several (issue 24)."""
        found: dict[tuple[str, str], list[str]] = {}
        for generation in self.generations:
            for node, answers in generation.sealed.items():
                for player, text in answers.items():
                    copies = found.setdefault((node, player), [])
                    if text not in copies:
                        copies.append(text)
        return found

    def add(self, generation: Generation) -> None:
        kept = [g for g in self.generations if g.post_state != generation.post_state]
        self.generations = [*kept, generation][-KEEP:]

    def to_text(self) -> str:
        data = {"format": FORMAT, "seed": self.seed.hex(),
                "generations": [g.to_data() for g in self.generations]}
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def _generation(data: Any) -> Generation:
    return Generation(str(data["post_state"]), int(data["seq"]), dict(data["state"]),
                      list(data["agenda"]), dict(data.get("sealed") or {}))


def parse(text: str, where: str) -> Secrets:
    try:
        data = json.loads(text)
        seed = bytes.fromhex(str(data["seed"]))
        if data.get("format") == LEGACY_FORMAT:
            cache = data.get("cache")
            generations = [] if not cache else [_generation({**cache,
                                                             "sealed": data.get("sealed")})]
        else:
            generations = [_generation(g) for g in data.get("generations") or []]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise CorruptGameError(f"{where} is not a pbem secrets file") from None
    return Secrets(seed, generations)


def read(path: Path) -> Secrets | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise UsageError(f"cannot read {path.name}: {error.strerror}") from None
    return parse(text, path.name)


def write(path: Path, secrets: Secrets) -> None:
    """Atomically, readable by the moderator only."""
    gamefile.write_atomic(path, secrets.to_text())
    os.chmod(path, 0o600)
