"""The pbem command line: the Typer app with every command module registered."""

from __future__ import annotations

from pbem.cli.app import app
from pbem.cli.commands import board, cards, delivery, game, scenario, selfplay  # noqa: F401 - importing registers them

__all__ = ["app", "main"]


def main() -> None:
    app()
