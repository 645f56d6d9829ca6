"""Files that must never be torn: the atomic write every pbem file goes through, and the lock
that keeps two runs from changing a game at once."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import time
from collections.abc import Iterable, Iterator
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


# What tempfile.mkstemp does, without importing tempfile (with shutil, bz2, lzma and random,
# about 4 ms of every writing command's start-up: bench/README.md): a new file, never an
# existing name or a link followed, readable by its owner only, named from mkstemp's alphabet.
_TEMP_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_TEMP_FLAGS = (os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0))
_TEMP_TRIES = 100  # names taken one after another: 37**8 names make a clash all but impossible


def temp_file(path: Path) -> tuple[int, str]:
    """A new temporary file beside `path`, named as stale_temps finds it: .NAME.<8 random characters>.tmp."""
    directory = path.resolve().parent
    for _ in range(_TEMP_TRIES):
        tail = "".join(_TEMP_LETTERS[byte % len(_TEMP_LETTERS)] for byte in os.urandom(8))
        name = os.path.join(directory, f".{path.name}.{tail}.tmp")
        try:
            return os.open(name, _TEMP_FLAGS, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(directory))


# mkstemp's names: the prefix, 8 characters of its alphabet, the suffix
_TEMP_TAIL = re.compile(r"\.[a-z0-9_]{8}\.tmp")
_ANY_TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")


def stale_temps(path: Path) -> list[Path]:
    """The temporary files of `path` that a killed writer left (only names write_atomic makes
    for this very file, never another file's)."""
    prefix = f".{path.name}"
    try:
        names = os.listdir(path.resolve().parent)
    except OSError:
        return []
    return [path.with_name(name) for name in sorted(names)
            if name.startswith(prefix) and _TEMP_TAIL.fullmatch(name[len(prefix):])]


def remove_stale_temps(paths: Iterable[Path]) -> None:
    """Remove what killed writers of `paths` left. Only a run holding the lock every writer of
    those files holds may call this: a live writer's temporary file is never stale then."""
    for path in paths:
        for stale in stale_temps(path):
            with contextlib.suppress(OSError):  # gone already, or not ours to remove: harmless
                stale.unlink()


def remove_stale_temps_in(folder: Path) -> None:
    """Every temporary file write_atomic left in a folder that is all one game's (its mail
    queue); the same rule as remove_stale_temps."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if _ANY_TEMP.fullmatch(name):
            with contextlib.suppress(OSError):
                (folder / name).unlink()


def fsync_folder(directory: Path) -> None:
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _write_atomic(path: Path, directory: Path, text: str) -> None:
    handle, temp_name = temp_file(path)
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
    fsync_folder(directory)


def named(game: Path) -> Path:
    """`game`, which files beside it are named after (GAME.yaml.lock, GAME.queue ...); '' or
    '/' is a folder, and has no name to put a file beside."""
    if not game.name:
        raise UsageError(f"{str(game)!r} is not a game file; give the path of a game file")
    return game


@contextlib.contextmanager
def locked(path: Path, wait_seconds: float = 10.0, *,
           companions: Iterable[Path] = ()) -> Iterator[None]:
    """Hold GAME.yaml.lock; another run waits up to `wait_seconds`, then exits busy. Once it
    is held, the temporary files a killed run left of `path` and of `companions` (files
    written only under this lock) are removed."""
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
        remove_stale_temps([path, *companions])
        yield
    finally:
        os.close(fd)
