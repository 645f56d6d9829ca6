"""Reading what a command is given (files, standard input, key files, a report format),
free of Typer so the fast path (pbem.cli.fast) can use it."""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.errors import UsageError


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
    from pbem.views.formats import FORMATS  # start-up: not the renderer

    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}'; formats: {', '.join(FORMATS)}")
    return fmt
