"""Shared fixtures: the Pax catalog and small helpers to start games in memory; one click
command per Typer app for the whole session."""

from __future__ import annotations

import fcntl
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from unittest import mock

import pytest
import typer.main
import typer.testing

from engine.core.chance import SeededChance
from engine.core.table import Table
from engine.pax.catalog import Catalog
from engine.pax.ruleset import PAX
from pbem.rulesets import pax_catalog
from tests.long_first import long_first

# Bytecode settings (cached outside the tree): tests/__init__.py, imported before this file.


T = TypeVar("T")


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], T]) -> T:
    """`build(folder)` run once per pytest run, not once per pytest-xdist worker (a session
    fixture is built in each worker that uses it): the first worker to ask builds into a folder
    of the run's temporary root, the others wait on its lock and read the result it pickled.
    What is built must not be changed by the tests: every worker reads the same files."""
    base = factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    done = root / f"{name}.pickle"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if done.exists():
            result: T = pickle.loads(done.read_bytes())
            return result
        folder = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=root))  # fresh if one failed
        result = build(folder)
        done.write_bytes(pickle.dumps(result))
        return result


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return pax_catalog()


def new_table(players: int = 3, seed: bytes = b"test-seed", **options: object) -> Table:
    chance = SeededChance(seed, "test", 0)
    seats = ["a", "b", "c", "d"][:players]
    table, _ = PAX.setup(pax_catalog(), "test", seats, dict(options), chance)
    return table


# typer's CliRunner rebuilds the click command from the app at every invoke (reading the type
# hints of every command: about a third of a short CLI test's time), and so does calling the
# app itself (`app(args)`, as games/demo_aor.py runs pbem); a `pbem` process builds it once,
# and so does the suite. Keyed by the app and its command count, so an app that gains a
# command is built again.
_COMMANDS: dict[tuple[int, int, int], tuple[typer.Typer, Any]] = {}
_BUILD = typer.main.get_command


def _command_of(app: typer.Typer) -> Any:
    key = (id(app), len(app.registered_commands), len(app.registered_groups))
    if key not in _COMMANDS:
        _COMMANDS[key] = (app, _BUILD(app))  # the app kept: its id stays its own
    return _COMMANDS[key][1]


@pytest.fixture(autouse=True, scope="session")
def _one_click_command_per_app() -> Iterator[None]:
    with mock.patch.object(typer.testing, "_get_command", _command_of), \
            mock.patch.object(typer.main, "get_command", _command_of):
        yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Known-long tests first in each pytest-xdist worker's share (tests/long_first.py). Every
    worker collects, and must find the same order: it depends on the collection alone."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[:] = long_first(items, [item.nodeid for item in items], workers)
