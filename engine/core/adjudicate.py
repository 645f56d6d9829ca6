"""The adjudication loop: each line answers the next pending decision; all lines or none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.agenda import next_pending, resolve, waiting_for
from engine.core.chance import Chance
from engine.core.choice import Choice, match_line
from engine.core.errors import IllegalOrder, RuleError
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table


@dataclass
class Outcome:
    table: Table
    events: list[Event]


def options_now(ruleset: Ruleset, t: Table) -> list[Choice]:
    node = next_pending(t.agenda)
    if node is None:
        return []
    return ruleset.actions[node["action"]].options(t, node)


def answer(ruleset: Ruleset, t: Table, choice: Choice, chance: Chance) -> list[Event]:
    """Apply one answer to the next pending decision (in place)."""
    node = next_pending(t.agenda)
    assert node is not None, "answer() with an empty agenda"
    resolve(t.agenda, node)
    return ruleset.actions[node["action"]].apply(t, node, choice, chance)


def _forced(ruleset: Ruleset, t: Table) -> Choice | None:
    node = next_pending(t.agenda)
    if node is None:
        return None
    action = ruleset.actions[node["action"]]
    return action.auto(t, node, action.options(t, node))


def run_automatic(ruleset: Ruleset, t: Table, chance: Chance) -> list[Event]:
    """Apply forced answers, for any player, until a real choice remains or the game ends."""
    events: list[Event] = []
    while (choice := _forced(ruleset, t)) is not None:
        events += answer(ruleset, t, choice, chance)
    return events


def adjudicate(
    ruleset: Ruleset,
    table: Table,
    player: str,
    lines: Sequence[tuple[int, str]],
    chance: Chance,
    *,
    in_place: bool = False,
) -> Outcome:
    """Apply one player's lines to a working copy; any rule error leaves `table` untouched."""
    work = table if in_place else table.copy()
    events: list[Event] = []
    for number, text in lines:
        try:
            events += _apply_line(ruleset, work, player, text, chance)
        except RuleError as error:
            raise error.located(text, number) from None
    events += run_automatic(ruleset, work, chance)
    ruleset.check_invariants(work)
    return Outcome(work, events)


def _apply_line(
    ruleset: Ruleset, t: Table, player: str, text: str, chance: Chance
) -> list[Event]:
    events: list[Event] = []
    while True:
        node = next_pending(t.agenda)
        if node is None:
            raise IllegalOrder.leftover(text, None, [])
        action = ruleset.actions[node["action"]]
        options = action.options(t, node)
        forced = action.auto(t, node, options)
        if forced is None:
            if player not in waiting_for(t.agenda):
                raise IllegalOrder.leftover(text, None, waiting_for(t.agenda))
            break
        restated = None
        if node.get("player") == player:
            # A line that restates a forced answer is accepted as that answer.
            try:
                restated = match_line(text, [forced], ruleset.namer(t), ruleset.verbs)
            except RuleError:
                restated = None
        events += answer(ruleset, t, forced, chance)
        if restated is not None:
            return events
    choice = match_line(text, options, ruleset.namer(t), ruleset.verbs)
    events += answer(ruleset, t, choice, chance)
    return events
