"""Order-line matching cost and limits (engine.core.choice): linear in the line, capped."""

from __future__ import annotations

import time
from typing import Any

import pytest

from engine.core.adjudicate import options_now
from engine.core.choice import MAX_LINE, Choice, match_line
from engine.core.errors import IllegalOrder, RuleError, UnreadableOrder
from engine.core.table import Table
from engine.pax.ruleset import PAX
from pbem.play.scenarios.pax import build_table


def table(**given: Any) -> Table:
    data: dict[str, Any] = {"players": 3, "seed": "turn-1", "turn": "fugger", **given}
    built, _, _ = build_table(data)
    return built


def parse(t: Table, line: str) -> Choice:
    return match_line(line, options_now(PAX, t), PAX.namer(t), PAX.verbs)


def _elapsed(t: Table, line: str) -> float:
    start = time.perf_counter()
    with pytest.raises(RuleError):
        parse(t, line)
    return time.perf_counter() - start


def test_a_line_over_the_limit_is_refused_with_its_length() -> None:
    t = table()
    with pytest.raises(UnreadableOrder) as error:
        parse(t, "buy " + "west " * 1200)
    assert f"at most {MAX_LINE}" in error.value.reason
    assert "6003 characters" in error.value.reason


def test_a_long_line_under_the_limit_is_matched_quickly() -> None:
    t = table()
    words = ("buy west " + "jacques coeur " * 40)[:MAX_LINE]
    assert _elapsed(t, words) < 0.5


def test_matching_time_grows_no_faster_than_the_line() -> None:
    t = table()
    short = _elapsed(t, "buy " + "east " * 20)
    long = _elapsed(t, "buy " + "east " * 95)
    assert long < max(short, 0.002) * 20


def test_a_near_miss_spelling_offers_the_legal_line() -> None:
    t = table()
    with pytest.raises(IllegalOrder) as error:
        parse(t, "buy wset 2")
    assert "did you mean 'buy west 2'?" in error.value.reason


def test_an_unknown_word_close_to_a_legal_line_offers_it() -> None:
    t = table()
    with pytest.raises(UnreadableOrder) as error:
        parse(t, "by west 2")
    assert "did you mean 'buy west 2'?" in error.value.reason
