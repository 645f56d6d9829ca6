"""Moderated games commit both files as one (issue 20 §3): the secrets' new generation is
written first and the game file's rename is the commit point, so a crash or a full disk
between the two writes, even on the last sealed bid of a round, leaves a game that the next
command completes: the block can be sent again, a timeout works, and verify passes."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()
NAMES = ("ada", "ben", "cy")


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, f"pbem {' '.join(args)}: {err}"
    return out


def block(game: Path, player: str, line: str) -> Path:
    orders = game.parent / f"{player}.orders"
    orders.write_text(line + "\n")
    signed = game.parent / f"{player}.block"
    signed.write_text(ok("sign", str(orders), "--key", str(game.parent / f"{player}.key"),
                         "--game", str(game)))
    return signed


def to_the_last_bid(folder: Path) -> tuple[Path, str]:
    """A moderated game where two capital bids are in and the third would unseal them."""
    for name in (*NAMES, "max"):
        ok("keygen", name, "--email", f"{name}@example.org", "--dir", str(folder))
    game = folder / "g.yaml"
    ok("new", str(game), *[a for n in NAMES for a in ("--player", str(folder / f"{n}.pub"))],
       "--moderator", str(folder / "max.pub"), "--ruleset", "aor", "--seed", "commit-point")
    for _ in range(10):
        data = json.loads(ok("status", str(game), "--json"))
        owed = data["waiting_for"]
        if data.get("sealed") and len(owed) == 1:
            return game, owed[0]
        player = owed[0]
        menu = json.loads(ok("options", str(game), "--json", "--for", player))
        ok("apply", str(game), str(block(game, player, menu["lines"][0])))
    raise AssertionError("the capital bid never came")


def fail_the_game_file_rename(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.replace

    def replace(source: str | Path, target: str | Path) -> None:
        if Path(target) == game.resolve():
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(source, target)

    monkeypatch.setattr(os, "replace", replace)


def test_a_crash_before_the_game_file_on_the_last_sealed_bid_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game, last = to_the_last_bid(tmp_path)
    before = game.read_bytes()
    signed = block(game, last, "bid 1")
    fail_the_game_file_rename(game, monkeypatch)
    code, _, err = cli("apply", str(game), str(signed))
    assert code == 74 and "No space left" in err
    monkeypatch.undo()
    assert game.read_bytes() == before  # the secrets moved on; the game did not
    secrets = ["--secrets", str(game.with_suffix(".seed"))]
    assert ok("verify", str(game), *secrets).startswith("ok: ")
    assert last in json.loads(ok("status", str(game), "--json"))["waiting_for"]
    ok("options", str(game), "--for", last)
    assert "The sealed answers are opened" in ok("apply", str(game), str(signed))
    assert ok("verify", str(game), *secrets).startswith("ok: ")


def test_a_timeout_after_such_a_crash_keeps_the_game_verifiable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game, last = to_the_last_bid(tmp_path)
    fail_the_game_file_rename(game, monkeypatch)
    assert cli("apply", str(game), str(block(game, last, "bid 2")))[0] == 74
    monkeypatch.undo()
    ok("timeout", str(game), "--force", "--key", str(game.parent / "max.key"))
    assert ok("verify", str(game), "--secrets",
              str(game.with_suffix(".seed"))).startswith("ok: ")
