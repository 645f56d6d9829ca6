"""Running one scenario file (docs/scenarios.md): build the start, send each order block
through the core as `pbem apply` would, check the expectations.

A rejected block must leave the table byte-identical and, for Age of Renaissance, draw
nothing; the invariants hold at the start and after every block. A wrong file raises
`ScenarioError`; an engine that does not do what the file expects raises `ScenarioFailed`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from engine.core.adjudicate import adjudicate, options_now
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import Chance
from engine.core.errors import InvariantViolation, RuleError
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table
from pbem import rulesets, words
from pbem.play.scenarios.paths import (
    ScenarioError,
    ScenarioFailed,
    ScenarioRules,
    check_keys,
    expect_that,
    get_path,
    has_path,
)

TOP_KEYS = ("id", "rule", "title", "ruleset", "given", "orders", "expect")
ORDER_KEYS = ("player", "lines")
ERROR_KEYS = ("kind", "line", "options_include", "reason_include")
EXPECT_KEYS = ("error", "waiting_for", "decision", "options_include", "options_exclude",
               "state", "absent", "lengths", "contains", "events_include", "events_exclude")


def load(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise ScenarioError(f"{path}: cannot read: {error}") from None


def ruleset_of(data: Any, path: Path | None = None) -> str:
    """`ruleset:` in the file, else the ruleset a folder on the path is named after, else the
    default ruleset."""
    named = data.get("ruleset") if isinstance(data, dict) else None
    if named is None:
        folders = [name for name in rulesets.RULESETS if path is not None and name in path.parts]
        return folders[0] if folders else rulesets.DEFAULT
    if named not in rulesets.RULESETS:
        raise ScenarioError(f"scenario: ruleset must be one of {', '.join(rulesets.RULESETS)}, "
                            f"not {named!r}")
    return str(named)


def validate(data: Any, ruleset: str) -> dict[str, Any]:
    data = check_keys("scenario", data, TOP_KEYS, ("id", "rule", "title", "given", "expect"))
    for key in ("id", "rule", "title"):
        if isinstance(data[key], int | float):
            raise ScenarioError(f"scenario: quote '{key}': YAML reads {data[key]!r} as a number")
        if not isinstance(data[key], str) or not data[key].strip():
            raise ScenarioError(f"scenario: '{key}' must be a non-empty string")
    for index, block in enumerate(data.get("orders") or []):
        check_keys(f"orders[{index}]", block, ORDER_KEYS, ORDER_KEYS)
        if not isinstance(block["lines"], list) or not all(
                isinstance(line, str) for line in block["lines"]):
            raise ScenarioError(f"orders[{index}].lines: expected a list of strings")
    allowed = EXPECT_KEYS + scenario_rules(ruleset).expect_keys
    expect = check_keys("expect", data["expect"], allowed)
    if "error" in expect:
        check_keys("expect.error", expect["error"], ERROR_KEYS, ("kind", "line"))
        if not data.get("orders"):
            raise ScenarioError("expect.error needs at least one order block")
    checked: dict[str, Any] = data
    return checked


def dump(table: Table) -> str:
    return json.dumps({"state": table.state, "agenda": table.agenda}, sort_keys=False)


def check_error(error: RuleError, spec: dict[str, Any]) -> None:
    expect_that(error.kind == spec["kind"],
                f"expected a {spec['kind']} error, got {error.kind}: {error}")
    expect_that(error.number == spec["line"], f"expected the error on line {spec['line']}: {error}")
    for line in spec.get("options_include", []):
        expect_that(line in error.options, f"error options lack {line!r}: {error.options}")
    for text in spec.get("reason_include", []):
        expect_that(text in error.reason, f"error reason lacks {text!r}: {error.reason}")


def check_state(state: dict[str, Any], expect: dict[str, Any]) -> None:
    """The `state`, `absent`, `lengths` and `contains` expectations."""
    for path, value in (expect.get("state") or {}).items():
        found = get_path(state, path)
        expect_that(found == value, f"state at {path} is {found!r}, expected {value!r}")
    for path in expect.get("absent", []):
        expect_that(not has_path(state, path), f"{path} exists")
    for path, length in (expect.get("lengths") or {}).items():
        found = len(get_path(state, path))
        expect_that(found == length, f"length of {path} is {found}, expected {length}")
    for path, items in (expect.get("contains") or {}).items():
        held = get_path(state, path)
        for item in items:
            expect_that(item in held, f"{item!r} is not in {path}: {held}")


def check_events(events: list[Event], expect: dict[str, Any]) -> None:
    texts = [words.say(e) for e in events]
    for text in expect.get("events_include", []):
        expect_that(any(text in t for t in texts), f"no event contains {text!r}: {texts}")
    for text in expect.get("events_exclude", []):
        expect_that(not any(text in t for t in texts), f"an event contains {text!r}: {texts}")


def check_pending(ruleset: Any, table: Table, expect: dict[str, Any]) -> None:
    owed = waiting_for(table.agenda)
    if "waiting_for" in expect:
        expect_that(owed == expect["waiting_for"],
                    f"waiting for {owed}, expected {expect['waiting_for']}")
    if "decision" in expect:
        node = next_pending(table.agenda)
        found = node["action"] if node else None
        expect_that(found == expect["decision"], f"decision {found!r}, expected "
                                                 f"{expect['decision']!r}")
    lines = [c.line for c in options_now(ruleset, table, owed[0])] if owed else []
    for line in expect.get("options_include", []):
        expect_that(line in lines, f"{line!r} is not among the options {lines}")
    for line in expect.get("options_exclude", []):
        expect_that(line not in lines, f"{line!r} is among the options {lines}")


def scenario_rules(ruleset_name: str) -> ScenarioRules:
    rules: ScenarioRules = rulesets.scenario_builder(ruleset_name)
    return rules


def run_case(data: Any, ruleset_name: str) -> None:
    """Raise ScenarioError for a wrong file, ScenarioFailed for a wrong engine."""
    data = validate(data, ruleset_name)
    ruleset, (table, chance, events) = _start(data["given"], ruleset_name)
    expect, blocks = data["expect"], data.get("orders") or []
    for index, block in enumerate(blocks):
        failing = index == len(blocks) - 1 and "error" in expect
        before, drawn = dump(table), len(chance.draws)
        try:
            outcome = adjudicate(ruleset, table, block["player"],
                                 list(enumerate(block["lines"], start=1)), chance)
        except InvariantViolation as error:
            raise ScenarioFailed(f"block {index + 1} broke an invariant: {error}") from None
        except RuleError as error:
            if not failing:
                raise ScenarioFailed(f"block {index + 1} ({block['player']}) was rejected: "
                                     f"{error}") from None
            expect_that(dump(table) == before, "a rejected block changed the table")
            if ruleset.draw_ends_block:  # nothing drawn before rejecting
                expect_that(len(chance.draws) == drawn, "a rejected block drew")
            check_error(error, expect["error"])
            events = []
            break
        if failing:
            raise ScenarioFailed(f"block {index + 1} was accepted; expected a "
                                 f"{expect['error']['kind']} error")
        table, events = outcome.table, outcome.events
        scenario_rules(ruleset_name).after_block(table, chance)
        try:
            ruleset.check_invariants(table)
        except InvariantViolation as error:
            raise ScenarioFailed(f"block {index + 1} broke an invariant: {error}") from None
    check_pending(ruleset, table, expect)
    check_state(table.state, expect)
    check_events(events, expect)
    scenario_rules(ruleset_name).check(table, expect)


def _start(given: Any, ruleset_name: str) -> tuple[Ruleset, tuple[Table, Chance, list[Event]]]:
    """The ruleset and the starting table; an impossible start is the file's fault."""
    ruleset = rulesets.ruleset_for(ruleset_name)
    try:
        built = scenario_rules(ruleset_name).start(given)
        ruleset.check_invariants(built[0])
    except InvariantViolation as error:
        raise ScenarioError(f"the start breaks an invariant: {error}") from None
    return ruleset, built
