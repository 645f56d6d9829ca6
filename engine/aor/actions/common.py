"""Shared pieces of the Age of Renaissance actions: the result of one answer, the base classes,
and the probe that tells whether a line leads to a draw (a draw ends the block, issue 8)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.aor.actions.flow import settle
from engine.aor.catalog import Catalog
from engine.aor.model import State
from engine.core.agenda import Node, resolve, waiting_for
from engine.core.chance import Chance, DrawRefused, RefusingChance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table


@dataclass
class Step:
    """What one answer did: events, the decisions it queued, and whether the same node stays
    (the player's part of the phase goes on)."""

    events: list[Event]
    follow_ups: list[Node] = field(default_factory=list)
    again: bool = False


def cat(t: Table) -> Catalog:
    catalog: Catalog = t.catalog
    return catalog


def st(t: Table) -> State:
    return t.state


def find(options: Sequence[Choice], line: str) -> Choice | None:
    return next((o for o in options if o.line == line), None)


class AorAction(Action):
    """A sequential decision: `act` does the rules; `apply` queues what follows and lets the
    turn go on (engine.aor.actions.flow.settle)."""

    def act(self, t: Table, node: Node, choice: Choice, chance: Chance) -> Step:
        raise NotImplementedError(f"action {self.name} does nothing")

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        step = self.act(t, node, choice, chance)
        if not t.state["over"]:
            if step.again:
                t.agenda.insert(0, node)
            t.agenda[0:0] = step.follow_ups
        return step.events + settle(t, chance)

    def draws(self, t: Table, node: Node, choice: Choice) -> bool:
        """Probe: apply the choice to a scratch copy with a Chance that refuses every draw."""
        work = t.copy()
        resolve(work.agenda, node)
        try:
            self.apply(work, copy.deepcopy(node), choice, RefusingChance())
        except DrawRefused:
            return True
        return False


class ParallelAction(AorAction):
    """A decision every listed player answers at once (sealed when the node says so)."""

    resolution_draws = False  # whether resolving the answers may draw or roll

    def conclude(self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance) -> list[Event]:
        raise NotImplementedError(f"action {self.name} concludes nothing")

    def resolve(self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance) -> list[Event]:
        return self.conclude(t, node, answers, chance) + settle(t, chance)

    def draws(self, t: Table, node: Node, choice: Choice) -> bool:
        """The last answer resolves the node, which may roll dice or draw cards."""
        return self.resolution_draws and waiting_for([node]) == [node["player"]]
