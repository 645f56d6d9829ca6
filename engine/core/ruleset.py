"""What a ruleset provides to the core: actions (one handler per decision), setup, views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice, Namer
from engine.core.table import Event, Table, event


class Action:
    """One kind of decision. Subclasses list options and apply a chosen one.

    A parallel node (engine.core.agenda) is answered by several players: `options`, `auto` and
    `default` then receive a copy of the node with "player" set to the player asked; each
    answer is recorded (`answered`), and once all are in the core calls `resolve`.
    """

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

    def explain(self, t: Table, node: Node, line: str) -> str | None:
        """Why a line that names no legal answer is illegal, in plain words; None when there
        is nothing better to say than "not a legal order" (the legal lines are listed anyway)."""
        return None

    def draws(self, t: Table, node: Node, choice: Choice) -> bool:
        """Whether applying this choice leads to a die roll or a card draw. With a ruleset whose
        `draw_ends_block` is true, such a line must be the last of its block."""
        return False

    def answered(self, t: Table, node: Node, player: str, choice: Choice) -> list[Event]:
        """Events for one answer to a parallel node: the fact is public, the content is shown
        only to its author when the node is sealed."""
        if node.get("sealed"):
            return [event("core.answer.sealed", kind="sealed", player=player),
                    event("core.answer.yours", kind="sealed_answer", visible_to=[player],
                          player=player, line=choice.line)]
        return [event("core.answer.in", kind="answered", player=player),
                event("core.answer.yours", kind="answer", visible_to=[player], player=player,
                      line=choice.line)]

    def resolve(
        self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance
    ) -> list[Event]:
        """Apply every answer of a parallel node at once (the node is already off the agenda)."""
        raise NotImplementedError(f"action {self.name} resolves no parallel answers")


class Ruleset(Protocol):
    """A ruleset may also set `draw_ends_block = True` (read with getattr, so older rulesets
    need not declare it): adjudicate then rejects a block in which a line that leads to a draw
    is followed by more lines, before anything is drawn (engine.core.adjudicate)."""

    name: str
    actions: dict[str, Action]
    verbs: Sequence[str]
    messages: dict[str, str]  # event message id -> English template (engine.core.words)

    def namer(self, t: Table) -> Namer: ...

    def setup(
        self, catalog: Any, game_id: str, players: Sequence[str], options: dict[str, Any],
        chance: Chance,
    ) -> tuple[Table, list[Event]]: ...

    def check_invariants(self, t: Table) -> None: ...

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]: ...

    def is_over(self, t: Table) -> bool: ...
