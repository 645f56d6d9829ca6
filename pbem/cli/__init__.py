"""The pbem command line: the Typer app (built on first use) with every command module, and
`main`, which runs the most frequent command lines through the fast path (pbem.cli.fast)."""

from __future__ import annotations

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
    from pbem.cli import fast

    parsed = fast.parse(sys.argv[1:])
    if parsed is not None:
        usual = gc.get_threshold()
        gc.set_threshold(HOT_GC_THRESHOLD)
        try:
            status = fast.run(*parsed)
        finally:  # as it was: a caller in the same process (a test, a script) keeps its own
            gc.set_threshold(*usual)
        sys.exit(status)
    build_app()()
