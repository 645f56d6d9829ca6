"""Shared helpers for the Age of Renaissance rule scenarios: the catalog from games/aor, a
scripted Chance for dice and draws chosen by the test, and a quick way to set a board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from engine.aor.board import province, put_marker
from engine.aor.catalog import Catalog, build_catalog
from engine.aor.deck import epoch_cards
from engine.aor.model import State, new_state, player
from engine.core.chance import Draw
from tests import fast_yaml

DATA = Path(__file__).resolve().parents[2] / "games" / "aor"


@cache
def aor() -> Catalog:
    files = {name: fast_yaml.safe_load((DATA / f"{name}.yaml").read_text(encoding="utf-8"))
             for name in ("board", "cards", "advances", "tables")}
    return build_catalog(files["board"], files["cards"], files["advances"], files["tables"])


@dataclass
class ScriptedChance:
    """Answers each draw from a script keyed by purpose; an unscripted draw fails the test."""

    script: dict[str, str]
    draws: list[Draw] = field(default_factory=list)

    def pick(self, purpose: str, population: Sequence[str]) -> str:
        assert purpose in self.script, f"unexpected draw {purpose!r}"
        outcome = self.script.pop(purpose)
        assert outcome in population, (purpose, outcome)
        self.draws.append(Draw(len(self.draws), purpose, outcome))
        return outcome


def dice(purpose: str, green: int, black: int, white: int) -> dict[str, str]:
    return {f"{purpose} green": str(green), f"{purpose} black": str(black),
            f"{purpose} white": str(white)}


def game(capitals: Mapping[str, str], *, order: Sequence[str] | None = None,
         players_at_start: int | None = None) -> State:
    """A state after setup: each player at their capital with a marker, in the order given; the
    Epoch 1 cards form the deck."""
    state = new_state(aor(), list(capitals))
    state["players_at_start"] = players_at_start or len(capitals)
    for pid, capital in capitals.items():
        player(state, pid)["capital"] = capital
        put_marker(aor(), state, pid, capital)
        state["capital_choosers"].append(pid)
    state.update(order=list(order or capitals), turn=1, phase="play_cards",
                 deck=epoch_cards(aor(), 1), epochs={"2": epoch_cards(aor(), 2), "3": epoch_cards(aor(), 3)})
    return state


def tokens(state: State, pid: str, where: str, count: int, *, new: bool = False) -> None:
    """Put a player's tokens on the board straight from their stock."""
    record = province(state, where)
    zone = "new" if new else "tokens"
    record[zone][pid] = record[zone].get(pid, 0) + count
    player(state, pid)["stock"] -= count
    state["provinces"][where] = record


def marker(state: State, pid: str, where: str) -> None:
    put_marker(aor(), state, pid, where)


def own(state: State, pid: str, *advances: str, this_turn: bool = False) -> None:
    data = player(state, pid)
    key = "new_advances" if this_turn else "advances"
    data[key] = sorted(set(data[key]) | set(advances))


def play(state: State, pid: str, *cards: str) -> None:
    """Record cards as played this turn (for the rules that consult them)."""
    state["round"]["played"] += [[pid, card] for card in cards]
