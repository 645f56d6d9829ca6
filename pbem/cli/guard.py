"""The one error boundary, free of Typer, so the fast path (pbem.cli.fast) shares it.

A command's errors become one stderr line and their documented exit code; never a traceback.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import Any

from pbem.errors import ExitCode, PbemError


def echo(text: str = "", *, nl: bool = True, err: bool = False) -> None:
    """Write a line as click.echo does: the text, a newline, then a flush."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n" if nl else text)
    stream.flush()


def run(command: Callable[..., Any], *args: Any,
        passthrough: tuple[type[BaseException], ...] = (), **kwargs: Any) -> int:
    """Run `command`; return its exit code (0 when it returns)."""
    try:
        command(*args, **kwargs)
        return 0
    except passthrough:
        raise
    except PbemError as error:
        echo(f"error: {error}", err=True)
        return int(error.exit_code)
    except BrokenPipeError:  # the reader stopped early (`pbem options | head`): not a fault
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as error:
        if error.errno != errno.ENAMETOOLONG:  # found by the fuzz: only a user gives such names
            return _internal(error)
        name = str(error.filename or "")
        echo(f"error: a file name is too long for the file system: {name[:60]}...", err=True)
        return int(ExitCode.USAGE)
    except Exception as error:  # the last line of defence: a bug, reported without locals
        return _internal(error)


def _internal(error: Exception) -> int:
    if os.environ.get("PBEM_DEBUG"):
        raise error
    echo(f"error: internal error ({type(error).__name__}), a bug in pbem; `pbem status` "
         "shows where the game stands. Set PBEM_DEBUG=1 for a traceback.", err=True)
    return int(ExitCode.INTERNAL)
