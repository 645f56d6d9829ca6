"""The attacked games, built once per session (tests/security/attack_games.py): each test
copies the snapshot it needs, so an attack that got through could not spoil another test."""

from __future__ import annotations

import pytest

from tests.security.attack_games import Built, build_aor, build_pax


@pytest.fixture(scope="session")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    base = tmp_path_factory.mktemp("attacked")
    return {"pax": build_pax(base), "aor": build_aor(base)}
