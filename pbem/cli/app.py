"""The Typer app, the one error boundary, and small helpers shared by the command modules."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from pbem.errors import ExitCode, PbemError, UsageError

app = typer.Typer(
    help="Play-by-email adjudicator for Pax Renaissance and Age of Renaissance: signed orders "
         "in, reports out.",
    no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
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
        try:
            return command(*args, **kwargs)
        except PbemError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(int(error.exit_code)) from None
        except (typer.Exit, typer.Abort):
            raise
        except BrokenPipeError:  # the reader stopped early (`pbem options | head`): not a fault
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(0) from None
        except Exception as error:  # the last line of defence: a bug, reported without locals
            if os.environ.get("PBEM_DEBUG"):
                raise
            typer.echo(f"error: internal error ({type(error).__name__}), a bug in pbem; "
                       "`pbem status` shows where the game stands. Set PBEM_DEBUG=1 for a "
                       "traceback.", err=True)
            raise typer.Exit(int(ExitCode.INTERNAL)) from None

    return wrapper  # type: ignore[return-value]


def read_input(source: str) -> str:
    if source == "-":  # bytes, so a stray non-UTF-8 byte is replaced, as in a file
        return sys.stdin.buffer.read().decode("utf-8", errors="replace")
    try:
        return Path(source).read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise UsageError(f"cannot read {source}: {error.strerror}") from None


def read_key_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise UsageError(f"cannot read key file {path}: {error.strerror}") from None


def check_format(fmt: str) -> str:
    from pbem.views.report import FORMATS  # jinja2 loads only for commands that render

    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}'; formats: {', '.join(FORMATS)}")
    return fmt


