"""The Age of Renaissance message catalog against the events the rules make: every event names
a message id of the catalog with exactly the arguments its template uses, arguments are plain
data, and every message is one the rules can send."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.aor.actions.flow import drew, finish
from engine.aor.board import marker_of, markers_in_stock
from engine.aor.messages import MESSAGES, MOST, counted, rows
from engine.aor.model import player
from engine.aor.ruleset import AOR
from engine.aor.victory import standings
from engine.core.adjudicate import answer, options_now, settle
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.messages import MESSAGES as CORE_MESSAGES
from engine.core.table import Event
from engine.core.words import fields, render
from tests.aor.agenda_helpers import NAMES, at_phase, play, send, through_setup
from tests.aor.helpers import aor, own
from tests.aor.helpers import marker as board_marker
from tests.aor.helpers import tokens as board_tokens

SOURCE = Path(__file__).resolve().parents[2] / "engine" / "aor"
COUNTS = re.compile(r"^(?P<family>.+)\.(?P<counts>\d+(?:_\d+)*)$")
CATALOG = {**CORE_MESSAGES, **MESSAGES}  # the core's answers to parallel decisions come too
GAMES = [(3 + i % 4, {"end": "epoch1" if i % 2 else "epoch2", "sealing": "plain"}) for i in range(8)]


def family(msg: str) -> str:
    """A counted message's family ("aor.order.tokens.4" -> "aor.order.tokens"), else the id."""
    found = COUNTS.match(msg)
    return found["family"] if found else msg


@cache
def self_play_events() -> tuple[Event, ...]:
    """Every event of a few seeded random games, as the corpus tool plays them."""
    found: list[Event] = []
    for index, (players, options) in enumerate(GAMES):
        seed = f"messages-{index}"
        chance = SeededChance(seed.encode(), seed, 0)
        table, events = AOR.setup(aor(), seed, list(NAMES[:players]), dict(options), chance)
        settled, known = settle(AOR, table, chance)  # and each owed player's options
        events += settled
        rng = random.Random(seed)
        for _ in range(3000):
            found += events
            if AOR.is_over(table):
                break
            owed = waiting_for(table.agenda)
            who = owed[0] if len(owed) == 1 else rng.choice(owed)
            legal = known[who] if who in known else options_now(AOR, table, who)
            events = answer(AOR, table, rng.choice(legal), chance, who)
            settled, known = settle(AOR, table, chance)
            events += settled
        assert AOR.is_over(table), f"game {index} did not end"
    return tuple(found)


def plain(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(item, str | int | bool) for item in value)
    return isinstance(value, str | int | bool)


def test_every_template_parses_and_renders() -> None:
    for msg, template in MESSAGES.items():
        assert msg.startswith("aor.") and re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", msg), msg
        args = {name: list(range(1, MOST + 1)) for name in fields(template)}
        text = render({"msg": msg, "args": args}, MESSAGES)
        assert text and "{" not in text and "}" not in text, (msg, text)


def test_every_self_play_event_names_a_message_with_exactly_its_arguments() -> None:
    events = self_play_events()
    assert len(events) > 1000
    for e in events:
        assert "text" not in e and "msg" in e, e
        assert e["msg"] in (MESSAGES if e["msg"].startswith("aor.") else CORE_MESSAGES), e
        args = e.get("args", {})
        assert set(args) == fields(CATALOG[e["msg"]]), e
        assert all(plain(value) for value in args.values()), e
        assert json.loads(json.dumps(e)) == e  # plain data, as the game file keeps it
        assert render(e, CATALOG)


def test_the_self_play_games_reach_most_of_the_catalog() -> None:
    seen = {family(e["msg"]) for e in self_play_events()}
    assert len(seen) >= 60, sorted(set(map(family, MESSAGES)) - seen)


def source_ids() -> set[str]:
    """Every quoted message id in the rules' code (the catalogs themselves left out: the event
    messages, and the words beside a legal line, which tests/pbem/test_aor_lines_said.py
    checks)."""
    found: set[str] = set()
    for path in SOURCE.rglob("*.py"):
        if path.name not in ("messages.py", "lines_said.py"):
            found |= set(re.findall(r"\"(aor\.[a-z0-9_.]+)\"", path.read_text(encoding="utf-8")))
    return found


def test_every_message_is_sent_by_the_rules() -> None:
    used = source_ids()
    unused = sorted({family(msg) for msg in MESSAGES} - used)
    assert not unused, f"messages no event( call sends: {unused}"


def test_every_id_in_the_rules_is_in_the_catalog() -> None:
    families = {family(msg) for msg in MESSAGES}
    unknown = sorted(msg for msg in source_ids() if msg not in MESSAGES and msg not in families)
    assert not unknown, f"ids with no template: {unknown}"


@pytest.mark.parametrize("winners,scored,text", [
    ([], [], "Game over (all Advances): nobody wins; scores ."),
    (["ada"], [("ada", 9), ("ben", 3)], "Game over (all Advances): ada wins; scores ada 9, ben 3."),
    (["ada", "ben", "cy"], [("ada", 5), ("ben", 5), ("cy", 5)],
     "Game over (all Advances): ada and ben and cy share the win; scores ada 5, ben 5, cy 5."),
])
def test_a_counted_message_renders_its_rows(winners: list[str], scored: list[tuple[str, int]],
                                            text: str) -> None:
    args = rows(winners=winners, players=[p for p, _ in scored], scores=[s for _, s in scored])
    msg = counted("aor.end.game_over.advances", winners, scored)
    assert render({"msg": msg, "args": args}, MESSAGES) == text
    assert set(args) == fields(MESSAGES[msg])


# The paths self-play rarely takes, with the words they had as prose.

def said(events: list[Event]) -> list[str]:
    return [render(e, CATALOG) for e in events]


@pytest.mark.parametrize("why,args,reason", [
    ("turn", {}, "9.1"), ("bonus", {}, "9.5.3 bonus card"), ("tokens", {}, "9.5.1, paid in tokens"),
    ("urban", {"price": 10}, "Urban Ascendancy, 10 ducats"), ("shortage", {}, "9.6.1 shortage"),
])
def test_a_draw_says_why(why: str, args: dict[str, Any], reason: str) -> None:
    t = through_setup(3)
    assert said(drew(t, "ada", None, why, **args)) == [f"No card is left for ada to draw ({reason})."]
    label, card = sorted(player(t.state, "ada")["hand"].items())[0]
    name = aor().cards[card].name
    assert said(drew(t, "ada", label, why, **args)) == [f"ada draws a card ({reason}).",
                                                         f"You draw {name} [{label}] ({reason})."]


def test_a_marker_converted_when_none_is_left_in_stock() -> None:
    t = at_phase(through_setup(3), "expansion", "ada", ["ben", "cy"])
    free = sorted(w for w, p in aor().provinces.items() if not p.satellite and not marker_of(t.state, w))
    for where in free[:markers_in_stock(aor(), t.state, "ada")]:
        board_marker(t.state, "ada", where)
    out, _ = send(t, "ada", "convert barcelona")
    assert said(out.events)[0] == "ada turns their marker in Barcelona into a token to free a marker (9.5.2)."


def test_a_defender_declining_cathedral_passes_the_question_on() -> None:
    t = at_phase(through_setup(3), "expansion", "ada", ["ben", "cy"])
    for pid in ("ben", "cy"):
        own(t.state, pid, "holy_indulgence", "cathedral")
        board_tokens(t.state, pid, "basque", 1)
    t = play(t, "ada", "attack basque")
    assert waiting_for(t.agenda) == ["ben"]
    out, _ = send(t, "ben", "no cathedral")
    assert said(out.events) == ["ben does not use Cathedral."] and waiting_for(out.table.agenda) == ["cy"]


def test_a_player_resigning_with_no_card() -> None:
    t = through_setup(3)
    hand = player(t.state, "cy")["hand"]
    t.state["deck"] += sorted(hand.values())
    hand.clear()
    events = AOR.resign(t, "cy", SeededChance(b"x", "g", int(t.state["draws"])))
    assert said(events)[0] == "cy resigns (11.3): out of the game, their pieces stay."


def test_a_result_kind_set_by_hand_is_shown_as_it_is() -> None:
    t = through_setup(3)
    table = standings(aor(), t.state)
    best = [p for p, s in table if s == table[0][1]]
    shown = ", ".join(f"{p} {s}" for p, s in table)
    verb = "share the win" if len(best) > 1 else "wins"
    assert said(finish(t, "test")) == [f"Game over (test): {' and '.join(best)} {verb}; scores {shown}."]
