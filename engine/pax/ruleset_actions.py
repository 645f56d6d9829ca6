"""Pax Renaissance's actions (one per decision) and the verbs its lines begin with.

engine.pax.ruleset loads this on first use: reading a game (`pbem status`, a report for a
player not to move) needs no action, and importing every action is much of a command's
start-up (bench/README.md).
"""

from __future__ import annotations

from engine.core.ruleset import Action
from engine.pax.actions import oneshots, ops
from engine.pax.actions.agents import PlaceAgent
from engine.pax.actions.fair import Levy
from engine.pax.actions.market import Activate
from engine.pax.actions.play import Coronation, OneShot
from engine.pax.actions.turn import Turn
from engine.pax.battle import BattleWon, Casualty, Survivor
from engine.pax.bishops import Pacify
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
