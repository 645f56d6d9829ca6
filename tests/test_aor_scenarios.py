"""Age of Renaissance scenarios (tests/scenarios/aor/<area>/<id>.yaml), run like the Pax ones
by pbem.play.scenarios; the runner's own tests are in tests/test_scenarios.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_scenarios import case_id, check_case, load_cases

CASES = load_cases("aor")


@pytest.mark.parametrize("path,data", CASES, ids=[case_id(p, d) for p, d in CASES])
def test_aor_scenario(path: Path, data: Any) -> None:
    check_case(path, data)
