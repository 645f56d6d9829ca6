"""Scenario tests, our DATC (architecture.md section 10): one YAML file per rules case, run by
pbem.play.scenarios (the format is in docs/scenarios.md; `pbem scenario FILE` runs one by hand).

Pax Renaissance cases live in tests/scenarios/<area>/<id>.yaml and Age of Renaissance cases in
tests/scenarios/aor/<area>/<id>.yaml. Each sets up a game, sends order blocks through the core
as `pbem apply` would and checks the outcome; a rejected block must leave the table
byte-identical. Run one case with `pytest -k <id>`.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.core.errors import InvariantViolation
from pbem.play.scenarios.paths import ScenarioError, ScenarioFailed
from pbem.play.scenarios.pax import build_table
from pbem.play.scenarios.run import ruleset_of, run_case, validate

ROOT = Path(__file__).parent / "scenarios"
AREAS = {
    "pax": ("setup", "turn", "market", "purchase", "sell", "play", "agents", "fair", "endgame",
            "oneshots", "battle", "regime", "ops", "victory", "abilities", "variants"),
    "aor": ("setup", "draw", "buy", "play", "events", "war", "acquisition", "advances",
            "expansion", "battle", "income", "order", "endgame", "examples", "elimination"),
}


# libyaml's safe loader when PyYAML has it: the same data, parsed about seven times faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _every_case() -> tuple[tuple[Path, Any], ...]:
    """Every scenario file, parsed once per process: each pytest worker collects this module,
    tests/test_aor_scenarios.py and tests/engine/test_messages.py, which all read the cases."""
    return tuple((path, yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER))
                 for path in sorted(ROOT.glob("**/*.yaml")))


def load_cases(ruleset: str) -> list[tuple[Path, Any]]:
    """The cases of one ruleset (Age of Renaissance ones run in tests/test_aor_scenarios.py),
    each call its own copy, as when each parsed the files: a run may keep a case's values."""
    return [(path, copy.deepcopy(data)) for path, data in _every_case()
            if ruleset_of(data, path) == ruleset]


CASES = load_cases("pax")
ALL_CASES = CASES + load_cases("aor")


def case_id(path: Path, data: Any) -> str:
    return str(data.get("id", path.stem)) if isinstance(data, dict) else path.stem


@pytest.mark.parametrize("path,data", CASES, ids=[case_id(p, d) for p, d in CASES])
def test_scenario(path: Path, data: Any) -> None:
    check_case(path, data)


def check_case(path: Path, data: Any) -> None:
    try:
        run_case(data, ruleset_of(data, path))
    except ScenarioError as error:
        pytest.fail(f"{path.relative_to(ROOT)}: bad scenario file: {error}")
    except ScenarioFailed as error:
        pytest.fail(f"{path.relative_to(ROOT)}: {error}")


def test_scenario_files_are_well_placed() -> None:
    assert len(CASES) > 250 and len(ALL_CASES) - len(CASES) > 250, "scenario files are missing"
    seen: dict[str, Path] = {}
    for path, data in ALL_CASES:
        ruleset = ruleset_of(data, path)
        parts = path.relative_to(ROOT).parts
        area = parts[1] if ruleset == "aor" else parts[0]
        assert area in AREAS[ruleset], f"{path}: unknown {ruleset} area '{area}'"
        assert data["id"] == path.stem, f"{path}: id '{data['id']}' differs from the file name"
        assert data["id"] not in seen, f"duplicate id {data['id']}: {seen[data['id']]} and {path}"
        seen[data["id"]] = path


def test_runner_rejects_unknown_keys() -> None:
    case = {"id": "x", "rule": "C1", "title": "t",
            "given": {"players": 2, "seed": "s", "colour": "red"}, "expect": {}}
    with pytest.raises(ScenarioError, match="unknown key 'colour'"):
        run_case(case, "pax")
    case["given"] = {"players": 2, "seed": "s"}
    case["expect"] = {"stat": {}}
    with pytest.raises(ScenarioError, match="unknown key 'stat'"):
        validate(case, "pax")
    with pytest.raises(ScenarioError, match="unknown key 'hands'"):
        validate({**case, "expect": {"hands": {}}}, "pax")  # an Age of Renaissance key
    with pytest.raises(ScenarioError, match="quote 'rule'"):
        validate({**case, "rule": 9.4, "expect": {}}, "aor")


def test_runner_rejects_an_impossible_start() -> None:
    """Taking a card out of the market without putting it anywhere breaks conservation."""
    given = {"players": 2, "seed": "runner-1", "patch": {"market.west.1": {"card": None,
                                                                            "florins": 0}}}
    with pytest.raises(InvariantViolation, match="cards in no zone"):
        build_table(given)
    case = {"id": "x", "rule": "C1", "title": "t", "given": given, "expect": {}}
    with pytest.raises(ScenarioError, match="the start breaks an invariant"):
        run_case(case, "pax")


def test_a_wrong_expectation_fails_with_the_difference() -> None:
    case = {"id": "x", "rule": "8.1", "title": "t", "given": {"players": 3, "seed": "s"},
            "expect": {"cash": {"ada": 41}}}
    with pytest.raises(ScenarioFailed, match="ada has 40 ducats, expected 41"):
        run_case(case, "aor")
    with pytest.raises(ScenarioError, match="unknown player 'zed'"):
        run_case({**case, "given": {"players": 3, "seed": "s", "hands": {"zed": ["war"]}}}, "aor")


def test_a_card_in_two_zones_is_named_with_its_count() -> None:
    """The card check counts every zone (decks, market, hands, tableaus, queens, box, discard,
    preview): a market card also put in the discard pile is in two."""
    card = build_table({"players": 2, "seed": "runner-1"})[0].state["market"]["west"][1]["card"]
    given = {"players": 2, "seed": "runner-1", "patch": {"discard": [card]}}
    with pytest.raises(InvariantViolation, match=f"^card {card} is in 2 zones$"):
        build_table(given)
