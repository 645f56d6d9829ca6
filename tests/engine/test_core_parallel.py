"""The core's parallel decision nodes and the "a draw ends the block" rule, on a toy ruleset.

The toy game: every player bids 0 to their cash in a sealed parallel node; the highest bid
(ties to the first id) wins the right to `roll` a die (a draw) and then says `done`. A `peek`
line draws without declaring it, `note` does nothing, to check the core's guard; `chain` queues a forced node
for another player that draws.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from engine.core.adjudicate import adjudicate, answer, options_now, run_automatic
from engine.core.agenda import Node, for_player, new_node, new_parallel, waiting_for
from engine.core.chance import Chance, SeededChance
from engine.core.choice import Choice, fold
from engine.core.errors import IllegalOrder, UnreadableOrder
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from pbem.words import say


def line(verb: str, *args: str) -> Choice:
    return Choice(verb, args, tuple("word" for _ in args), " ".join((verb, *args)))


class Bid(Action):
    name = "bid"
    decision = "bid"

    def options(self, t: Table, node: Node) -> list[Choice]:
        cash = t.state["cash"][node["player"]]
        return [line("bid", str(n)) for n in range(-cash, cash + 1) if n >= 0 or node["args"].get("negative")]

    def resolve(self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance) -> list[Event]:
        bids = {p: int(c.args[0]) for p, c in answers.items()}
        t.state["bids"] = bids
        winner = sorted(bids, key=lambda p: (-bids[p], p))[0]
        t.agenda.append(new_node(t.state, "turn", winner))
        return [event("toy.bids", bids=bids, winner=winner)]


class Turn(Action):
    name = "turn"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [line("roll"), line("peek"), line("chain"), line("note"), line("done")]

    def draws(self, t: Table, node: Node, choice: Choice) -> bool:
        return choice.verb == "roll"  # `peek` draws too, but does not say so

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        if choice.verb in ("roll", "peek"):
            t.state["rolled"].append(chance.pick(choice.verb, ["1", "2", "3", "4", "5", "6"]))
        if choice.verb == "chain":
            other = next(p for p in sorted(t.state["cash"]) if p != node["player"])
            t.agenda.insert(0, new_node(t.state, "forced_roll", other))
        if choice.verb != "done":
            t.agenda.insert(1 if choice.verb == "chain" else 0, node)
        return []


class ForcedRoll(Action):
    name = "forced_roll"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [line("ok")]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        t.state["rolled"].append(chance.pick("forced", ["1", "2"]))
        return []


class Words:
    def score(self, kind: str, value: str, words: str) -> int:
        return 1 if words == fold(value) else 0

    def known(self, kind: str, words: str) -> bool:
        return True


class Toy:
    name = "toy"
    actions: dict[str, Action] = {a.name: a for a in (Bid(), Turn(), ForcedRoll())}
    verbs: Sequence[str] = ("bid", "roll", "peek", "chain", "note", "done", "ok")
    draw_ends_block = True
    can_resign = False

    def namer(self, t: Table) -> Words:
        return Words()

    def setup(self, catalog: Any, game_id: str, players: Sequence[str], options: dict[str, Any],
              chance: Chance) -> tuple[Table, list[Event]]:
        state: dict[str, Any] = {"cash": {p: 3 for p in players}, "rolled": []}
        state["cash"].update(options.get("cash", {}))
        node = new_parallel(state, "bid", list(players), sealed=True, negative=options.get("negative", False))
        return Table(state, [node], None), []

    def check_invariants(self, t: Table) -> None:
        pass

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]:
        return {}

    def is_over(self, t: Table) -> bool:
        return not t.agenda


class Lenient(Toy):
    draw_ends_block = False


TOY = Toy()


def table(**options: Any) -> Table:
    return TOY.setup(None, "toy", ["a", "b", "c"], options, SeededChance(b"s", "toy", 0))[0]


def chance() -> SeededChance:
    return SeededChance(b"seed", "toy", 0)


def test_parallel_node_records_answers_in_any_order_and_resolves_with_the_last() -> None:
    t = table()
    assert waiting_for(t.agenda) == ["a", "b", "c"]
    out = adjudicate(TOY, t, "c", [(1, "bid 2")], chance())
    assert out.table.agenda[0]["answers"] == {"c": "bid 2"}
    assert waiting_for(out.table.agenda) == ["a", "b"]
    assert t.agenda[0]["answers"] == {}  # the original is untouched
    out = adjudicate(TOY, out.table, "a", [(1, "bid 3")], chance())
    out = adjudicate(TOY, out.table, "b", [(1, "bid 1")], chance())
    assert out.table.state["bids"] == {"a": 3, "b": 1, "c": 2}
    assert waiting_for(out.table.agenda) == ["a"] and out.table.agenda[0]["action"] == "turn"


def test_sealed_answers_are_announced_without_their_content() -> None:
    out = adjudicate(TOY, table(), "b", [(1, "bid 2")], chance())
    public = [e for e in out.events if "visible_to" not in e]
    private = [e for e in out.events if e.get("visible_to") == ["b"]]
    assert public and all("2" not in say(e) for e in public)
    assert private and "bid 2" in say(private[0])


def test_options_are_computed_per_player() -> None:
    t = table(cash={"b": 1})
    assert [c.line for c in options_now(TOY, t, "b")] == ["bid 0", "bid 1"]
    assert len(options_now(TOY, t, "a")) == 4
    assert options_now(TOY, t) == options_now(TOY, t, "a")  # default: the first player owed
    assert options_now(TOY, t, "zed") == []
    assert for_player(t.agenda[0], "b")["player"] == "b" and "player" not in t.agenda[0]


def test_a_second_answer_or_a_stranger_is_rejected_and_changes_nothing() -> None:
    t = adjudicate(TOY, table(), "a", [(1, "bid 1")], chance()).table
    before = json.dumps(t.agenda)
    for who in ("a", "zed"):
        with pytest.raises(IllegalOrder) as error:
            adjudicate(TOY, t, who, [(1, "bid 2")], chance())
        assert "waiting for b, c" in error.value.message()
    assert json.dumps(t.agenda) == before


def test_a_forced_parallel_answer_is_given_automatically() -> None:
    t = table(cash={"c": 0})
    run_automatic(TOY, t, chance())
    assert t.agenda[0]["answers"] == {"c": "bid 0"}
    answer(TOY, t, line("bid", "1"), chance(), "b")
    answer(TOY, t, line("bid", "1"), chance())  # default player: the first owed (a)
    assert t.state["bids"] == {"a": 1, "b": 1, "c": 0}


def test_negative_numbers_keep_their_sign() -> None:
    t = table(negative=True)
    out = adjudicate(TOY, t, "a", [(1, "bid -2")], chance())
    assert out.table.agenda[0]["answers"] == {"a": "bid -2"}
    assert fold("bid −2") == "bid minus 2" and fold("hre-england") == "hre england"


def won(by: str = "a") -> Table:
    t = table()
    for who in ("a", "b", "c"):
        t = adjudicate(TOY, t, who, [(1, "bid 3" if who == by else "bid 0")], chance()).table
    return t


def test_a_line_that_draws_must_end_the_block() -> None:
    t, dice = won(), chance()
    with pytest.raises(IllegalOrder) as error:
        adjudicate(TOY, t, "a", [(1, "note"), (2, "roll"), (3, "done")], dice)
    assert "must be the last line" in error.value.message()
    assert (error.value.number, error.value.line) == (2, "roll")
    assert dice.draws == [] and t.state["rolled"] == []
    out = adjudicate(TOY, t, "a", [(1, "roll")], dice)
    assert len(dice.draws) == 1 and out.table.state["rolled"] == [dice.draws[0].outcome]


def test_an_undeclared_draw_is_refused_before_it_is_made() -> None:
    t, dice = won(), chance()
    with pytest.raises(IllegalOrder) as error:
        adjudicate(TOY, t, "a", [(1, "peek"), (2, "done")], dice)
    assert (error.value.number, error.value.line) == (1, "peek") and dice.draws == []


def test_a_draw_in_automatic_steps_blames_the_line_that_led_to_it() -> None:
    t, dice = won(), chance()
    with pytest.raises(IllegalOrder) as error:
        adjudicate(TOY, t, "a", [(1, "chain"), (2, "done")], dice)
    assert (error.value.number, error.value.line) == (1, "chain") and dice.draws == []
    out = adjudicate(TOY, t, "a", [(1, "chain")], dice)
    assert len(out.table.state["rolled"]) == 1  # after the last line, automatic draws happen


def test_rulesets_that_do_not_ask_keep_drawing_mid_block() -> None:
    out = adjudicate(Lenient(), won(), "a", [(1, "roll"), (2, "peek"), (3, "done")], chance())
    assert len(out.table.state["rolled"]) == 2


def test_rejections_still_come_before_draws_for_unreadable_lines() -> None:
    with pytest.raises(UnreadableOrder):
        adjudicate(TOY, won(), "a", [(1, "fly")], chance())


def test_parallel_nodes_are_plain_data() -> None:
    t = adjudicate(TOY, table(), "a", [(1, "bid 1")], chance()).table
    assert json.loads(json.dumps(t.agenda)) == t.agenda
    assert t.agenda[0]["sealed"] is True and t.agenda[0]["players"] == ["a", "b", "c"]
