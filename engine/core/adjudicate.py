"""The adjudication loop: each line answers the next pending decision; all lines or none.

Parallel nodes (engine.core.agenda) take one answer per player, in any order; the last answer
resolves them all. A ruleset with `draw_ends_block = True` never draws while the sender's block
has unread lines: a line whose choice the action declares as drawing (`Action.draws`) must be
the last one, else the block is rejected before that line is applied; and any other draw met
before the last line is answered (through automatic steps) is refused before it is made, and
the block rejected naming the line that led to it. Either way nothing is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field

from engine.core import sealing
from engine.core.agenda import Node, for_player, is_parallel, next_pending, resolve, waiting_for
from engine.core.chance import Chance, Draw, DrawRefused
from engine.core.choice import Choice, fold, match_line
from engine.core.errors import (
    REASONS,
    IllegalOrder,
    InvariantViolation,
    RuleError,
    Verbatim,
    because,
)
from engine.core.records import dataclass_on_first_use
from engine.core.ruleset import Action, Ruleset
from engine.core.table import Event, Table, event

# The legal answers of each player owed at one state (what `options_now` gives each of them);
# inside the adjudication loop, as `Action.listed` gives them (read at that state only).
Known = dict[str, Sequence[Choice]]


@dataclass_on_first_use()
class Outcome:
    table: Table
    events: list[Event]
    # The legal answers at the final state, by owed player: computed while looking for forced
    # answers (as far as that needed, engine.core.options), handed on so that the next decision
    # does not compute them again. Read them before the table changes.
    options: Known = field(default_factory=dict)


def asked(node: Node, player: str) -> Node:
    """The node as `player` is asked it (a parallel node gets the player set)."""
    return for_player(node, player) if is_parallel(node) else node


def options_now(ruleset: Ruleset, t: Table, player: str | None = None) -> list[Choice]:
    """The legal answers of `player` (default: the first player owed) to the next decision;
    empty when that player owes nothing now."""
    node = next_pending(t.agenda)
    if node is None:
        return []
    owed = waiting_for(t.agenda)
    who = owed[0] if player is None else player
    if who not in owed:
        return []
    return ruleset.actions[node["action"]].options(t, asked(node, who))


def answer(
    ruleset: Ruleset, t: Table, choice: Choice, chance: Chance, player: str | None = None
) -> list[Event]:
    """Apply one answer to the next pending decision (in place). For a parallel node the answer
    is recorded for `player` (default: the first player owed); the last one resolves the node."""
    node = next_pending(t.agenda)
    assert node is not None, "answer() with an empty agenda"
    action = ruleset.actions[node["action"]]
    if not is_parallel(node):
        resolve(t.agenda, node)
        return action.apply(t, node, choice, chance)
    owed = waiting_for(t.agenda)
    who = owed[0] if player is None else player
    if who not in owed:
        raise InvariantViolation(f"{who} owes no answer to {node['action']} {node['id']}")
    node["answers"] = dict(sorted({**node.get("answers", {}), who: choice.line}.items()))
    events = action.answered(t, asked(node, who), who, choice)
    if waiting_for(t.agenda):
        return events
    resolve(t.agenda, node)
    answers = {p: _recall(action, t, node, p) for p in node["players"]}
    return events + action.resolve(t, node, answers, chance)


def _recall(action: Action, t: Table, node: Node, player: str) -> Choice:
    """A recorded answer as the choice it was (nothing changes the state between answers)."""
    line = node["answers"][player]
    for option in action.options(t, asked(node, player)):
        if option.line == line:
            return option
    raise InvariantViolation(f"{player}'s answer '{line}' to {node['action']} is not an option")


def _forced(ruleset: Ruleset, t: Table) -> tuple[tuple[str, Choice] | None, Known]:
    """The first owed answer the rules force, with its player; and the legal answers of the
    players looked at (of every owed player when none is forced)."""
    node = next_pending(t.agenda)
    seen: Known = {}
    if node is None:
        return None, seen
    action = ruleset.actions[node["action"]]
    for who in waiting_for(t.agenda):
        here = asked(node, who)
        options = action.listed(t, here)
        seen[who] = options
        choice = action.auto(t, here, options)
        if choice is not None:
            if choice not in options:  # a forced or standing answer is checked like a line
                raise InvariantViolation(f"the automatic answer '{choice.line}' to "
                                         f"{node['action']} is not one of its legal answers")
            return (who, choice), seen
    return None, seen


def settle(ruleset: Ruleset, t: Table, chance: Chance) -> tuple[list[Event], Known]:
    """Apply forced answers, for any player, until a real choice remains or the game ends;
    the events, and the legal answers of each player then owed (whole lists)."""
    events, seen = _settle(ruleset, t, chance)
    return events, {who: list(options) for who, options in seen.items()}


def _settle(ruleset: Ruleset, t: Table, chance: Chance) -> tuple[list[Event], Known]:
    """`settle`, the legal answers as `Action.listed` gives them: for the next block only."""
    events: list[Event] = []
    while True:
        forced, seen = _forced(ruleset, t)
        if forced is None:
            return events, seen
        events += answer(ruleset, t, forced[1], chance, forced[0])


def run_automatic(ruleset: Ruleset, t: Table, chance: Chance) -> list[Event]:
    """Apply forced answers, for any player, until a real choice remains or the game ends."""
    return _settle(ruleset, t, chance)[0]


@dataclass_on_first_use()
class _Reader:
    """A block being read: the Chance handed to the rules, which refuses every draw until the
    last line is being answered (when the ruleset asks for that), and the line to blame."""

    chance: Chance
    strict: bool
    total: int
    index: int = 0
    culprit: tuple[int, str] | None = None
    open: bool = False
    answered: set[str] = field(default_factory=set)  # node ids this block has answered
    draws: list[Draw] = field(init=False)

    def __post_init__(self) -> None:
        self.draws = self.chance.draws
        self.open = not self.strict

    def pick(self, purpose: str, population: Sequence[str]) -> str:
        if not self.open:
            raise DrawRefused(purpose)
        return self.chance.pick(purpose, population)

    def __getattr__(self, name: str) -> object:
        """Other Chance capabilities (hand labels) pass through to the game's Chance."""
        if name == "label":
            return getattr(self.chance, name)
        raise AttributeError(name)

    def reached(self, t: Table, action: Action, node: Node, choice: Choice, number: int,
                text: str) -> None:
        """Called just before a line's own answer is applied."""
        last = self.index == self.total - 1
        self.culprit = (number, text)
        if self.strict and not last and action.draws(t, node, choice):
            raise IllegalOrder.draw_ends_block(text, number)
        self.open = last or not self.strict


def adjudicate(
    ruleset: Ruleset,
    table: Table,
    player: str,
    lines: Sequence[tuple[int, str]],
    chance: Chance,
    *,
    in_place: bool = False,
    known: Known | None = None,
) -> Outcome:
    """Apply one player's lines to a working copy; any rule error leaves `table` untouched.
    (With `in_place`, a rejected block may leave `table` half-changed: use one line only.)
    `known`: the legal answers at `table`'s state as an earlier Outcome gave them."""
    work = table if in_place else table.copy()
    reader = _Reader(chance, ruleset.draw_ends_block, len(lines))
    events: list[Event] = []
    for index, (number, text) in enumerate(lines):
        reader.index = index
        try:
            if ruleset.can_resign and fold(text) == "resign":
                # Resignation may come at any time, not only as an answer (AoR 11.3).
                reader.culprit = (number, text)
                reader.open = index == len(lines) - 1 or not reader.strict
                events += ruleset.resign(work, player, reader)
                continue
            events += _apply_line(ruleset, work, player, number, text, reader,
                                  known if index == 0 else None)
        except DrawRefused:
            blamed = reader.culprit or (number, text)
            raise IllegalOrder.draw_ends_block(blamed[1], blamed[0]) from None
        except RuleError as error:
            raise error.located(text, number) from None
    reader.open = True
    settled, options = _settle(ruleset, work, reader)
    ruleset.check_invariants(work)
    return Outcome(work, events + settled, options)


def _apply_line(
    ruleset: Ruleset, t: Table, player: str, number: int, text: str, reader: _Reader,
    known: Known | None = None,
) -> list[Event]:
    """R-012: a line answers the next decision its player has to answer. The forced answers
    before it (one legal answer) resolve by themselves and take no line, with two exceptions:
    the closing `done` of a decision this block was answering (emancipation after the last
    token it could free), and a line that is no legal answer to that next decision (or that
    comes after control passed) but restates a forced answer, taken as that answer."""
    events: list[Event] = []
    restated = False
    while True:
        node = next_pending(t.agenda)
        if node is None:
            if restated:
                return events
            raise IllegalOrder.leftover(text, None, [])
        action = ruleset.actions[node["action"]]
        owed = waiting_for(t.agenda)
        mine: tuple[Node, Sequence[Choice]] | None = None
        forced: tuple[str, Node, Choice] | None = None
        for who in owed:
            here = asked(node, who)
            options = known[who] if known is not None and who in known else \
                action.listed(t, here)
            if who == player:
                mine = (here, options)
            choice = action.auto(t, here, options)
            if choice is not None:
                forced = (who, here, choice)
                break
        if forced is None:
            if mine is None:
                if restated:
                    return events
                raise IllegalOrder.leftover(text, None, owed)
            break
        who, here, choice = forced
        if who == player and _restates(ruleset, t, text, choice):
            reader.reached(t, action, here, choice, number, text)
            if node["id"] in reader.answered:
                return events + answer(ruleset, t, choice, reader, who)
            restated = True
        known = None  # the state changes: nothing computed before holds
        events += answer(ruleset, t, choice, reader, who)
    here, options = mine
    if sealing.is_committing(node):
        if sealing.stage(node) == sealing.SEAL:
            return events + _seal(node, player, text, options)
        choice = _opened(ruleset, t, node, player, text, options)
    else:
        try:
            choice = match_line(text, options, ruleset.namer(t), ruleset.verbs)
        except IllegalOrder as error:
            if restated:
                return events
            why = action.explain(t, here, text)
            if why is None:
                raise
            raise IllegalOrder(why, options=error.options) from None
        except RuleError:
            if restated:
                return events
            raise
    reader.reached(t, action, here, choice, number, text)
    reader.answered.add(node["id"])
    return events + answer(ruleset, t, choice, reader, player)


def _restates(ruleset: Ruleset, t: Table, text: str, choice: Choice) -> bool:
    """Whether `text` names this (forced) answer."""
    try:
        match_line(text, [choice], ruleset.namer(t), ruleset.verbs)
    except RuleError:
        return False
    return True


def _seal(node: Node, player: str, text: str, options: Sequence[Choice]) -> list[Event]:
    """The first half of a commit-and-reveal answer: only `seal HEX` is read."""
    seal = sealing.parse_seal(text)
    if seal is None:
        raise IllegalOrder(because(REASONS, "reason:core.send_seal"),
                           options=[c.line for c in options])
    node["seals"] = dict(sorted({**node["seals"], player: seal}.items()))
    return [event("core.seal.in", kind="sealed", player=player)]


def _opened(ruleset: Ruleset, t: Table, node: Node, player: str, text: str,
            options: Sequence[Choice]) -> Choice:
    """The second half: `open LINE nonce HEX` must be legal and match the seal."""
    opened = sealing.parse_open(text)
    if opened is None:
        raise IllegalOrder(because(REASONS, "reason:core.send_open"),
                           options=[c.line for c in options])
    line, nonce = opened
    try:
        choice = match_line(line, options, ruleset.namer(t), ruleset.verbs)
    except IllegalOrder as error:
        why = ruleset.actions[node["action"]].explain(t, for_player(node, player), line)
        raise IllegalOrder(why or error.why or error.reason, options=error.options) from None
    if node["seals"].get(player) != sealing.seal_of(node["id"], player, choice.line, nonce):
        raise IllegalOrder(because(REASONS, "reason:core.seal_mismatch", line=Verbatim(choice.line),
                                   player=player))
    return choice
