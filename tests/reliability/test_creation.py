"""`pbem new` killed at any moment never blocks the name, and creation is exclusive (issue 20):
a real `pbem new` process dies (os._exit, as kill -9) at each step of creation, then `new`
runs again; two `new` runs on one name are interleaved by force."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.store import creation, gamefile, seeds
from tests.reliability.kit import (
    copy_game,
    pbem,
    snapshot,
    strays,
    verified,
    wait_until_it_tries_the_lock,
)

PBEM = str(Path(sys.executable).with_name("pbem"))
# A `pbem new` that dies at its Nth link (before linking, or just after): the leftovers of a
# kill at that moment, made by the real code.
DYING_NEW = """
import os, sys
calls, (die_at, when) = [0], (int(sys.argv[1]), sys.argv[2])
real_link = os.link
def link(source, target, **kwargs):
    calls[0] += 1
    if calls[0] == die_at and when == "before":
        os._exit(137)
    real_link(source, target, **kwargs)
    if calls[0] == die_at:
        os._exit(137)
os.link = link
sys.argv = ["pbem", *sys.argv[3:]]
from pbem.cli import app
app()
"""


def new_command(folder: Path, target: Path, seed: str = "one", *, moderated: bool = True
                ) -> list[str]:
    return ["new", str(target), *[a for n in ("ada", "ben", "cy") for a in
                                  ("--player", str(folder / f"{n}.pub"))],
            *(["--moderator", str(folder / "max.pub")] if moderated else ["--open"]),
            "--seed", seed]


def die_during_new(command: list[str], link: int, when: str) -> None:
    run = subprocess.run([sys.executable, "-c", DYING_NEW, str(link), when, *command],
                         capture_output=True, check=False)
    assert run.returncode == 137, run.stderr.decode()


@pytest.mark.parametrize(("link", "when", "left"), [
    (1, "before", {".fresh.yaml.creating"}),  # the journal and a written, unlinked seed
    (2, "before", {".fresh.yaml.creating", "fresh.seed"}),  # the seed in place, no game
])
def test_a_new_killed_before_its_commit_leaves_the_name_free(
        tmp_path: Path, link: int, when: str, left: set[str]) -> None:
    copy_game("pax", tmp_path)
    target = tmp_path / "fresh.yaml"
    die_during_new(new_command(tmp_path, target, "killed"), link, when)
    assert not target.exists()
    assert left <= set(os.listdir(tmp_path)) and strays(tmp_path)  # a real kill's leftovers
    result = pbem(*new_command(tmp_path, target, "again"))
    assert result.exit_code == 0, result.stderr
    assert verified(target) and strays(tmp_path) == []
    assert not creation.journal_path(target).exists()
    gf = gamefile.load(target)  # the seed beside it is this run's, not the killed run's
    assert gf.randomness["commitment"] == seeds.commitment(seeds.make_seed("again"))


def test_an_open_game_killed_before_its_commit_leaves_the_name_free(tmp_path: Path) -> None:
    copy_game("pax", tmp_path)
    target = tmp_path / "fresh.yaml"
    die_during_new(new_command(tmp_path, target, moderated=False), 1, "before")
    assert not target.exists() and strays(tmp_path)
    assert pbem(*new_command(tmp_path, target, moderated=False)).exit_code == 0
    assert pbem("verify", str(target)).exit_code == 0 and strays(tmp_path) == []


def test_a_new_killed_after_its_commit_leaves_a_whole_game_that_new_never_replaces(
        tmp_path: Path) -> None:
    copy_game("pax", tmp_path)
    target = tmp_path / "fresh.yaml"
    die_during_new(new_command(tmp_path, target, "first"), 2, "after")
    assert creation.journal_path(target).exists()  # killed before removing its journal
    made = {name: (tmp_path / name).read_bytes() for name in ("fresh.yaml", "fresh.seed")}
    result = pbem(*new_command(tmp_path, target, "second"))
    assert result.exit_code == 2 and "fresh.yaml already exists" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert {name: (tmp_path / name).read_bytes() for name in made} == made
    assert verified(target) and not creation.journal_path(target).exists()


def test_a_seed_file_that_no_killed_new_wrote_is_never_removed(tmp_path: Path) -> None:
    """Without a journal, or with one naming other bytes, a seed file is the host's."""
    copy_game("pax", tmp_path)
    target = tmp_path / "fresh.yaml"
    (tmp_path / "fresh.seed").write_text("the host's own\n")
    before = snapshot(tmp_path)
    result = pbem(*new_command(tmp_path, target))
    assert result.exit_code == 2 and "fresh.seed already exists" in result.stderr
    assert snapshot(tmp_path) == before
    die_during_new(new_command(tmp_path, tmp_path / "other.yaml"), 2, "before")
    os.replace(tmp_path / "other.seed", tmp_path / "kept")
    (tmp_path / "other.seed").write_text("written since by the host\n")  # not the run's bytes
    result = pbem(*new_command(tmp_path, tmp_path / "other.yaml"))
    assert result.exit_code == 2 and "other.seed already exists" in result.stderr
    assert (tmp_path / "other.seed").read_text() == "written since by the host\n"


def test_two_new_runs_forced_to_meet_one_wins_and_nothing_of_it_is_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first run holds the point just before its commit; the second starts then, waits
    for the lock, finds the name taken and exits 2 with one line; the winner's files stay."""
    copy_game("pax", tmp_path)
    target = tmp_path / "race.yaml"
    second: list[subprocess.Popen[bytes]] = []
    real_link = os.link

    def link_slowly(source: str, destination: Path) -> None:
        if str(destination) == str(target) and not second:
            second.append(subprocess.Popen([PBEM, *new_command(tmp_path, target, "two")],
                                           stderr=subprocess.PIPE))
            wait_until_it_tries_the_lock(second[0], tmp_path)  # it starts up and reaches it
            assert second[0].poll() is None, "the second new did not wait for the lock"
        real_link(source, destination)

    monkeypatch.setattr(creation.os, "link", link_slowly)
    assert pbem(*new_command(tmp_path, target, "one")).exit_code == 0
    won = {name: (tmp_path / name).read_bytes() for name in ("race.yaml", "race.seed")}
    _, err = second[0].communicate(timeout=120)
    assert second[0].returncode == 2, err
    assert err.decode().strip().splitlines() == [f"error: {target} already exists; choose "
                                                 "another file name"]
    assert {name: (tmp_path / name).read_bytes() for name in won} == won
    assert gamefile.load(target).randomness["commitment"] == \
        seeds.commitment(seeds.make_seed("one"))
    assert verified(target) and strays(tmp_path) == []


def test_the_link_never_replaces_a_file_that_appears_after_the_checks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Something else creates the name between the checks and the commit: the link fails, the
    file stays as it is, and this run's seed file is taken back."""
    copy_game("pax", tmp_path)
    target = tmp_path / "late.yaml"
    real_link = os.link

    def someone_else_first(source: str, destination: Path) -> None:
        if str(destination) == str(target):
            target.write_text("someone else's\n")
        real_link(source, destination)

    monkeypatch.setattr(creation.os, "link", someone_else_first)
    result = pbem(*new_command(tmp_path, target))
    assert result.exit_code == 2 and "late.yaml already exists" in result.stderr
    assert target.read_text() == "someone else's\n"
    assert not (tmp_path / "late.seed").exists() and strays(tmp_path) == []
    assert not creation.journal_path(target).exists()


def test_a_new_in_a_folder_that_does_not_exist_is_one_line_and_creates_nothing(
        tmp_path: Path) -> None:
    copy_game("pax", tmp_path)
    before = snapshot(tmp_path)
    result = pbem(*new_command(tmp_path, tmp_path / "none" / "fresh.yaml"))
    assert result.exit_code == 2 and "there is no folder" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and snapshot(tmp_path) == before
