"""The Pax Renaissance message catalog (engine/pax/messages): every event is a message id with
its arguments, every id has a template whose fields are exactly those arguments, and every
template is named by the rules. Events come from seeded self-play and from every Pax scenario
(which reach the rare abilities and one-shots); the game-over words must say what the state's
result says (pbem reports print that detail)."""

from __future__ import annotations

import ast
import dataclasses
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pbem.play.scenarios.pax as scenarios_pax
import pbem.play.scenarios.run as scenarios_run
from engine.core.adjudicate import adjudicate, answer, options_now, run_automatic
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.table import Event, Table
from engine.core.words import fields, render
from engine.pax.actions.turn import patron_victory
from engine.pax.catalog import SQUARES
from engine.pax.messages import MESSAGES
from engine.pax.model import player
from engine.pax.ruleset import PAX
from engine.pax.victory import describe, victory_words
from pbem.rulesets import pax_catalog
from pbem.store import seeds
from tests.test_scenarios import CASES

PAX_SOURCE = Path(__file__).resolve().parents[2] / "engine" / "pax"
MESSAGE_ID = re.compile(r"^pax(\.[a-z0-9_]+)+$")
VARIANTS: list[dict[str, Any]] = [{}, {"map": "1550"}, {"map": "age_of_reformation"},
                                  {"astrology": True}, {"bankruptcy": True}]
GAMES = 10


def dummy_args(template: str) -> dict[str, Any]:
    """A value for every field: a list where the template indexes it (`{winners[0]}`)."""
    return {name: ["a", "b", "c", "d"] if f"{{{name}[" in template else name
            for name in fields(template)}


def test_every_template_parses_and_renders() -> None:
    assert PAX.messages is MESSAGES
    for msg, template in MESSAGES.items():
        assert MESSAGE_ID.match(msg), msg
        list(string.Formatter().parse(template))  # raises on a stray brace
        text = render({"msg": msg, "args": dummy_args(template)}, MESSAGES)
        assert text and "{" not in text and "}" not in text, msg


def check_events(events: list[Event], where: str) -> None:
    """No prose left: a known id, exactly the template's fields, and data as arguments."""
    for e in events:
        assert "text" not in e and "msg" in e, f"{where}: prose event {e}"
        if not e["msg"].startswith("pax."):
            continue  # the core's own answers (engine.core.messages)
        assert e["msg"] in MESSAGES, f"{where}: unknown message {e['msg']}"
        args = e.get("args", {})
        assert set(args) == fields(MESSAGES[e["msg"]]), f"{where}: {e}"
        for value in args.values():
            items = value if isinstance(value, list) else [value]
            assert all(isinstance(item, str | int | bool) for item in items), f"{where}: {e}"
        render(e, MESSAGES)


def play(index: int) -> Iterator[tuple[Table, list[Event]]]:
    """One seeded random game, as the event corpus plays it (tools/event_corpus.py)."""
    players = 2 + index % 3
    seed = f"messages-{index}"
    chance = SeededChance(seeds.make_seed(seed), seed, 0)
    seats = ["p1", "p2", "p3", "p4"][:players]
    table, events = PAX.setup(pax_catalog(), seed, seats, dict(VARIANTS[index % len(VARIANTS)]),
                              chance)
    rng = random.Random(seed)
    events += run_automatic(PAX, table, chance)
    for _ in range(3000):
        yield table, events
        if table.state["over"]:
            return
        owed = waiting_for(table.agenda)
        who = owed[0] if len(owed) == 1 else rng.choice(owed)
        events = answer(PAX, table, rng.choice(options_now(PAX, table, who)), chance, who)
        events += run_automatic(PAX, table, chance)


@pytest.mark.parametrize("index", range(GAMES))
def test_self_play_events_are_messages(index: int) -> None:
    for _, events in play(index):
        check_events(events, f"game {index}")


def test_scenario_events_are_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event of every Pax scenario, the setup's and each order block's."""
    seen: list[tuple[str, list[Event]]] = []
    case = {"id": ""}
    build_table = scenarios_pax.build_table

    def adjudicating(*args: Any, **kwargs: Any) -> Any:
        outcome = adjudicate(*args, **kwargs)
        seen.append((case["id"], outcome.events))
        return outcome

    def building(given: Any) -> Any:
        built = build_table(given)
        seen.append((case["id"], built[2]))
        return built

    monkeypatch.setattr(scenarios_run, "adjudicate", adjudicating)  # as the runner calls it
    monkeypatch.setattr(scenarios_pax, "RULES", dataclasses.replace(scenarios_pax.RULES,
                                                                     start=building))
    for path, data in CASES:
        case["id"] = path.stem
        scenarios_run.run_case(data, "pax")
    assert len(seen) > len(CASES)
    for where, events in seen:
        check_events(events, where)


def test_game_over_words_say_the_result() -> None:
    """The game-over event renders as the state's result detail reads, for every square (met
    or not, so the singular, plural and no-religion words all come up) and every patron tie."""
    squares = (*SQUARES, "byzantine")
    for index in range(4):
        for step, (table, _) in enumerate(play(index)):
            if step % 25 or table.state["over"]:
                continue
            for bank in table.state["order"]:
                for square in squares:
                    msg, args = victory_words(table, bank, square)
                    words = render({"msg": msg, "args": {"winners": [bank], **args}}, MESSAGES)
                    assert words == f"Game over: {bank.title()} wins the {square} victory " \
                                    f"{describe(table, bank, square)}.", (msg, args)
    for index, winners in ((0, 1), (0, 2), (1, 3), (2, 4)):  # play(i) seats 2 + i banks
        table = next(t for t, _ in play(index))
        for rank, bank in enumerate(table.state["order"]):  # nobody holds Patron prestige yet
            player(table, bank)["florins"] = 5 if rank < winners else 4
        event = patron_victory(table)[0]
        assert len(table.state["winners"]) == winners
        names = " and ".join(w.title() for w in table.state["winners"])
        verb = "share the" if winners > 1 else "wins the"
        assert render(event, MESSAGES) == \
            f"Game over: {names} {verb} patron victory {table.state['result']['detail']}."


def id_patterns() -> list[re.Pattern[str]]:
    """The message ids the rules name: string literals, and f-strings whose formatted parts
    choose a variant (a kind, a count, a place)."""
    patterns = []
    for path in PAX_SOURCE.rglob("*.py"):
        if "messages" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
                       for part in node.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if MESSAGE_ID.match(node.value) and id(node) not in in_fstrings:
                    patterns.append(re.compile(re.escape(node.value)))
            elif isinstance(node, ast.JoinedStr):
                parts = [re.escape(str(p.value)) if isinstance(p, ast.Constant) else r"[a-z0-9_.]*"
                         for p in node.values]
                if parts and parts[0].startswith(r"pax\."):
                    patterns.append(re.compile("".join(parts)))
    return patterns


def test_every_message_is_named_by_the_rules() -> None:
    patterns = id_patterns()
    unused = [msg for msg in MESSAGES if not any(p.fullmatch(msg) for p in patterns)]
    assert unused == []
    named = [p.pattern for p in patterns if not any(p.fullmatch(msg) for msg in MESSAGES)]
    assert named == [], "ids named in the rules but missing from the catalog"
