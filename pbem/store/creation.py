"""Creating a new game's files: exclusively (two `pbem new` runs on one name cannot both win,
and neither replaces anything) and atomically (a run killed at any moment never blocks the name).

Under the game's lock, a run
1. finishes what a killed run left (a journal, `.GAME.yaml.creating`, without its game file:
   the companion it names is removed if it is the one that run wrote);
2. writes the journal, naming the companion (the seed or secrets file) and its digest;
3. writes the companion to a temporary file, fsyncs it and links it into place (a link fails
   if the name exists: it never replaces a file);
4. writes the game file the same way: its link is the commit point;
5. removes the journal. Every step fsyncs the folder.
Killed before 4, the name is free again for the next `new`; killed after, the game is whole.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

from engine.core.records import dataclass_on_first_use  # start-up: made when first built
from pbem.errors import IOFailure, UsageError
from pbem.store import files

CREATION_WAIT_SECONDS = 60.0  # the lock is held only for the writes: a second `new` waits


@dataclass_on_first_use(frozen=True)
class Companion:
    """A file created with the game, beside it (the seed or the secrets file)."""

    path: Path
    text: str


def journal_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.creating")


def refuse_existing(path: Path, companion: Companion | None) -> None:
    """The one-line refusals. Before the lock, a journal defers them: the run that takes the
    lock finishes the killed creation first, then decides."""
    if not path.name:  # '' or '/': a folder, and no name to create
        raise UsageError(f"{str(path)!r} is not a game file; give the path of a game file")
    if not path.parent.is_dir():
        raise UsageError(f"cannot create {path}: there is no folder {path.parent}")
    if journal_path(path).exists():
        return
    if path.exists() or path.is_symlink():
        raise UsageError(f"{path} already exists; choose another file name")
    if companion is not None and (companion.path.exists() or companion.path.is_symlink()):
        raise UsageError(f"{companion.path.name} already exists; remove it or choose another "
                         "game file")


def create(path: Path, text: str, companion: Companion | None = None) -> None:
    """Create the game file holding `text` (and its companion) exclusively, or change nothing."""
    refuse_existing(path, companion)
    journal = journal_path(path)
    others = [journal, *([companion.path] if companion else [])]
    with files.locked(path, CREATION_WAIT_SECONDS, companions=others):
        try:
            _create_locked(path, text, companion, journal)
        except OSError as error:
            raise IOFailure(f"cannot create {path.name}: {error.strerror or error}; nothing "
                            "was created") from None


def _create_locked(path: Path, text: str, companion: Companion | None, journal: Path) -> None:
    folder = path.resolve().parent
    finish_abandoned(path)
    refuse_existing(path, companion)
    files.write_atomic(journal, json.dumps({
        "game": path.name,
        "companion": companion.path.name if companion else None,
        "companion_sha256": _digest(companion.text) if companion else None,
    }, sort_keys=True) + "\n")
    linked: list[Path] = []
    try:
        if companion is not None:
            _link_new(companion.path, companion.text)
            linked.append(companion.path)
        _link_new(path, text)  # the commit point
    except BaseException:
        for made in linked:
            made.unlink(missing_ok=True)
        journal.unlink(missing_ok=True)
        files.fsync_folder(folder)
        raise
    journal.unlink()
    files.fsync_folder(folder)


def finish_abandoned(path: Path) -> None:
    """A journal left by a killed `new`: without its game file, remove the companion it wrote
    (only if it is byte for byte what that run wrote), then the journal. Call under the lock."""
    journal = journal_path(path)
    try:
        record = json.loads(journal.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return
    except (OSError, ValueError):
        record = {}
    if not isinstance(record, dict):
        record = {}
    name = record.get("companion")
    if not path.exists() and isinstance(name, str) and name == Path(name).name \
            and name not in ("", ".", ".."):
        companion = path.with_name(name)
        with contextlib.suppress(OSError, UnicodeDecodeError):
            if _digest(companion.read_text(encoding="utf-8")) == record.get("companion_sha256"):
                companion.unlink()
    journal.unlink(missing_ok=True)
    files.fsync_folder(path.resolve().parent)


def _link_new(target: Path, text: str) -> None:
    """Write `text` to a temporary file beside `target`, fsync it, and link it as `target`:
    the link fails if `target` exists, so nothing is ever replaced."""
    handle, temp_name = files.temp_file(target)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temp_name, target)
        except FileExistsError:
            raise UsageError(f"{target} already exists; choose another file name") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
    files.fsync_folder(target.resolve().parent)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
