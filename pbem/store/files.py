"""Files that must never be torn: the atomic write every pbem file goes through, and the lock
that keeps two runs from changing a game at once."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from pbem.errors import BusyError, IOFailure, UsageError


def write_atomic(path: Path, text: str) -> None:
    """Temp file beside the target, fsync, rename over it, fsync the directory."""
    directory = path.resolve().parent
    try:
        _write_atomic(path, directory, text)
    except OSError as error:
        raise IOFailure(f"cannot write {path.name}: {error.strerror or error}; it is as it "
                        "was before this command") from None


def _write_atomic(path: Path, directory: Path, text: str) -> None:
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def named(game: Path) -> Path:
    """`game`, which files beside it are named after (GAME.yaml.lock, GAME.queue ...); '' or
    '/' is a folder, and has no name to put a file beside."""
    if not game.name:
        raise UsageError(f"{str(game)!r} is not a game file; give the path of a game file")
    return game


@contextlib.contextmanager
def locked(path: Path, wait_seconds: float = 10.0) -> Iterator[None]:
    """Hold GAME.yaml.lock; another run waits up to `wait_seconds`, then exits busy."""
    lock_path = path.with_name(named(path).name + ".lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise IOFailure(f"cannot lock {path.name} ({lock_path.name}): "
                        f"{error.strerror or error}") from None
    try:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() >= deadline:
                    raise BusyError(f"{path.name} is busy: another pbem run holds "
                                    f"{lock_path.name}; try again") from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)
