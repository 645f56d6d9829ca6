"""Pax Renaissance as a ruleset for the core: its actions, names, setup, invariants and views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.chance import Chance
from engine.core.choice import Namer
from engine.core.ruleset import Action
from engine.core.table import Event, Table
from engine.pax import invariants, setup, view
from engine.pax.actions import oneshots, ops
from engine.pax.actions.agents import PlaceAgent
from engine.pax.actions.fair import Levy
from engine.pax.actions.market import Activate, reveal_previews
from engine.pax.actions.play import Coronation, OneShot
from engine.pax.actions.turn import Turn
from engine.pax.battle import BattleWon, Casualty, Survivor
from engine.pax.bishops import Pacify
from engine.pax.catalog import Catalog
from engine.pax.messages import MESSAGES
from engine.pax.notation import PaxNamer
from engine.pax.regime import Emancipate, GoldenLiberty, RegimeConcession
from engine.pax.upkeep import HandDiscard, Upkept

ACTIONS: dict[str, Action] = {
    action.name: Upkept(action)
    for action in (
        Turn(), Activate(), OneShot(), Coronation(), PlaceAgent(), Levy(), Pacify(),
        Casualty(), Survivor(), BattleWon(), RegimeConcession(), Emancipate(), GoldenLiberty(),
        HandDiscard(), *oneshots.ACTIONS, *ops.ACTIONS,
    )
}

VERBS = (
    "buy", "sell", "play", "ops", "fair", "victory", "end", "activate", "oneshot", "no oneshot",
    "marry", "old maid", "knight", "rook", "pawn", "pirate", "bishop", "skip", "levy",
    "no levy", "kill", "lose", "concession", "no concession", "emancipate", "done",
    "medieval", "keep", "op", "pay", "repress", "discard", "resolve", "apostasy", "revolt",
    *oneshots.VERBS, *ops.VERBS,
)


class PaxRuleset:
    name = "pax"
    version = 1
    actions = ACTIONS
    verbs: Sequence[str] = VERBS
    messages: dict[str, str] = MESSAGES  # engine.core.words: message id -> template

    def namer(self, t: Table) -> Namer:
        return PaxNamer(t)

    def setup(
        self, catalog: Catalog, game_id: str, players: Sequence[str], options: dict[str, Any],
        chance: Chance,
    ) -> tuple[Table, list[Event]]:
        table, events = setup.setup(catalog, game_id, players, options, chance)
        reveal_previews(table, chance)
        return table, events

    def check_invariants(self, t: Table) -> None:
        invariants.check_invariants(t)

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]:
        return view.view_for(t, player)

    def is_over(self, t: Table) -> bool:
        return bool(t.state["over"])


PAX = PaxRuleset()
