"""Git play (issue 7): `apply --commit` in a real repository, the allowed_signers file checked
with stock ssh-keygen, and the documented example (games/examples/git-play) end to end."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem import api
from pbem.cli import app
from pbem.delivery import gitplay
from pbem.orders.orderblock import find_blocks
from pbem.orders.signatures import load_private_key, sshsig_armor
from pbem.resources import games_dir
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import acting, block_for, first_move, key_of, make_game

runner = CliRunner()
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
EXAMPLE = games_dir() / "examples" / "git-play"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout


def init_repo(repo: Path) -> None:
    git(repo, "init", "--quiet", "--initial-branch=main")
    git(repo, "config", "user.name", "Moderator")
    git(repo, "config", "user.email", "max@example.org")
    git(repo, "config", "commit.gpgsign", "false")


@pytest.fixture
def repo_game(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    init_repo(repo)
    game = make_game(repo)
    (repo / ".gitignore").write_text("*.seed\n*.lock\n*.key\n")
    git(repo, "add", "lisbon.yaml", ".gitignore")
    git(repo, "commit", "--quiet", "-m", "lisbon: setup")
    return game


@needs_git
def test_apply_commit_commits_the_game_file_with_the_turn_summary(repo_game: Path) -> None:
    repo = repo_game.parent
    mover = acting(repo_game)
    block = repo / "orders.txt"
    block.write_text(block_for(repo_game, first_move(repo_game)))
    (repo / "notes.txt").write_text("unrelated work in progress\n")
    git(repo, "add", "notes.txt")
    result = runner.invoke(app, ["apply", str(repo_game), str(block), "--commit"])
    assert result.exit_code == 0, result.stderr
    head = git(repo, "rev-parse", "--short", "HEAD").strip()
    assert f"committed {head}" in result.stdout
    message = git(repo, "log", "-1", "--format=%B")
    assert message.startswith(f"lisbon seq 1: {mover}\n\n- ")
    assert "buys" in message and f"Waiting for {acting(repo_game)} to choose an action" in message
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["lisbon.yaml"]
    status = git(repo, "status", "--porcelain")
    assert "lisbon.yaml" not in status and "A  notes.txt" in status  # staged work left alone
    assert git(repo, "show", "HEAD:lisbon.yaml") == repo_game.read_text()


@needs_git
def test_commit_needs_a_repository_and_then_changes_nothing(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    block = tmp_path / "orders.txt"
    block.write_text(block_for(game, first_move(game)))
    before = game.read_bytes()
    result = runner.invoke(app, ["apply", str(game), str(block), "--commit"])
    assert result.exit_code == 2 and "is not inside a git repository" in result.stderr
    assert game.read_bytes() == before


@needs_git
def test_commit_without_a_configured_identity(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "bare-identity"
    repo.mkdir()
    git(repo, "init", "--quiet")
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"):
        monkeypatch.setenv(name, os.devnull)
    monkeypatch.setenv("HOME", str(tmp_path))
    game = make_game(repo)
    gf = gamefile.load(game)
    head = gitplay.commit_game(game, gitplay.commit_message(gf, ["setup"]))
    assert head and git(repo, "log", "-1", "--format=%an <%ae>").strip() == \
        "pbem <pbem@localhost>"


def test_allowed_signers_lists_every_key_in_openssh_form(repo_game: Path) -> None:
    result = runner.invoke(app, ["roster", str(repo_game), "--allowed-signers"])
    assert result.exit_code == 0
    lines = [x for x in result.stdout.splitlines() if not x.startswith("#")]
    gf = gamefile.load(repo_game)
    assert len(lines) == 4  # three players and the moderator
    for line, entry in zip(lines, gf.roster["players"], strict=False):
        principals, options, kind, key = line.split(" ")
        assert principals == f"{entry['email']},{entry['id']}"
        assert options == 'namespaces="pbem,git"' and kind == "ssh-ed25519"
        assert key.startswith("AAAAC3NzaC1lZDI1NTE5AAAAI")
    assert lines[-1].startswith("max@example.org,moderator ")


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen is not installed")
def test_stock_ssh_keygen_verifies_an_ssh_signed_block(repo_game: Path, tmp_path: Path) -> None:
    mover = acting(repo_game)
    text = block_for(repo_game, first_move(repo_game), ssh=True)
    block = find_blocks(text)[0]
    signers = tmp_path / "allowed_signers"
    signers.write_text(gitplay.allowed_signers(gamefile.load(repo_game)))
    signature = tmp_path / "block.sig"
    assert block.signature is not None
    signature.write_text(block.signature + "\n")
    email = gamefile.load(repo_game).roster_entry(mover)["email"]  # type: ignore[index]
    for principal in (email, mover):
        done = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(signers), "-I", principal,
                               "-n", "pbem", "-s", str(signature)], input=block.payload(),
                              capture_output=True, check=False)
        assert done.returncode == 0, done.stderr
    forged = sshsig_armor(load_private_key(key_of(repo_game, mover)), b"something else")
    signature.write_text(forged + "\n")
    done = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(signers), "-I", email, "-n",
                           "pbem", "-s", str(signature)], input=block.payload(),
                          capture_output=True, check=False)
    assert done.returncode != 0


@needs_git
def test_the_documented_example_repository(tmp_path: Path) -> None:
    """Players push order files in any order; the example's script applies and files them."""
    repo = tmp_path / "play"
    shutil.copytree(EXAMPLE, repo)
    init_repo(repo)
    game = make_game(repo)
    assert (repo / ".github" / "workflows" / "pbem.yml").exists()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (repo / ".git" / "info" / "exclude").write_text("*.key\n*.pub\n")
    for path in repo.iterdir():
        if path.suffix in (".yaml", ".seed", ".key"):
            shutil.copy(path, scratch / path.name)
    first = block_for(game, first_move(game))
    assert api.apply_block(scratch / "lisbon.yaml", first).gf.seq == 1
    second = block_for(scratch / "lisbon.yaml", first_move(scratch / "lisbon.yaml"))
    stale = block_for(game, ["end"] if "end" in first_move(game) else first_move(game))
    (repo / "orders" / "a-second.txt").write_text(second)
    (repo / "orders" / "b-first.txt").write_text(first)
    (repo / "orders" / "c-tampered.txt").write_text(first.replace("game: lisbon", "game: porto"))
    (repo / "orders" / "d-stale.txt").write_text(stale)
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", "setup and pushed orders")
    env = {**os.environ, "PBEM": f"{sys.executable} -m pbem"}
    done = subprocess.run(["bash", "apply-orders.sh", "lisbon.yaml"], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert gamefile.load(game).seq == 2
    assert sorted(p.name for p in (repo / "orders" / "applied").iterdir()) == \
        ["a-second.txt", "b-first.txt"]
    rejected = sorted(p.name for p in (repo / "orders" / "rejected").iterdir())
    assert rejected == ["c-tampered.txt", "c-tampered.txt.error", "d-stale.txt",
                        "d-stale.txt.error"]
    assert "stale block" in (repo / "orders" / "rejected" / "d-stale.txt.error").read_text()
    log = git(repo, "log", "--format=%s").splitlines()
    assert log[:3] == ["orders: file the processed order files", "lisbon seq 2: " +
                       gamefile.load(game).log[2]["player"],
                       "lisbon seq 1: " + gamefile.load(game).log[1]["player"]]
    assert git(repo, "status", "--porcelain") == ""
    result = runner.invoke(app, ["verify", str(game)])
    assert result.exit_code == 0
