"""The pbem command line: the Typer app (built on first use) with every command module, and
`main`, which runs the most frequent command lines through the fast path (pbem.cli.fast)."""

from __future__ import annotations

import atexit
import gc
import sys
from typing import Any

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    if name == "app":
        return build_app()
    raise AttributeError(name)


def build_app() -> Any:
    from pbem.cli.commands import (  # noqa: F401 - importing registers them
        board,
        bot,
        cards,
        delivery,
        fork,
        game,
        scenario,
        selfplay,
        settings,
    )
    from pbem.cli.typer_app import app

    globals()["app"] = app  # later lookups skip __getattr__
    return app


# A hot command is a short process that keeps most of what it makes (modules, the catalog,
# the game) to its end: the cyclic collector would walk those objects again and again as they
# load, to free next to nothing (start-up, bench/README.md). It still collects, less often.
HOT_GC_THRESHOLD = 50_000  # new container objects between collections (Python's is 700)


def main() -> None:
    # At the interpreter's exit, before it tears the modules down: its last collection would
    # walk every object the command kept (about a tenth of the bare import's time) and find
    # next to nothing unreachable. A caller in the same process is frozen only at its own exit.
    atexit.unregister(gc.freeze)  # once, however often a caller runs main
    atexit.register(gc.freeze)
    usual = gc.get_threshold()
    gc.set_threshold(HOT_GC_THRESHOLD)  # from the start: the fast path's own imports too
    try:
        from pbem.cli import fast

        parsed = fast.parse(sys.argv[1:])
        status = fast.run(*parsed) if parsed is not None else 0
    finally:  # as it was: a caller in the same process (a test, a script) keeps its own
        gc.set_threshold(*usual)
    if parsed is None:
        build_app()()
        return
    sys.exit(status)
