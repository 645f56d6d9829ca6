"""Scenario tests, our DATC (architecture.md section 10): one YAML file per rules case.

Each file under tests/scenarios/<area>/<id>.yaml sets up a game from a seed, adjusts it by
moving cards and patching the state, sends order blocks through `adjudicate`, and checks the
outcome. Keys are validated strictly; the adjusted start must satisfy the invariants; a
rejected block must leave the table byte-identical. Run one case with `pytest -k <id>`.

given:   players, seed, options, turn (bank to act, fresh turn), clear, move, delete, patch
         (applied in that order; `clear` sends every card of a zone, a deck or a market
         slot to the box; `move` keeps every card in exactly one zone:
         {card: ID, to: PATH} takes the card from wherever it is, {from: market.west.2,
         to: PATH} takes the card in that slot; a card moved into an occupied market slot
         sends the occupant to the box)
orders:  [{player, lines}], each one block; line numbers count from 1 in each block
expect:  error {kind, line, options_include, reason_include}, waiting_for, decision
         (null = nothing pending), options_include, options_exclude, state (path -> exact
         value), absent (paths that must not exist), lengths (path -> len), contains
         (path -> items that must be in it), events_include, events_exclude
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.core.adjudicate import adjudicate, options_now
from engine.core.agenda import new_node, next_pending, waiting_for
from engine.core.chance import SeededChance
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Event, Table
from engine.pax.ruleset import PAX
from pbem.resources import pax_catalog

ROOT = Path(__file__).parent / "scenarios"
AREAS = ("setup", "turn", "market", "purchase", "sell", "play", "agents", "fair", "endgame",
         "oneshots", "battle", "regime", "ops", "victory", "abilities", "variants")
TOP_KEYS = ("id", "rule", "title", "given", "orders", "expect")
GIVEN_KEYS = ("players", "seed", "options", "turn", "clear", "move", "delete", "patch")
ORDER_KEYS = ("player", "lines")
MOVE_KEYS = ("card", "from", "to")
ERROR_KEYS = ("kind", "line", "options_include", "reason_include")
EXPECT_KEYS = ("error", "waiting_for", "decision", "options_include", "options_exclude",
               "state", "absent", "lengths", "contains", "events_include", "events_exclude")
SORTED_ZONES = ("hand", "old_maids", "box", "discard")
SEATS = ("a", "b", "c", "d")


class ScenarioError(Exception):
    """The scenario file itself is wrong (not the engine)."""


@dataclass
class Case:
    path: Path
    data: Any

    @property
    def id(self) -> str:
        if isinstance(self.data, dict) and isinstance(self.data.get("id"), str):
            return str(self.data["id"])
        return self.path.stem


def _load_cases() -> list[Case]:
    cases = []
    for path in sorted(ROOT.glob("**/*.yaml")):
        if path.relative_to(ROOT).parts[0] == "aor":  # tests/test_aor_scenarios.py runs these
            continue
        with path.open(encoding="utf-8") as handle:
            cases.append(Case(path, yaml.safe_load(handle)))
    return cases


CASES = _load_cases()


# --- strict keys --------------------------------------------------------------------------


def _check_keys(where: str, data: Any, allowed: tuple[str, ...],
                required: tuple[str, ...] = ()) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ScenarioError(f"{where}: expected a mapping, got {type(data).__name__}")
    unknown = [key for key in data if key not in allowed]
    if unknown:
        raise ScenarioError(f"{where}: unknown key '{unknown[0]}' (allowed: {', '.join(allowed)})")
    missing = [key for key in required if key not in data]
    if missing:
        raise ScenarioError(f"{where}: missing key '{missing[0]}'")
    return data


def _validate(case: Case) -> dict[str, Any]:
    data = _check_keys("scenario", case.data, TOP_KEYS, ("id", "rule", "title", "given", "expect"))
    for key in ("id", "rule", "title"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise ScenarioError(f"scenario: '{key}' must be a non-empty string")
    given = _check_keys("given", data["given"], GIVEN_KEYS, ("players", "seed"))
    for index, move in enumerate(given.get("move", [])):
        _check_keys(f"given.move[{index}]", move, MOVE_KEYS, ("to",))
        if ("card" in move) == ("from" in move):
            raise ScenarioError(f"given.move[{index}]: give exactly one of 'card' or 'from'")
    for index, block in enumerate(data.get("orders") or []):
        _check_keys(f"orders[{index}]", block, ORDER_KEYS, ORDER_KEYS)
        if not isinstance(block["lines"], list) or not all(
                isinstance(line, str) for line in block["lines"]):
            raise ScenarioError(f"orders[{index}].lines: expected a list of strings")
    expect = _check_keys("expect", data["expect"], EXPECT_KEYS)
    if "error" in expect:
        _check_keys("expect.error", expect["error"], ERROR_KEYS, ("kind", "line"))
        if not data.get("orders"):
            raise ScenarioError("expect.error needs at least one order block")
    return data


# --- dotted paths -------------------------------------------------------------------------


def _step(container: Any, key: str, path: str) -> Any:
    if isinstance(container, list):
        if not key.lstrip("-").isdigit() or not -len(container) <= int(key) < len(container):
            raise ScenarioError(f"path '{path}': no list index '{key}'")
        return container[int(key)]
    if isinstance(container, dict):
        if key not in container:
            raise ScenarioError(f"path '{path}': no key '{key}'")
        return container[key]
    raise ScenarioError(f"path '{path}': cannot look into {type(container).__name__} at '{key}'")


def _parent(root: Any, path: str) -> tuple[Any, str]:
    parts = path.split(".")
    container = root
    for key in parts[:-1]:
        container = _step(container, key, path)
    return container, parts[-1]


def get_path(root: Any, path: str) -> Any:
    container, last = _parent(root, path)
    return _step(container, last, path)


def has_path(root: Any, path: str) -> bool:
    try:
        get_path(root, path)
    except ScenarioError:
        return False
    return True


def set_path(root: Any, path: str, value: Any) -> None:
    container, last = _parent(root, path)
    if isinstance(container, list):
        _step(container, last, path)
        container[int(last)] = value
    elif isinstance(container, dict):
        container[last] = value
    else:
        raise ScenarioError(f"path '{path}': cannot set inside {type(container).__name__}")


def delete_path(root: Any, path: str) -> None:
    container, last = _parent(root, path)
    if not isinstance(container, dict) or last not in container:
        raise ScenarioError(f"delete '{path}': not an existing mapping key")
    del container[last]


# --- card moves ---------------------------------------------------------------------------


def _card_lists(state: dict[str, Any]) -> Iterator[list[str]]:
    for segments in state["decks"].values():
        yield from segments
    for data in state["players"].values():
        for zone in ("hand", "west", "east", "old_maids"):
            yield data[zone]
    yield state["box"]
    yield state["discard"]


def take_card(state: dict[str, Any], card_id: str) -> None:
    """Remove a card from whichever zone holds it."""
    for cards in _card_lists(state):
        if card_id in cards:
            cards.remove(card_id)
            return
    for row in state["market"].values():
        for slot in row:
            if slot["card"] == card_id:
                slot["card"] = None
                return
    for side, preview in state.get("preview", {}).items():
        if preview == card_id:
            state["preview"][side] = None
            return
    raise ScenarioError(f"move: card {card_id} is in no zone")


def put_card(state: dict[str, Any], card_id: str, path: str) -> None:
    target = get_path(state, path)
    if isinstance(target, dict) and "card" in target:  # a market slot
        if target["card"] is not None:
            state["box"].append(target["card"])
            state["box"].sort()
        target["card"] = card_id
    elif isinstance(target, list):
        target.append(card_id)
        if path.split(".")[-1] in SORTED_ZONES:
            target.sort()
    elif path.startswith("preview.") and target is None:
        set_path(state, path, card_id)
    else:
        raise ScenarioError(f"move: '{path}' is not a card zone or market slot")


def clear_zone(state: dict[str, Any], path: str) -> None:
    """Send every card at `path` (a deck, a deck segment, a card list, a market slot) to the
    box, the pile of cards out of the game."""
    target = get_path(state, path)
    if isinstance(target, dict) and "card" in target:
        cards = [target["card"]] if target["card"] else []
        target["card"] = None
    elif isinstance(target, list) and all(isinstance(item, list) for item in target):
        cards = [card for segment in target for card in segment]
        for segment in target:
            segment.clear()
    elif isinstance(target, list) and all(isinstance(item, str) for item in target):
        cards = list(target)
        target.clear()
    else:
        raise ScenarioError(f"clear: '{path}' is not a card zone, deck or market slot")
    state["box"] = sorted(state["box"] + cards)


def apply_move(state: dict[str, Any], move: dict[str, Any]) -> None:
    if "card" in move:
        card_id = str(move["card"])
        if card_id not in pax_catalog().cards:
            raise ScenarioError(f"move: unknown card '{card_id}'")
    else:
        slot = get_path(state, move["from"])
        if not isinstance(slot, dict) or not slot.get("card"):
            raise ScenarioError(f"move: '{move['from']}' is not a market slot holding a card")
        card_id = slot["card"]
    take_card(state, card_id)
    put_card(state, card_id, str(move["to"]))


# --- running ------------------------------------------------------------------------------


def dump(table: Table) -> str:
    return json.dumps({"state": table.state, "agenda": table.agenda}, sort_keys=False)


def build_table(given: dict[str, Any]) -> tuple[Table, SeededChance, list[Event]]:
    players = int(given["players"])
    chance = SeededChance(str(given["seed"]).encode(), "scenario", 0)
    table, events = PAX.setup(pax_catalog(), "scenario", list(SEATS[:players]),
                              dict(given.get("options") or {}), chance)
    state = table.state
    if "turn" in given:
        bank = given["turn"]
        if bank not in state["order"]:
            raise ScenarioError(f"given.turn: {bank} is not in this game ({state['order']}); "
                                "pick another seed")
        state["turn"] = {"number": 1, "player": bank, "actions": 0, "used": [], "usury": []}
        table.agenda[:] = [new_node(state, "turn", bank)]
    for path in given.get("clear") or []:
        clear_zone(state, str(path))
    for move in given.get("move") or []:
        apply_move(state, move)
    for path in given.get("delete") or []:
        delete_path(state, str(path))
    for path, value in (given.get("patch") or {}).items():
        set_path(state, str(path), value)
    for key in ("cities", "borders", "bishops"):
        state[key] = dict(sorted(state[key].items()))
    PAX.check_invariants(table)
    return table, chance, events


def check_error(error: RuleError, spec: dict[str, Any]) -> None:
    assert error.kind == spec["kind"], f"expected a {spec['kind']} error, got {error.kind}: {error}"
    assert error.number == spec["line"], f"expected the error on line {spec['line']}: {error}"
    for line in spec.get("options_include", []):
        assert line in error.options, f"error options lack {line!r}: {error.options}"
    for text in spec.get("reason_include", []):
        assert text in error.reason, f"error reason lacks {text!r}: {error.reason}"


def _check_expect(table: Table, events: list[Event], expect: dict[str, Any]) -> None:
    if "waiting_for" in expect:
        assert waiting_for(table.agenda) == expect["waiting_for"]
    if "decision" in expect:
        node = next_pending(table.agenda)
        assert (node["action"] if node else None) == expect["decision"]
    lines = [choice.line for choice in options_now(PAX, table)]
    for line in expect.get("options_include", []):
        assert line in lines, f"{line!r} is not among the options {lines}"
    for line in expect.get("options_exclude", []):
        assert line not in lines, f"{line!r} is among the options {lines}"
    check_state(table.state, expect)
    check_events(events, expect)


def check_state(state: dict[str, Any], expect: dict[str, Any]) -> None:
    """The `state`, `absent`, `lengths` and `contains` expectations (both rulesets)."""
    for path, value in (expect.get("state") or {}).items():
        assert get_path(state, path) == value, f"state at {path}"
    for path in expect.get("absent", []):
        assert not has_path(state, path), f"{path} exists: {get_path(state, path)}"
    for path, length in (expect.get("lengths") or {}).items():
        assert len(get_path(state, path)) == length, f"length of {path}"
    for path, items in (expect.get("contains") or {}).items():
        held = get_path(state, path)
        for item in items:
            assert item in held, f"{item!r} is not in {path}: {held}"


def check_events(events: list[Event], expect: dict[str, Any]) -> None:
    texts = [e["text"] for e in events]
    for text in expect.get("events_include", []):
        assert any(text in t for t in texts), f"no event contains {text!r}: {texts}"
    for text in expect.get("events_exclude", []):
        assert not any(text in t for t in texts), f"an event contains {text!r}: {texts}"


def run_case(case: Case) -> None:
    data = _validate(case)
    table, chance, events = build_table(data["given"])
    expect = data["expect"]
    blocks = data.get("orders") or []
    for index, block in enumerate(blocks):
        failing = index == len(blocks) - 1 and "error" in expect
        lines = list(enumerate(block["lines"], start=1))
        before = dump(table)
        try:
            outcome = adjudicate(PAX, table, block["player"], lines, chance)
        except RuleError as error:
            if not failing:
                pytest.fail(f"block {index + 1} ({block['player']}) was rejected: {error}")
            assert dump(table) == before, "a rejected block changed the table"
            check_error(error, expect["error"])
            events = []
            break
        if failing:
            pytest.fail(f"block {index + 1} was accepted; expected a {expect['error']['kind']} "
                        "error")
        table, events = outcome.table, outcome.events
        PAX.check_invariants(table)
    _check_expect(table, events, expect)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_scenario(case: Case) -> None:
    try:
        run_case(case)
    except ScenarioError as error:
        pytest.fail(f"{case.path.relative_to(ROOT)}: {error}")


def test_scenario_files_are_well_placed() -> None:
    assert CASES, "no scenario files found"
    seen: dict[str, Path] = {}
    for case in CASES:
        area = case.path.relative_to(ROOT).parts[0]
        assert area in AREAS, f"{case.path}: unknown area '{area}'"
        assert case.id == case.path.stem, f"{case.path}: id '{case.id}' differs from file name"
        assert case.id not in seen, f"duplicate id {case.id}: {seen[case.id]} and {case.path}"
        seen[case.id] = case.path


def test_runner_rejects_unknown_keys() -> None:
    case = Case(ROOT / "x.yaml", {"id": "x", "rule": "C1", "title": "t",
                                  "given": {"players": 2, "seed": "s", "colour": "red"},
                                  "expect": {}})
    with pytest.raises(ScenarioError, match="unknown key 'colour'"):
        _validate(case)
    case.data["given"] = {"players": 2, "seed": "s"}
    case.data["expect"] = {"stat": {}}
    with pytest.raises(ScenarioError, match="unknown key 'stat'"):
        _validate(case)


def test_runner_rejects_an_impossible_start() -> None:
    """Taking a card out of the market without putting it anywhere breaks conservation."""
    given = {"players": 2, "seed": "runner-1", "patch": {"market.west.1": {"card": None,
                                                                            "florins": 0}}}
    with pytest.raises(InvariantViolation, match="cards in no zone"):
        build_table(given)
