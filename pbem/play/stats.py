"""What self-play counts, and the one-line signed blocks its bots send."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core.chance import SeededChance
from engine.core.table import Event
from pbem import rulesets
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import sign
from pbem.play.policy import PLAYED, is_bought
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
    policy: str = "random"
    played: Counter[str] = field(default_factory=Counter)  # card names, as the events give them
    bought: Counter[str] = field(default_factory=Counter)
    advances: Counter[str] = field(default_factory=Counter)
    squares: set[str] = field(default_factory=set)  # victory squares the games offered

    def step(self, line: str, events: list[Event]) -> None:
        """Count one block of one line that was applied, and what its events reached."""
        self.verbs[line.split()[0]] += 1
        self.note(events)
        self.decisions += 1

    def note(self, events: list[Event]) -> None:
        """Count what a step's events reached."""
        for e in events:
            self.kinds[e["kind"]] += 1
            card = (e.get("args") or {}).get("card")
            if e["msg"] in PLAYED:
                self.played[str(card)] += 1
            elif is_bought(e["msg"]):
                self.bought[str(card)] += 1
            elif e["kind"] == "advance":
                self.advances[str((e.get("args") or {}).get("advance"))] += 1

    def to_data(self) -> dict[str, Any]:
        """The figures, with every coverage family counted (zeros listed)."""
        data = self._common()
        data["coverage"] = self.coverage()
        data.update(data["coverage"])
        return data

    def coverage(self) -> dict[str, dict[str, int]]:
        """Each family (abilities, ops, victories, cards played...) by name, zeros included."""
        catalog = catalog_for(self.ruleset)
        families: dict[str, dict[str, int]] = {}
        for report, (family, names) in ruleset_for(self.ruleset).coverage(catalog).items():
            families[report] = self._by_prefix(family, names)
        squares = self.squares or _squares(self.ruleset)
        if squares:  # declared squares, and the Patron ending (it has no declaration)
            victories = self._by_prefix("victory", sorted(squares))
            victories["patron"] = self.endings["patron"]
            families["victories"] = dict(sorted(victories.items()))
        cards = getattr(catalog, "cards", {}).values()
        # A comet is discarded when bought (pax.buy.comet): it is never played.
        families["cards_played"] = _counts({c.name for c in cards if c.kind != "comet"},
                                           self.played)
        if not hasattr(catalog, "advances"):  # cards are bought from a market
            families["cards_bought"] = _counts({c.name for c in cards}, self.bought)
        else:  # Age of Renaissance: History cards' events, and the Advances
            families["history_events"] = _counts(
                {c.name for c in cards if c.kind == "event"}, self.played)
            families["advances"] = _counts(
                {a.name for a in getattr(catalog, "advances", {}).values()}, self.advances)
        return families

    def _by_prefix(self, family: str, names: list[str]) -> dict[str, int]:
        counts = Counter({name: 0 for name in names})
        for kind, count in self.kinds.items():
            prefix, _, name = kind.partition(":")
            if prefix == family:
                counts[name] += count
        return dict(sorted(counts.items()))

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
            "policy": self.policy,
            "violations": self.violations,
            "repro_files": self.failures,
        }


def _squares(ruleset: str) -> set[str]:
    """The victory squares a fresh game of `ruleset` keeps by name (none if it keeps none)."""
    rules = ruleset_for(ruleset)
    seats = rules.seat_ids([f"bot{i + 1}" for i in range(rules.player_counts[0])])
    chance = SeededChance(b"0" * 32, "squares", 0)
    table, _ = rules.setup(catalog_for(ruleset), "squares", seats, dict(rules.selfplay_options),
                           chance)
    victory = table.state.get("victory")
    return set(victory) if isinstance(victory, dict) else set()


def _counts(names: set[str], seen: Counter[str]) -> dict[str, int]:
    return {name: seen[name] for name in sorted(names)}


def zeros(coverage: dict[str, dict[str, int]], families: list[str]) -> dict[str, list[str]]:
    """The names that stayed at zero, by family, for the families asked."""
    return {family: missing for family in families
            if (missing := [n for n, count in coverage.get(family, {}).items() if not count])}


def record_end(stats: Stats, state: dict[str, Any]) -> None:
    stats.games += 1
    if isinstance(state.get("victory"), dict):  # pax keeps its squares' status by name
        stats.squares |= set(state["victory"])
    stats.endings[str((state.get("result") or {}).get("kind"))] += 1  # patron, holy, ...
    for winner in state.get("winners", []):
        stats.winners[winner] += 1


def signed_block(gf: GameFile, player: str, key: Ed25519PrivateKey, line: str,
                 full_hash: str | None = None) -> str:
    """`line` signed by `player` against the game's state (`full_hash`: its state hash, when
    the caller already has it)."""
    state = fingerprint(current_hash(gf) if full_hash is None else full_hash)
    payload = canonical_payload(gf.game_id, player, gf.seq, state, [line])
    return format_block(gf.game_id, player, gf.seq, state, [line], sign(key, payload))


