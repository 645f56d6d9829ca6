"""The attacked games, built once per run (tests/security/attack_games.py), for every
pytest-xdist worker: each test copies the snapshot it needs, so an attack that got through could
not spoil another test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import built_once
from tests.security.attack_games import Built, build_aor, build_pax


def _build(base: Path) -> dict[str, Built]:
    return {"pax": build_pax(base), "aor": build_aor(base)}


@pytest.fixture(scope="session")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    return built_once(tmp_path_factory, "attacked", _build)
