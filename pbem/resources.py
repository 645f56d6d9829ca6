"""Where templates/ and games/ live: inside the installed package, or beside the source tree."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

_PACKAGE = Path(__file__).resolve().parent
CACHE_NAME = "catalog.json"


def data_root(name: str) -> Path:
    """`templates` or `games`: the wheel ships them under pbem/_data; a checkout has them at the top."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name


def templates_dir() -> Path:
    return data_root("templates")


def games_dir() -> Path:
    return data_root("games")


def _load_yaml(path: Path) -> Any:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=loader)  # noqa: S506 - a safe loader


def ruleset_sources(name: str, files: Sequence[str]) -> dict[str, Any]:
    """The ruleset's data files parsed from their YAML sources under games/<name>/."""
    root = games_dir() / name
    return {file: _load_yaml(root / f"{file}.yaml") for file in files}


def ruleset_data(name: str, files: Sequence[str]) -> dict[str, Any]:
    """The data files from the JSON cache when present (start-up time matters: every command
    builds the catalog), else from the YAML sources."""
    cached = games_dir() / name / CACHE_NAME
    if cached.exists():
        data: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
        return data
    return ruleset_sources(name, files)


def write_cache(name: str, files: Sequence[str]) -> Path:
    """games/<name>/catalog.json from the YAML sources (rerun after editing them)."""
    target = games_dir() / name / CACHE_NAME
    text = json.dumps(ruleset_sources(name, files), ensure_ascii=False, separators=(",", ":"))
    target.write_text(text + "\n", encoding="utf-8")
    return target
