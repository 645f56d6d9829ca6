"""Timeouts alone never break a game (issue 20 §4): a timeout answers only the decision that is
overdue, never the next one whose clock has not started, and any sequence of timeouts leaves a
moderated Age of Renaissance game that verifies with the secrets."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, f"pbem {' '.join(args)}: {result.stderr}"
    return result.stdout


def moderated_aor(folder: Path, players: int) -> Path:
    names = ("ada", "ben", "cy", "dee", "eve", "fay")[:players]
    for name in (*names, "max"):
        ok("keygen", name, "--email", f"{name}@example.org", "--dir", str(folder))
    game = folder / "g.yaml"
    ok("new", str(game), *[a for n in names for a in ("--player", str(folder / f"{n}.pub"))],
       "--moderator", str(folder / "max.pub"), "--ruleset", "aor", "--seed", f"t-{players}")
    return game


def status(game: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(ok("status", str(game), "--json"))
    return data


def test_the_issue_sequence_verifies_and_answers_only_what_is_overdue(tmp_path: Path) -> None:
    game = moderated_aor(tmp_path, 3)
    ok("deadlines", str(game), "--key", str(game.parent / "max.key"), "--set", "default=48h",
       "--now", "2027-03-01T00:00:00Z")
    ok("timeout", str(game), "--now", "2027-03-03T12:00:00Z")  # the card returns time out
    after = status(game)
    assert after["decision"] != "return one of your cards" or after["waiting_for"] == []
    log = ok("verify", str(game), "--secrets", str(game.with_suffix(".seed")))
    assert log.startswith("ok: ")
    # The capital bid opened just now: its clock starts with this run, not 60 hours ago.
    assert "not overdue" in ok("timeout", str(game), "--now", "2027-03-03T13:00:00Z")
    ok("timeout", str(game), "--now", "2027-03-04T12:00:00Z")
    ok("timeout", str(game), "--now", "2027-03-07T00:00:00Z")
    assert ok("verify", str(game), "--secrets", str(game.with_suffix(".seed"))).startswith("ok: ")


@pytest.mark.parametrize("players", [3, 4])
def test_random_timeouts_always_leave_a_verifiable_game(tmp_path: Path, players: int) -> None:
    game = moderated_aor(tmp_path, players)
    rng = random.Random(players)
    ok("deadlines", str(game), "--key", str(game.parent / "max.key"), "--set", "default=1h", "--nmr", "skip",
       "--now", "2027-03-01T00:00:00Z")
    hour = 0
    for _ in range(12):
        hour += rng.choice((1, 2, 30))
        when = f"2027-03-{1 + hour // 24:02d}T{hour % 24:02d}:00:00Z"
        args = ["timeout", str(game), "--now", when]
        if rng.random() < 0.4:
            args += ["--force", "--key", str(game.parent / "max.key")]
        ok(*args)
        assert ok("verify", str(game), "--secrets",
                  str(game.with_suffix(".seed"))).startswith("ok: ")


def test_an_apply_that_slips_in_before_a_timeout_is_not_timed_out(tmp_path: Path) -> None:
    """A forced interleaving: the timeout waits for the game's lock while a block lands; it
    must then read the clock of the new decision (just started), not of the old one."""
    import shutil
    import threading
    import time

    from pbem.store import gamefile
    from tests.pbem.test_mail_helpers import block_for, first_move, make_game

    game = make_game(tmp_path)
    ok("deadlines", str(game), "--key", str(game.parent / "max.key"), "--set", "default=1h", "--nmr", "skip",
       "--now", "2027-03-01T00:00:00Z")  # the clock of seq 0 starts at midnight
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for path in tmp_path.glob("lisbon.*"):
        if path.is_file():
            shutil.copy(path, elsewhere / path.name)
    moved = elsewhere / game.name
    runner.invoke(app, ["apply", str(moved), "-"], input=block_for(game, first_move(game)))
    assert gamefile.load(moved).seq == 2  # the settings change, then the block
    outcome: dict[str, str] = {}

    def late_timeout() -> None:
        outcome["out"] = ok("timeout", str(game), "--now", "2027-03-01T02:00:00Z")

    with gamefile.locked(game):
        worker = threading.Thread(target=late_timeout)
        worker.start()
        time.sleep(0.5)  # the timeout now waits for the lock
        landing = game.with_name(".landing")
        shutil.copy(moved, landing)
        os.replace(landing, game)  # the block lands (atomically, as pbem writes) while it waits
    worker.join(30)
    assert "not overdue" in outcome["out"] and gamefile.load(game).seq == 2


def test_a_partial_block_does_not_restart_the_players_clock(tmp_path: Path) -> None:
    """Issue 23 §4: one line every 47 hours must not hold a game forever. The clock belongs
    to the player's whole turn; an answer out of turn has its own."""
    from pbem.store import gamefile
    from tests.pbem.test_mail_helpers import block_for, make_game

    game = make_game(tmp_path)
    ok("deadlines", str(game), "--key", str(game.parent / "max.key"), "--set", "default=48h", "--nmr", "skip",
       "--now", "2027-03-01T00:00:00Z")
    ok("timeout", str(game), "--now", "2027-03-01T00:00:00Z")  # a mail run starts the clock
    mover = str(status(game)["waiting_for"][0])
    first = json.loads(ok("options", str(game), "--json"))["lines"]
    buy = next(line for line in first if line.startswith("buy"))
    runner.invoke(app, ["apply", str(game), "-"], input=block_for(game, [buy]))  # no `end`
    assert gamefile.load(game).seq == 2 and status(game)["waiting_for"] == [mover]
    ok("timeout", str(game), "--now", "2027-03-02T23:00:00Z")  # a mail run sees the new seq
    assert gamefile.load(game).seq == 2  # 47 hours in: not late yet
    ok("timeout", str(game), "--now", "2027-03-03T01:00:00Z")  # 49 hours since the turn began
    assert gamefile.load(game).log[-1]["kind"] == "timeout"
