"""Strict keys and dotted paths (`players.ada.cash`, `market.west.1`) for scenario files."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core.chance import Chance
from engine.core.table import Event, Table


class ScenarioError(Exception):
    """The scenario file itself is wrong (not the engine)."""


class ScenarioFailed(Exception):
    """The engine did not do what the scenario expects."""


def expect_that(condition: bool, message: str) -> None:
    if not condition:
        raise ScenarioFailed(message)


def check_keys(where: str, data: Any, allowed: tuple[str, ...],
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


def _nothing(*_: Any) -> None:
    return None


@dataclass(frozen=True)
class ScenarioRules:
    """What a ruleset adds to the scenario format: how a `given:` becomes a table, the extra
    `expect:` keys it checks, and what follows each block."""

    start: Callable[[Any], tuple[Table, Chance, list[Event]]]
    expect_keys: tuple[str, ...] = ()
    check: Callable[[Table, dict[str, Any]], None] = _nothing
    after_block: Callable[[Table, Chance], None] = _nothing
