"""`make demo` (the README's first command) plays its seeded Pax game through the CLI and
ends verified, so a change to the rules or the order language cannot break the quick start."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path
from typing import Any

import pytest

GAMES = Path(__file__).resolve().parents[2] / "games"


def run_demo(name: str) -> tuple[Any, str]:
    """Run games/NAME.py's main() in the current folder: (the module, what it printed)."""
    spec = importlib.util.spec_from_file_location(name, GAMES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        module.main()
    return module, out.getvalue()


def test_demo_plays_its_blocks_and_verifies(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    module, text = run_demo("demo")
    assert f"== block {module.BLOCKS}:" in text
    assert "every draw re-derived from the seed" in text
