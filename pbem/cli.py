"""The pbem command line: the Typer app with every command module registered."""

from __future__ import annotations

from pbem.app import app
from pbem.commands import game, selfplay  # noqa: F401 - importing registers the commands

__all__ = ["app", "main"]


def main() -> None:
    app()
