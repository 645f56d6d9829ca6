"""How long the soak-like tests run. `make test` plays a few seeded games in each (the same
checks on fewer games); `make test-long` (PBEM_TEST_LONG=1) plays the full count, as before
issue 17. Each test that uses this says so in its docstring."""

from __future__ import annotations

import os

LONG = os.environ.get("PBEM_TEST_LONG") == "1"


def count(short: int, long: int) -> int:
    """`long` under `make test-long`, else `short`."""
    return long if LONG else short
