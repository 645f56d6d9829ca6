"""Age of Renaissance scenarios (tests/scenarios/aor/<area>/<id>.yaml), run through the core as
pbem runs a block: each block adjudicated on a working copy, a rejected block leaving the table
byte-identical, the invariants checked after every block. The format is in tests/aor_scenario.py
and docs/scenarios.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.aor.model import hand_cards
from engine.aor.ruleset import AOR
from engine.core.adjudicate import adjudicate, options_now
from engine.core.agenda import next_pending, waiting_for
from engine.core.errors import RuleError
from engine.core.table import Event, Table
from tests.aor_scenario import ScenarioError, build_table, catalog
from tests.test_scenarios import _check_keys, check_error, check_events, check_state

ROOT = Path(__file__).parent / "scenarios" / "aor"
AREAS = ("setup", "draw", "buy", "play", "events", "war", "acquisition", "advances", "expansion",
         "battle", "income", "order", "endgame", "examples", "elimination")
TOP_KEYS = ("id", "rule", "title", "given", "orders", "expect")
ERROR_KEYS = ("kind", "line", "options_include", "reason_include")
EXPECT_KEYS = ("error", "waiting_for", "decision", "options_include", "options_exclude",
               "state", "absent", "lengths", "contains", "events_include", "events_exclude",
               "hands", "cash", "over", "winners")


def _load() -> list[tuple[Path, Any]]:
    return [(path, yaml.safe_load(path.read_text(encoding="utf-8")))
            for path in sorted(ROOT.glob("**/*.yaml"))]


CASES = _load()


def _validate(data: Any) -> dict[str, Any]:
    data = _check_keys("scenario", data, TOP_KEYS, ("id", "rule", "title", "given", "expect"))
    for key in ("id", "rule", "title"):
        if isinstance(data[key], int | float):
            raise ScenarioError(f"scenario: quote '{key}': YAML reads {data[key]!r} as a number")
        if not isinstance(data[key], str) or not data[key].strip():
            raise ScenarioError(f"scenario: '{key}' must be a non-empty string")
    for index, block in enumerate(data.get("orders") or []):
        _check_keys(f"orders[{index}]", block, ("player", "lines"), ("player", "lines"))
        if not isinstance(block["lines"], list) or not all(isinstance(x, str) for x in block["lines"]):
            raise ScenarioError(f"orders[{index}].lines: expected a list of strings")
    expect = _check_keys("expect", data["expect"], EXPECT_KEYS)
    if "error" in expect:
        _check_keys("expect.error", expect["error"], ERROR_KEYS, ("kind", "line"))
        if not data.get("orders"):
            raise ScenarioError("expect.error needs at least one order block")
    return data


def dump(table: Table) -> str:
    return json.dumps({"state": table.state, "agenda": table.agenda})


def _check_expect(table: Table, events: list[Event], expect: dict[str, Any]) -> None:
    state = table.state
    if "waiting_for" in expect:
        assert waiting_for(table.agenda) == expect["waiting_for"]
    if "decision" in expect:
        node = next_pending(table.agenda)
        assert (node["action"] if node else None) == expect["decision"]
    owed = waiting_for(table.agenda)
    lines = [c.line for c in options_now(AOR, table, owed[0])] if owed else []
    for line in expect.get("options_include", []):
        assert line in lines, f"{line!r} is not among the options {lines}"
    for line in expect.get("options_exclude", []):
        assert line not in lines, f"{line!r} is among the options {lines}"
    check_state(state, expect)
    for pid, cards in (expect.get("hands") or {}).items():
        assert hand_cards(state, pid) == sorted(cards), f"{pid}'s hand"
    for pid, cash in (expect.get("cash") or {}).items():
        assert state["players"][pid]["cash"] == cash, f"{pid}'s cash"
    if "over" in expect:
        assert bool(state["over"]) == expect["over"]
    if "winners" in expect:
        assert state["winners"] == expect["winners"]
    check_events(events, expect)


def run_case(data: Any) -> None:
    data = _validate(data)
    table, chance, events = build_table(data["given"])
    AOR.check_invariants(table)
    expect, blocks = data["expect"], data.get("orders") or []
    for index, block in enumerate(blocks):
        failing = index == len(blocks) - 1 and "error" in expect
        before, drawn = dump(table), len(chance.draws)
        try:
            outcome = adjudicate(AOR, table, block["player"],
                                 list(enumerate(block["lines"], start=1)), chance)
        except RuleError as error:
            if not failing:
                pytest.fail(f"block {index + 1} ({block['player']}) was rejected: {error}")
            assert dump(table) == before, "a rejected block changed the table"
            assert len(chance.draws) == drawn, "a rejected block drew"
            check_error(error, expect["error"])
            events = []
            break
        if failing:
            pytest.fail(f"block {index + 1} was accepted; expected a {expect['error']['kind']} error")
        table, events = outcome.table, outcome.events
        table.state["draws"] = len(chance.draws)
        AOR.check_invariants(table)
    _check_expect(table, events, expect)


@pytest.mark.parametrize("path,data", CASES, ids=[path.stem for path, _ in CASES])
def test_aor_scenario(path: Path, data: Any) -> None:
    try:
        run_case(data)
    except ScenarioError as error:
        pytest.fail(f"{path.relative_to(ROOT)}: {error}")


def test_aor_scenario_files_are_well_placed() -> None:
    assert CASES, "no Age of Renaissance scenario files found"
    seen: dict[str, Path] = {}
    for path, data in CASES:
        area = path.relative_to(ROOT).parts[0]
        assert area in AREAS, f"{path}: unknown area '{area}'"
        assert data["id"] == path.stem, f"{path}: id differs from the file name"
        assert data["id"] not in seen, f"duplicate id {data['id']}"
        seen[data["id"]] = path


def test_aor_runner_rejects_unknown_keys() -> None:
    with pytest.raises(ScenarioError, match="unknown key 'colour'"):
        build_table({"players": 3, "seed": "s", "colour": "red"})
    with pytest.raises(ScenarioError, match="unknown player 'zed'"):
        build_table({"players": 3, "seed": "s", "hands": {"zed": ["stone_e1a"]}})
    assert "stone_e1a" in catalog().cards
