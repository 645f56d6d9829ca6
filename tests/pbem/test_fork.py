"""`pbem fork` (issue 24 §5), through the CLI: a what-if sandbox is a new game marked as a
sandbox, with a fresh seed, that plays with apply, options and report, verifies, and is never
mailed or posted as the real game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.pipeline.fork import fork_seed
from pbem.store import gamefile, seeds
from tests import fast_yaml

runner = CliRunner()
NAMES = ("ada", "ben", "cy")


def cli(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str | Path) -> str:
    code, out, err = cli(*args)
    assert code == 0, f"pbem {' '.join(map(str, args))}: {err}"
    return out


def keys(folder: Path) -> None:
    for name in (*NAMES, "max"):
        ok("keygen", name, "--email", f"{name}@example.org", "--dir", folder)


def players(folder: Path) -> list[str]:
    return [a for n in NAMES for a in ("--player", str(folder / f"{n}.pub"))]


def play(game: Path, moves: int, key: Path | None = None) -> None:
    """`moves` blocks, each the first legal line of the first seat owed (signed with `key`, or
    the seat's own key)."""
    for _ in range(moves):
        owed = json.loads(ok("status", game, "--json"))["waiting_for"]
        player = owed[0]
        line = json.loads(ok("options", game, "--json", "--for", player))["lines"][0]
        orders = game.parent / "orders.txt"
        orders.write_text(f"player: {player}\n{line}\n")
        signed = game.parent / "block.txt"
        own = game.parent / f"{gamefile.load(game).roster_entry(player)['name']}.key"  # type: ignore[index]
        signed.write_text(ok("sign", orders, "--key", key or own, "--game", game))
        ok("apply", game, signed)


def seat(game: Path, name: str) -> str:
    """The seat id of the player whose key is NAME.pub."""
    return next(str(p["id"]) for p in gamefile.load(game).roster["players"] if p["name"] == name)


@pytest.fixture(scope="module")
def pax_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An open Pax Renaissance game after three blocks, made once per module."""
    folder = tmp_path_factory.mktemp("pax")
    keys(folder)
    game = folder / "g.yaml"
    ok("new", game, *players(folder), "--open", "--seed", "real")
    play(game, 3)
    return folder


@pytest.fixture
def pax(pax_made: Path, tmp_path: Path) -> Path:
    shutil.copytree(pax_made, tmp_path, dirs_exist_ok=True)
    return tmp_path / "g.yaml"


def test_a_sandbox_is_a_new_marked_game_that_plays_and_verifies(pax: Path) -> None:
    real = pax.read_bytes()
    sandbox = pax.parent / "what-if.yaml"
    out = ok("fork", pax, "--at", "2", "--out", sandbox, "--for", seat(pax, "ada"), "--seed", "t")
    assert "sandbox what-if of game g at seq 2" in out
    data = fast_yaml.safe_load(sandbox.read_text())
    assert data["game"]["id"] == "what-if"
    assert {k: data["game"]["sandbox"][k] for k in ("of", "at", "for")} == \
        {"of": "g", "at": 2, "for": seat(pax, "ada")}
    # a fresh seed: never the real game's, even from the real game's seed text
    assert data["randomness"]["seed"] == fork_seed("t").hex()
    assert fork_seed("real") != seeds.make_seed("real")
    assert data["seq"] == 0
    assert f"sandbox: a what-if copy of game g at seq 2, as {seat(pax, 'ada')} sees it" in \
        ok("status", sandbox)
    assert json.loads(ok("status", sandbox, "--json"))["sandbox"] == \
        {"of": "g", "at": 2, "for": seat(pax, "ada")}
    # every seat signs with the forker's key (ada's)
    play(sandbox, 4, key=pax.parent / "ada.key")
    assert "5 log entries verified" in ok("verify", sandbox)
    assert "This is a sandbox: a what-if copy of game g at seq 2" in \
        ok("report", sandbox, "--for", seat(pax, "ben"))
    assert pax.read_bytes() == real


def test_the_sandbox_begins_at_the_real_position(pax: Path) -> None:
    """The start is the real game's state at --at (its hash is the one the real log recorded
    there), whatever the sandbox's seed."""
    ok("fork", pax, "--at", "1", "--out", pax.parent / "a.yaml", "--for", seat(pax, "ada"), "--seed", "1")
    ok("fork", pax, "--at", "1", "--out", pax.parent / "b.yaml", "--for", seat(pax, "ada"), "--seed", "2")
    a, b = (fast_yaml.safe_load((pax.parent / n).read_text()) for n in ("a.yaml", "b.yaml"))
    start = a["game"]["sandbox"]["start"]["state"]
    assert start == b["game"]["sandbox"]["start"]["state"] == a["state"]
    entry = gamefile.load(pax).log[1]
    assert entry["seq"] == 1
    header = gamefile.load(pax).game  # no settings changed since seq 1: the same header
    assert gamefile.state_hash(header, 1, start,
                               a["game"]["sandbox"]["start"]["agenda"]) == entry["post_state"]


def test_verify_catches_an_edited_sandbox(pax: Path) -> None:
    sandbox = pax.parent / "w.yaml"
    ok("fork", pax, "--out", sandbox, "--for", seat(pax, "ada"), "--seed", "t")
    text = sandbox.read_text()
    for old, new in (("of: g\n", "of: h\n"), ("at: 3\n", "at: 2\n")):
        assert old in text
        sandbox.write_text(text.replace(old, new, 1))
        code, _, err = cli("verify", sandbox)
        assert code == 5 and len(err.strip().splitlines()) == 1, err
    data = fast_yaml.safe_load(text)  # the start it replays from, edited
    data["game"]["sandbox"]["start"]["state"]["seed_used"] = True
    sandbox.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = cli("verify", sandbox)
    assert code == 5 and err.startswith("error: ") and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["send", "post", "inbox", "remind", "digest", "timeout"])
def test_a_sandbox_is_never_mailed_or_posted(pax: Path, command: str) -> None:
    sandbox = pax.parent / "w.yaml"
    ok("fork", pax, "--out", sandbox, "--for", seat(pax, "ada"), "--seed", "t")
    before = {p.name: p.read_bytes() for p in pax.parent.iterdir() if p.is_file()}
    extra = ["--outbox", pax.parent / "out"] if command != "post" else []
    if command == "inbox":
        extra += ["--mbox", pax.parent / "none.mbox"]
    if command == "timeout":
        extra += ["--mail", "--force"]
    code, out, err = cli(command, sandbox, *extra)
    assert code == 2 and out == ""
    said = "timeout --mail" if command == "timeout" else command
    assert err.strip().splitlines() == [
        f"error: w is a sandbox (a what-if copy of game g at seq 3): {said} refuses it, so "
        "it is never mailed as the real game; play it with apply, options and report"]
    assert {p.name: p.read_bytes() for p in pax.parent.iterdir() if p.is_file()} == before
    assert not (pax.parent / "out").exists()


def test_a_fork_never_replaces_a_file_and_needs_an_id_of_its_own(pax: Path) -> None:
    taken = pax.parent / "taken.yaml"
    taken.write_text("mine\n")
    code, _, err = cli("fork", pax, "--out", taken, "--for", seat(pax, "ada"))
    assert code == 2 and "already exists" in err and taken.read_text() == "mine\n"
    code, _, err = cli("fork", pax, "--out", pax.parent / "x.yaml", "--id", "g", "--for", seat(pax, "ada"))
    assert code == 2 and "an id of its own" in err and not (pax.parent / "x.yaml").exists()
    code, _, err = cli("fork", pax, "--out", pax.parent / "x.yaml")
    assert code == 2 and "--for SEAT" in err  # an open game without a moderator: whose?
    code, _, err = cli("fork", pax, "--out", pax.parent / "x.yaml", "--for", "zed")
    assert code == 2 and "unknown player 'zed'" in err
    code, _, err = cli("fork", pax, "--out", pax.parent / "x.yaml", "--for", seat(pax, "ada"), "--at", "9")
    assert code == 2 and "--at 9 is not in this game: its seqs run from 0 to 3" in err
    assert not (pax.parent / "x.yaml").exists()


def test_a_fork_signed_by_another_key(pax: Path) -> None:
    """--key: the forker's own .pub signs for every seat (here the moderator's key)."""
    sandbox = pax.parent / "w.yaml"
    ok("fork", pax, "--out", sandbox, "--key", pax.parent / "max.pub", "--seed", "t")
    play(sandbox, 2, key=pax.parent / "max.key")
    code, _, err = cli("sign", pax.parent / "orders.txt", "--key", pax.parent / "ada.key",
                       "--game", sandbox)
    assert code == 2 and "is not" in err
    assert "3 log entries verified" in ok("verify", sandbox)


def test_sign_names_the_seat_owed_and_a_sandbox_forks_again(pax: Path) -> None:
    """One key for every seat: `pbem sign --game` without a `player:` line signs for the seat
    owed an answer. A sandbox forks like any game, at any of its own seqs."""
    sandbox = pax.parent / "w.yaml"
    ok("fork", pax, "--out", sandbox, "--for", seat(pax, "ada"), "--seed", "t")
    for _ in range(3):
        owed = json.loads(ok("status", sandbox, "--json"))["waiting_for"][0]
        line = json.loads(ok("options", sandbox, "--json", "--for", owed))["lines"][0]
        (pax.parent / "orders.txt").write_text(f"{line}\n")
        block = ok("sign", pax.parent / "orders.txt", "--key", pax.parent / "ada.key", "--game",
                   sandbox)
        assert f"player: {owed}\n" in block
        (pax.parent / "block.txt").write_text(block)
        ok("apply", sandbox, pax.parent / "block.txt")
    again = pax.parent / "again.yaml"
    ok("fork", sandbox, "--at", "2", "--out", again, "--for", seat(pax, "ben"), "--seed", "u")
    mark = fast_yaml.safe_load(again.read_text())["game"]["sandbox"]
    assert (mark["of"], mark["at"]) == ("w", 2)
    assert "ok: 1 log entries verified" in ok("verify", again)
