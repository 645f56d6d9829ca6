"""What a ruleset provides to the core: actions (one handler per decision), setup, views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice, Namer
from engine.core.table import Event, Table


class Action:
    """One kind of decision. Subclasses list options and apply a chosen one."""

    name = ""
    decision = ""  # what the decider is asked, in plain words

    def options(self, t: Table, node: Node) -> list[Choice]:
        raise NotImplementedError(f"action {self.name} lists no options")

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        raise NotImplementedError(f"action {self.name} cannot be applied")

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        """The answer when the rules force one: by default, a single legal option."""
        return options[0] if len(options) == 1 else None

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        """What a timeout applies; by default the last option (the passive one by convention)."""
        return options[-1]


class Ruleset(Protocol):
    name: str
    actions: dict[str, Action]
    verbs: Sequence[str]

    def namer(self, t: Table) -> Namer: ...

    def setup(
        self, catalog: Any, game_id: str, players: Sequence[str], options: dict[str, Any],
        chance: Chance,
    ) -> tuple[Table, list[Event]]: ...

    def check_invariants(self, t: Table) -> None: ...

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]: ...

    def is_over(self, t: Table) -> bool: ...
