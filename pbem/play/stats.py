"""What self-play counts, and the one-line signed blocks its bots send."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import rulesets
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import sign
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store.gamefile import GameFile, current_hash, fingerprint


@dataclass
class Stats:
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)
    winners: Counter[str] = field(default_factory=Counter)
    verbs: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)  # event kinds: oneshot:x, op:x, ...
    violations: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    ruleset: str = rulesets.DEFAULT
    checked: bool = True  # False in fast mode: no per-step checks were made

    def to_data(self) -> dict[str, Any]:
        """The figures, with the ruleset's coverage families counted (zeros listed)."""
        data = self._common()
        for report, (family, names) in ruleset_for(self.ruleset).coverage(
                catalog_for(self.ruleset)).items():
            counts = Counter({name: 0 for name in names})
            for kind, count in self.kinds.items():
                prefix, _, name = kind.partition(":")
                if prefix == family:
                    counts[name] += count
            data[report] = dict(sorted(counts.items()))
        return data

    def _common(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "games": self.games,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else None,
            "decisions_per_second": round(self.decisions / self.seconds) if self.seconds else None,
            "endings": dict(sorted(self.endings.items())),
            "battles": {k.removeprefix("battle_"): v for k, v in sorted(self.kinds.items())
                        if k in ("battle_won", "battle_lost")},
            "winners": dict(sorted(self.winners.items())),
            "actions": dict(sorted(self.verbs.items())),
            "invariant_violations": len(self.violations),
            "checked": self.checked,
            "violations": self.violations,
            "repro_files": self.failures,
        }


def record_end(stats: Stats, state: dict[str, Any]) -> None:
    stats.games += 1
    stats.endings[str((state.get("result") or {}).get("kind"))] += 1  # patron, holy, ...
    for winner in state.get("winners", []):
        stats.winners[winner] += 1


def signed_block(gf: GameFile, player: str, key: Ed25519PrivateKey, line: str) -> str:
    state = fingerprint(current_hash(gf))
    payload = canonical_payload(gf.game_id, player, gf.seq, state, [line])
    return format_block(gf.game_id, player, gf.seq, state, [line], sign(key, payload))


