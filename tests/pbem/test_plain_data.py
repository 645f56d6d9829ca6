"""The check that loaded YAML holds only what JSON holds (pbem.store.plain_data): its quick
walk passes exactly the data its naming walk passes, so the error names the same place."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import CorruptGameError
from pbem.store import plain_data


class Word(str):
    """A str subclass: not plain data."""


leaves = st.one_of(st.text(max_size=3), st.integers(), st.booleans(), st.none(),
                   st.floats(), st.builds(Word, st.text(max_size=2)), st.binary(max_size=2),
                   st.tuples(st.integers()))
keys = st.one_of(st.text(max_size=3), st.text(max_size=3), st.integers(), st.none(), st.booleans(),
                 st.tuples(st.integers()))
data = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)), max_leaves=20)


def passes(value: Any) -> bool:
    try:
        plain_data.check_plain_data(value)
    except CorruptGameError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(data)
def test_the_quick_walk_agrees_with_the_naming_walk(value: Any) -> None:
    assert plain_data._is_plain(value) == passes(value)


@pytest.mark.parametrize(("value", "message"), [
    ({"a": [1, {"b": float("nan")}]}, "game file: 'a[1].b' is nan, not a finite number"),
    ({"a": {1: "x"}}, "game file: 'a' has a key 1 that is not a string"),
    ({"a": [{"b": (1,)}]}, "game file: 'a[0].b' holds a tuple; a game file holds only strings, "
                           "numbers, true/false, null, lists and mappings"),
])
def test_a_problem_is_still_named_by_its_path(value: Any, message: str) -> None:
    with pytest.raises(CorruptGameError) as error:
        plain_data.check_plain_data(value)
    assert str(error.value) == message
