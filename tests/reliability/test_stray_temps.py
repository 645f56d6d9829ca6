"""What a killed run leaves is cleared by the next run that holds the same lock (issue 20): the
temporary files of the game file and its seed or secrets file (under the game's lock), of the
post book and the mail queue (under the post book's). Only names pbem's own writer makes, only
of that game; a reader removes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.delivery import sidecar
from pbem.store import files
from tests.reliability.kit import copy_game, next_block, ok, pbem, snapshot, strays


def left_by_a_killed_writer(target: Path) -> Path:
    """A temporary file as write_atomic makes it, written halfway and never renamed."""
    handle, name = files.temp_file(target)
    with os.fdopen(handle, "w") as out:
        out.write("format: 4\ngame: {id: half")
    return Path(name)


def not_ours(folder: Path) -> set[str]:
    """Files a killed pbem run did not leave for this game: another game's temporary file,
    and names that only look like pbem's."""
    other = left_by_a_killed_writer(folder / "other.yaml")
    names = {other.name, ".lisbon.yaml.backup.tmp", "lisbon.yaml.abcdefgh.tmp",
             ".lisbon.yaml.abcdefgh.tmp.keep", ".lisbon.yaml.ABCDEFGH.tmp"}
    for name in names - {other.name}:
        (folder / name).write_text("the host's\n")
    return names


def test_the_next_apply_clears_the_games_temporary_files_and_nothing_else(
        tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    block = next_block(game)
    ours = [left_by_a_killed_writer(game), left_by_a_killed_writer(game.with_suffix(".seed"))]
    kept = not_ours(tmp_path)
    before = snapshot(tmp_path)
    for reader in (["status", str(game)], ["report", str(game)], ["deadlines", str(game)],
                   ["verify", str(game), "--secrets", str(game.with_suffix(".seed"))]):
        assert pbem(*reader).exit_code == 0, reader
    assert snapshot(tmp_path) == before  # reading takes no lock and removes nothing
    ok("apply", str(game), str(block))
    assert not any(path.exists() for path in ours)
    assert kept <= set(os.listdir(tmp_path))
    assert strays(tmp_path) == sorted(name for name in kept if name.endswith(".tmp")
                                      and name.startswith("."))


def test_a_failing_command_under_the_lock_still_clears_them(tmp_path: Path) -> None:
    """A stale block exits 4 and changes nothing of the game, but what a killed run left of
    it is gone: it was never part of the game."""
    game = copy_game("pax", tmp_path)
    block = next_block(game)
    ok("apply", str(game), str(block))
    left = left_by_a_killed_writer(game)
    game_bytes = game.read_bytes()
    assert pbem("apply", str(game), str(block)).exit_code == 4
    assert not left.exists() and game.read_bytes() == game_bytes


def test_a_mail_run_clears_the_post_books_and_the_queues(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    queue = sidecar.queue_dir(game)
    queue.mkdir()
    ours = [left_by_a_killed_writer(sidecar.book_path(game)),
            left_by_a_killed_writer(queue / "000001-1-ab.eml")]
    ok("deadlines", str(game), "--set", "default=1h", "--key", str(tmp_path / "max.key"))
    ok("timeout", str(game), "--now", "2027-03-01T00:00:00Z")  # holds the post book's lock
    assert not any(path.exists() for path in ours)
    assert strays(tmp_path) == []


def test_a_temporary_file_is_new_private_and_named_as_stale_temps_finds_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pbem makes its temporary files as tempfile.mkstemp would, without importing tempfile
    (start-up): never an existing name, readable by its owner only."""
    game = tmp_path / "lisbon.yaml"
    first = left_by_a_killed_writer(game)
    assert first.stat().st_mode & 0o777 == 0o600
    assert files.stale_temps(game) == [first]
    same = first.name.split(".")[-2].encode()  # the first tries draw the name already taken
    draws = iter([bytes(files._TEMP_LETTERS.index(chr(c)) for c in same)] * 3)
    monkeypatch.setattr(os, "urandom", lambda n: next(draws, b"\x00" * n))
    handle, name = files.temp_file(game)
    os.close(handle)
    assert Path(name) != first and first.read_text() == "format: 4\ngame: {id: half"
    assert sorted(files.stale_temps(game)) == sorted([first, Path(name)])
