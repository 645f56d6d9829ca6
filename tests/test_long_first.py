"""The suite's own ordering (tests/long_first.py): each worker's slice starts with its share of
the known-long tests, and no test is lost or repeated."""

from __future__ import annotations

from tests import long_first


def test_each_slice_starts_with_its_long_tests_and_keeps_every_test() -> None:
    long = list(long_first.LONG)
    ids = [f"tests/a.py::t{i}" for i in range(10)] + [long[0], f"{long[1]}x", long[2]]
    ordered = long_first.long_first(ids, ids, 2)
    assert sorted(ordered) == sorted(ids)
    first, second = ordered[:len(ids) // 2], ordered[len(ids) // 2:]  # what worksteal deals
    assert first[0] == long[0] and set(second[:2]) == {f"{long[1]}x", long[2]}
    assert [i for i in ordered if i.startswith("tests/a.py")] == ids[:10]  # short ones in order


def test_one_worker_runs_the_long_tests_first_longest_first() -> None:
    long = list(long_first.LONG)
    ids = ["tests/a.py::t0", long[3], long[0]]
    assert long_first.long_first(ids, ids, 1) == [long[0], long[3], "tests/a.py::t0"]
