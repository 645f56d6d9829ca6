"""Compiled templates kept between runs (pbem.views.template_cache): a report is the same byte
for byte with the cache, without it, and with a damaged or unusable one (issue 17)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.reliability.kit import copy_game


def report(game: Path, cache: Path, fmt: str) -> bytes:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-m", "pbem", "report", str(game), "--format", fmt],
                          capture_output=True, env=env)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return done.stdout


def cached_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("pbem/templates/*/*.cache"))


def test_a_report_is_the_same_with_and_without_its_compiled_templates(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path / "game")
    cache = tmp_path / "cache"
    first = {fmt: report(game, cache, fmt) for fmt in ("text", "html")}
    folders = {path.parent for path in cached_files(cache)}
    assert len(folders) == 2  # text and HTML compile the same macros differently: never shared
    for fmt, text in first.items():
        assert report(game, cache, fmt) == text
    for path in cached_files(cache):  # a damaged cache is compiled afresh
        path.write_bytes(path.read_bytes()[:40])
    assert {fmt: report(game, cache, fmt) for fmt in first} == first


def test_an_unusable_cache_folder_changes_nothing(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path / "game")
    reference = report(game, tmp_path / "fresh", "text")
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("")
    assert report(game, a_file, "text") == reference
    shared = tmp_path / "shared"
    (shared / "pbem" / "templates").mkdir(parents=True)
    os.chmod(shared / "pbem" / "templates", 0o777)
    for folder in (shared / "pbem" / "templates").iterdir():
        folder.rmdir()
    report(game, shared, "text")
    written = cached_files(shared)
    # a folder others may write in is made private by its creator or not used at all
    assert all(not path.parent.stat().st_mode & 0o022 for path in written)
