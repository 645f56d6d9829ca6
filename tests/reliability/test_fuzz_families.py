"""The fuzz families under hypothesis, each with a fixed seed (issue 20 §6): order lines,
armored blocks, mail messages, game files, scenario files and CLI arguments, each run through
the CLI in a game's folder. No input may exit 70 or show a traceback, and an input that fails
leaves every file unchanged. `make fuzz` runs the same families 100,000 times."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reliability.families import FAMILIES, Arena

EXAMPLES = {"order lines": 12, "armored blocks": 15, "mail messages": 8, "game files": 15,
            "scenario files": 15, "cli arguments": 25}


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Arena:
    return Arena(tmp_path_factory.mktemp("fuzz"))


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_no_input_crashes_and_a_failing_one_changes_nothing(arena: Arena, family: str) -> None:
    @settings(derandomize=True, max_examples=EXAMPLES[family], deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(rng=st.randoms(use_true_random=False))
    def check(rng: random.Random) -> None:
        outcome = arena.run(FAMILIES[family](rng, arena))
        assert outcome.ok, outcome.describe()

    check()


def test_the_families_reach_past_the_first_check(arena: Arena) -> None:
    """The fuzz is worth its time only if inputs get deep: past the block finder to the rules
    (rejections), past the signature check, and past the file's schema to its hash chain."""
    rng = random.Random(20)
    seen = {family: {arena.run(FAMILIES[family](rng, arena)).code for _ in range(20)}
            for family in ("order lines", "armored blocks", "game files")}
    assert 1 in seen["order lines"] and len(seen["order lines"]) >= 2, seen
    assert 3 in seen["armored blocks"] and len(seen["armored blocks"]) >= 2, seen
    assert 5 in seen["game files"] and len(seen["game files"]) >= 2, seen
