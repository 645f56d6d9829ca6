"""`make demo` (the README's first command) plays its seeded Pax game through the CLI and
ends verified, so a change to the rules or the order language cannot break the quick start."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from pbem.cli import main

GAMES = Path(__file__).resolve().parents[2] / "games"


def pbem_in_process(*args: str) -> str:
    """games/demo.py's pbem() (`python -m pbem ARGS`: pbem.cli.main, fast path included), run
    in this process: the same command lines and the same stop on a failure, without starting
    Python again for each of the demo's thirty commands. `python -m pbem` as a process is
    tested by tests/test_wheel.py and the README's commands (tests/test_readme.py)."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "argv", ["pbem", *args]), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else int(done.code is not None)
    if code != 0:
        sys.exit(f"pbem {' '.join(args)} failed ({code}): {err.getvalue().strip()}")
    return out.getvalue()


def run_demo(name: str) -> tuple[Any, str]:
    """Run games/NAME.py's main() in the current folder: (the module, what it printed). A demo
    that runs pbem as processes runs it in this process instead (pbem_in_process)."""
    spec = importlib.util.spec_from_file_location(name, GAMES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if getattr(module, "subprocess", None) is not None:
        module.pbem = pbem_in_process
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
