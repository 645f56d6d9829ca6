"""Where templates/ and games/ live: inside the installed package, or beside the source tree."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from engine.aor.catalog import Catalog as AorCatalog
from engine.aor.catalog import CatalogError as AorCatalogError
from engine.aor.catalog import build_catalog as build_aor_catalog
from engine.pax.catalog import Catalog, CatalogError, build_catalog
from pbem.errors import CorruptGameError

_PACKAGE = Path(__file__).resolve().parent


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


def pax_data() -> dict[str, Any]:
    """The Pax data files, from the JSON cache when present (start-up time matters: every
    command builds the catalog), else from the YAML sources."""
    root = games_dir() / "pax"
    cached = root / "catalog.json"
    if cached.exists():
        data: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
        return data
    return {name: _load_yaml(root / f"{name}.yaml") for name in ("cards", "map", "abilities")}


@cache
def pax_catalog() -> Catalog:
    data = pax_data()
    try:
        return build_catalog(data["cards"], data["map"], data["abilities"])
    except CatalogError as error:
        raise CorruptGameError(f"game data: {error}") from None


AOR_FILES = ("board", "cards", "advances", "tables")


def aor_sources() -> dict[str, Any]:
    root = games_dir() / "aor"
    return {name: _load_yaml(root / f"{name}.yaml") for name in AOR_FILES}


def write_aor_cache() -> Path:
    """games/aor/catalog.json from the YAML sources (rerun after editing them)."""
    target = games_dir() / "aor" / "catalog.json"
    text = json.dumps(aor_sources(), ensure_ascii=False, separators=(",", ":"))
    target.write_text(text + "\n", encoding="utf-8")
    return target


def aor_data() -> dict[str, Any]:
    """The Age of Renaissance data files, from the JSON cache when present."""
    cached = games_dir() / "aor" / "catalog.json"
    if cached.exists():
        data: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
        return data
    return aor_sources()


@cache
def aor_catalog() -> AorCatalog:
    data = aor_data()
    try:
        return build_aor_catalog(*(data[name] for name in AOR_FILES))
    except AorCatalogError as error:
        raise CorruptGameError(f"game data: {error}") from None
