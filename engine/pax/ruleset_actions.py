"""Pax Renaissance's actions (one per decision) and the verbs its lines begin with.

engine.pax.ruleset loads this on first use: reading a game (`pbem status`, a report for a
player not to move) needs no action. Each action's module loads when its decision first comes
up: an `apply` loads the main turn's options and the decisions it reaches, not every action's
module (start-up, bench/README.md). To add a decision, add its handler to `WHERE`;
tests/engine/test_action_registry.py checks that every Action class of engine.pax is listed
under its own name.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.registry import Registry
from engine.core.ruleset import Action

# decision (an agenda node's "action") -> "module:Class" of its handler
WHERE: dict[str, str] = {
    "turn": "engine.pax.actions.turn:Turn",
    "activate": "engine.pax.actions.market:Activate",
    "oneshot": "engine.pax.actions.play:OneShot",
    "coronation": "engine.pax.actions.play:Coronation",
    "agent": "engine.pax.actions.agents:PlaceAgent",
    "levy": "engine.pax.actions.fair:Levy",
    "pacify": "engine.pax.bishops:Pacify",
    "casualty": "engine.pax.battle:Casualty",
    "survivor": "engine.pax.battle:Survivor",
    "battle_won": "engine.pax.battle:BattleWon",
    "regime_concession": "engine.pax.regime:RegimeConcession",
    "emancipate": "engine.pax.regime:Emancipate",
    "golden_liberty": "engine.pax.regime:GoldenLiberty",
    "hand_discard": "engine.pax.upkeep:HandDiscard",
    "apostasy": "engine.pax.actions.oneshots.apostasy:ApostasyTrial",
    "arrange": "engine.pax.actions.oneshots.theocracy:Arrange",
    "ops": "engine.pax.actions.ops.node:Ops",
    "tax_response": "engine.pax.actions.ops.tax:TaxResponse",
    "tax_levy": "engine.pax.actions.ops.tax:TaxLevy",
    "borrow": "engine.pax.actions.ops.borrow:Borrow",
}


def _upkept(cls: type[Action]) -> Action:
    from engine.pax.upkeep import Upkept  # start-up: with the first action

    return Upkept(cls())


# Each made on first lookup, and followed by the upkeep (engine.pax.upkeep.Upkept).
ACTIONS: Mapping[str, Action] = Registry(WHERE, _upkept)

VERBS = (
    "buy", "sell", "play", "ops", "fair", "victory", "end", "activate", "oneshot", "no oneshot",
    "marry", "old maid", "knight", "rook", "pawn", "pirate", "bishop", "skip", "levy",
    "no levy", "kill", "lose", "concession", "no concession", "emancipate", "done",
    "medieval", "keep", "op", "pay", "repress", "discard", "resolve", "apostasy", "revolt",
    "oneshot in", "free",  # the one-shots' (engine.pax.actions.oneshots)
    "standing",  # the ops' (engine.pax.actions.ops)
)
