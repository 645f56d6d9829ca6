"""A disk that fails: every file pbem writes goes through `os.fdopen`; this one makes the Nth
write fail (half written, then ENOSPC or EFBIG), as a full disk or a file-size limit does."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


class FaultyFile:
    """A file whose write() may fail after writing half its data."""

    def __init__(self, real: Any, disk: FaultyDisk) -> None:
        self._real, self._disk = real, disk

    def write(self, data: Any) -> int:
        self._disk.writes += 1
        if self._disk.writes == self._disk.fail_at:
            self._real.write(data[: len(data) // 2])
            self._real.flush()
            raise OSError(self._disk.code, os.strerror(self._disk.code))
        return int(self._real.write(data))

    def __enter__(self) -> FaultyFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class FaultyDisk:
    def __init__(self, fail_at: int = 0, code: int = errno.ENOSPC) -> None:
        self.fail_at, self.code, self.writes = fail_at, code, 0
        self.kinds: list[str] = []  # what each file opened for writing is, in order

    def chosen(self) -> list[int]:
        """The first write of each kind of file, and the last write (1-based): the fast
        profile."""
        firsts = {kind: n for n, kind in reversed(list(enumerate(self.kinds, start=1)))}
        return sorted({*firsts.values(), len(self.kinds)} - {0})


def kind_of(fd: int) -> str:
    """'game.yaml', 'game.post.json', 'queue', 'outbox'... from the temp file's name."""
    path = Path(os.readlink(f"/proc/self/fd/{fd}"))
    if path.parent.suffix == ".queue" or path.parent.name == "out":
        return path.parent.suffix or path.parent.name
    return ".".join(path.name.lstrip(".").split(".")[:-2]) or path.name


@contextlib.contextmanager
def faulty_disk(monkeypatch: pytest.MonkeyPatch, fail_at: int = 0,
                code: int = errno.ENOSPC) -> Iterator[FaultyDisk]:
    """Count the writes (fail_at=0), or fail the `fail_at`th one with `code`."""
    disk, real = FaultyDisk(fail_at, code), os.fdopen

    def fdopen(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "w" not in mode:
            return real(fd, mode, *args, **kwargs)
        disk.kinds.append(kind_of(fd))
        return FaultyFile(real(fd, mode, *args, **kwargs), disk)

    with monkeypatch.context() as patched:
        patched.setattr(os, "fdopen", fdopen)
        yield disk
