"""Shared tools of the reliability suite: games made once and copied, the CLI run in-process
with the promises every run keeps (no traceback, never exit 70), and a folder snapshot."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import time
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import typer
import typer.main
import typer.testing
from typer.testing import CliRunner, Result

from pbem.cli import app
from tests.pbem.test_mail_helpers import make_game

runner = CliRunner()
PAX_NAMES = ("ada", "ben", "cy")
AOR_NAMES = ("ada", "ben", "cy")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (lock files aside: they are empty and kept on purpose)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


def strays(folder: Path) -> list[str]:
    """Temporary files an atomic write left behind."""
    return sorted(p.name for p in folder.rglob(".*.tmp"))


@cache
def _command() -> Any:
    return typer.main.get_command(app)


def invoke(args: list[str], stdin: bytes | str | None = None,
           env: dict[str, str] | None = None) -> Result:
    """CliRunner.invoke with the click command built once (typer builds it again for every
    call, which costs more than most commands)."""
    with mock.patch.object(typer.testing, "_get_command", lambda _app: _command()):
        return runner.invoke(app, args, input=stdin, env=env)


def pbem(*args: str, stdin: bytes | str | None = None,
         env: dict[str, str] | None = None) -> Result:
    """Run the CLI in-process; no run may crash (exit 70) or show a traceback."""
    result = invoke(list(args), stdin, env)
    assert result.exit_code != 70, (args, result.stderr)
    assert "Traceback" not in result.output, (args, result.output)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {result.exception!r}")
    return result


def ok(*args: str, env: dict[str, str] | None = None) -> str:
    result = pbem(*args, env=env)
    assert result.exit_code == 0, (args, result.stderr)
    return result.stdout


@cache
def _template(kind: str) -> Path:
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix=f"pbem-reliability-{kind}-"))
    atexit.register(shutil.rmtree, folder, True)
    if kind == "pax":
        make_game(folder)
    else:
        for name in (*AOR_NAMES, "max"):
            ok("keygen", name, "--email", f"{name}@example.org", "--dir", str(folder))
        ok("new", str(folder / "g.yaml"),
           *[a for n in AOR_NAMES for a in ("--player", str(folder / f"{n}.pub"))],
           "--moderator", str(folder / "max.pub"), "--ruleset", "aor", "--seed", "kit")
    return folder


def copy_game(kind: str, folder: Path) -> Path:
    """A fresh moderated game in `folder`: 'pax' (lisbon.yaml, 3 players) or 'aor' (g.yaml,
    3 players), with the players' and the moderator's keys beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in _template(kind).iterdir():
        if path.is_file() and not path.name.endswith(".lock"):
            shutil.copy2(path, folder / path.name)
    return folder / ("lisbon.yaml" if kind == "pax" else "g.yaml")


def status(game: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(ok("status", str(game), "--json"))
    return data


def signed(game: Path, player: str, lines: list[str], name: str = "") -> Path:
    """A signed block of `lines` from `player` (whose key is NAME.key beside the game)."""
    orders = game.parent / f"{name or player}.orders"
    orders.write_text("\n".join(lines) + "\n")
    out = game.parent / f"{name or player}.block"
    out.write_text(ok("sign", str(orders), "--key", str(key_of(game, player)),
                      "--game", str(game)))
    return out


def next_block(game: Path, name: str = "") -> Path:
    """A legal block from whoever must act: their first legal line (and `end` after a buy)."""
    player = str(status(game)["waiting_for"][0])  # type: ignore[index]
    menu = json.loads(ok("options", str(game), "--json", "--for", player))
    first = str(menu["lines"][0])
    pick = next((x for x in menu["lines"] if str(x).startswith("buy")), first)
    return signed(game, player, [pick, "end"] if str(pick).startswith("buy") else [pick], name)


def key_of(game: Path, player: str) -> Path:
    roster = json.loads(ok("roster", str(game), "--json"))
    rows = roster["players"] if isinstance(roster, dict) else roster
    name = next(str(row["name"]) for row in rows if row["id"] == player)
    return game.parent / f"{name}.key"


def verified(game: Path) -> bool:
    result = pbem("verify", str(game), "--secrets", str(game.with_suffix(".seed")))
    return result.exit_code == 0 and result.stdout.startswith("ok: ")


def wait_until_it_tries_the_lock(run: subprocess.Popen[bytes], folder: Path,
                                 seconds: float = 60.0) -> None:
    """Returns once the child process `run` holds a lock file of `folder` open (a pbem run
    opens GAME.lock, then waits for it), and half a second more: a run that went on without
    waiting would have ended by then. This replaced a fixed 2 s sleep for its start-up
    (issue 17); without /proc (not Linux), that sleep."""
    fds = Path(f"/proc/{run.pid}/fd")
    if not fds.is_dir():
        time.sleep(2.0)
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and run.poll() is None:
        try:
            opened = [os.readlink(fd) for fd in fds.iterdir()]
        except OSError:  # a descriptor closed while read
            opened = []
        if any(Path(name).parent == folder and name.endswith(".lock") for name in opened):
            break
        time.sleep(0.02)
    time.sleep(0.5)
