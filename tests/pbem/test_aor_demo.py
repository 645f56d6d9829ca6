"""`make demo-aor` plays through sealed bids, a War and a battle, and its game file keeps the
hands secret."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path

import pytest
import yaml

DEMO = Path(__file__).resolve().parents[2] / "games" / "demo_aor.py"


def test_demo_aor_runs_and_keeps_hands_out_of_the_game_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    spec = importlib.util.spec_from_file_location("demo_aor", DEMO)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        module.main()
    text = out.getvalue()
    assert "(sealed: to the moderator only)" in text and "The sealed answers are opened" in text
    assert "declares War" in text and " attacks " in text
    assert "Public report" in text and "Report for ada" in text and "YOUR HAND" in text
    assert "every draw re-derived from the seed" in text
    data = yaml.safe_load((tmp_path / "demo-out" / "aor" / "lisbon.yaml").read_text())
    assert all("hand" not in p for p in data["state"]["players"].values())
