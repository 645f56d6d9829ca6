"""The Typer app, the one error boundary, and small helpers shared by the command modules."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

import pbem.cli.guard as guard  # the module: the package pbem.cli builds this app
from pbem.cli.inputs import check_format, read_input, read_key_file

__all__ = ["GameArg", "app", "boundary", "check_format", "read_input", "read_key_file"]

app = typer.Typer(
    help="Play-by-email adjudicator for Pax Renaissance and Age of Renaissance: signed orders "
         "in, reports out.",
    no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
    rich_markup_mode=None,  # start-up: plain help and errors, without importing rich
)
F = TypeVar("F", bound=Callable[..., Any])


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version  # start-up: --version only

        try:
            typer.echo(f"pbem {version('pbem')}")
        except PackageNotFoundError:
            typer.echo("pbem (not installed as a package)")
        raise typer.Exit(0)


@app.callback()
def _options(
    show_version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print pbem's version.")] = False,
) -> None:
    """Play-by-email adjudicator: signed orders in, reports out."""

GameArg = Annotated[Path, typer.Argument(help="The game file (YAML).")]


def boundary(command: F) -> F:
    """Turn pbem errors into one stderr line and their exit code; never show a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        code = guard.run(command, *args, passthrough=(typer.Exit, typer.Abort), **kwargs)
        if code:
            raise typer.Exit(code)

    return wrapper  # type: ignore[return-value]


