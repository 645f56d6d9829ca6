"""A `pbem fork` killed at any moment (os._exit, as kill -9, in a real process) leaves nothing
half-written: before its commit the name is free and the next fork makes a whole sandbox;
after it the sandbox is whole, and no fork replaces it. The real game is never touched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.pbem.test_fork import cli, ok
from tests.pbem.test_fork_moderated import new_aor
from tests.reliability.test_creation import die_during_new  # a real process, killed at a link


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return new_aor(tmp_path, "atomic")


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and
            not p.name.endswith(".lock")}


@pytest.mark.parametrize(("link", "when"), [(1, "before"), (2, "before"), (1, "after")])
def test_a_fork_killed_before_its_commit_leaves_the_name_free(game: Path, link: int,
                                                              when: str) -> None:
    real = files(game.parent)
    sandbox = game.parent / "w.yaml"
    args = ["fork", str(game), "--out", str(sandbox), "--for", "ada", "--seed", "k"]
    die_during_new(args, link, when)
    assert not sandbox.exists()
    ok(*args)  # the next fork finishes what the killed one left, then makes a whole sandbox
    assert "ok: 1 log entries verified" in ok("verify", sandbox)
    assert not list(game.parent.glob(".*.tmp")) and not list(game.parent.glob(".*.creating"))
    assert {k: v for k, v in files(game.parent).items() if k in real} == real


def test_a_fork_killed_after_its_commit_leaves_a_whole_sandbox(game: Path) -> None:
    sandbox = game.parent / "w.yaml"
    args = ["fork", str(game), "--out", str(sandbox), "--for", "ada", "--seed", "k"]
    die_during_new(args, 2, "after")
    made = {name: (game.parent / name).read_bytes() for name in ("w.yaml", "w.seed")}
    code, _, err = cli(*args)
    assert code == 2 and "w.yaml already exists" in err and len(err.strip().splitlines()) == 1
    assert {name: (game.parent / name).read_bytes() for name in made} == made
    assert "ok: 1 log entries verified" in ok("verify", sandbox)
    assert not os.path.exists(game.parent / ".w.yaml.creating")
