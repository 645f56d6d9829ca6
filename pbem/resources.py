"""Where templates/ and games/ live: inside the installed package, or beside the source tree."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

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


@cache
def pax_catalog() -> Catalog:
    root = games_dir() / "pax"
    try:
        return build_catalog(
            _load_yaml(root / "cards.yaml"),
            _load_yaml(root / "map.yaml"),
            _load_yaml(root / "abilities.yaml"),
        )
    except CatalogError as error:
        raise CorruptGameError(f"game data: {error}") from None
