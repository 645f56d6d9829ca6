"""`make demo-aor` plays through sealed bids, a War and a battle, and its game file keeps the
hands secret."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import fast_yaml
from tests.pbem.test_demo import run_demo


def test_demo_aor_runs_and_keeps_hands_out_of_the_game_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, text = run_demo("demo_aor")
    assert "(sealed: to the moderator only)" in text and "The sealed answers are opened" in text
    assert "declares War" in text and " attacks " in text
    assert "Public report" in text and "Report for ada" in text and "YOUR HAND" in text
    assert "every draw re-derived from the seed" in text
    data = fast_yaml.safe_load((tmp_path / "demo-out" / "aor" / "lisbon.yaml").read_text())
    assert all("hand" not in p for p in data["state"]["players"].values())
