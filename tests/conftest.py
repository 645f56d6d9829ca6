"""Shared fixtures: the Pax catalog and small helpers to start games in memory."""

from __future__ import annotations

import pytest

from engine.core.chance import SeededChance
from engine.core.table import Table
from engine.pax.catalog import Catalog
from engine.pax.ruleset import PAX
from pbem.rulesets import pax_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return pax_catalog()


def new_table(players: int = 3, seed: bytes = b"test-seed", **options: object) -> Table:
    chance = SeededChance(seed, "test", 0)
    seats = ["a", "b", "c", "d"][:players]
    table, _ = PAX.setup(pax_catalog(), "test", seats, dict(options), chance)
    return table
