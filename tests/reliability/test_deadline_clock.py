"""Showing or setting deadlines starts no clock (issue 20): the clock of the pending decision
starts when a mail run sends its report, so a host who sets deadlines days before mailing the
first reports finds nobody late."""

from __future__ import annotations

import json
from pathlib import Path

from tests.reliability.kit import copy_game, ok, pbem, snapshot, status

SET_ON, MAILED_ON = "2027-03-01T09:00:00Z", "2027-03-05T09:00:00Z"


def shows(game: Path) -> list[list[str]]:
    mover = str(status(game)["waiting_for"][0])  # type: ignore[index]
    return [["deadlines", str(game)], ["deadlines", str(game), "--json"],
            ["deadlines", str(game), "--for", mover, "--now", MAILED_ON],
            ["deadlines", str(game), "--json", "--now", "2030-01-01T00:00:00Z"]]


def test_showing_deadlines_leaves_every_file_byte_identical(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    ok("deadlines", str(game), "--set", "default=48h", "--key", str(tmp_path / "max.key"),
       "--now", SET_ON)
    for started in (False, True):  # before any mail run, and after one started the clock
        if started:
            ok("timeout", str(game), "--now", MAILED_ON)
        before = snapshot(tmp_path)
        for command in shows(game):
            assert pbem(*command).exit_code == 0, command
        assert snapshot(tmp_path) == before, started


def test_deadlines_set_days_before_the_first_mail_run_make_nobody_late(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    mover = str(status(game)["waiting_for"][0])  # type: ignore[index]
    shown = ok("deadlines", str(game), "--set", "default=48h", "--nmr", "skip", "--key",
               str(tmp_path / "max.key"), "--now", SET_ON)
    assert f"{mover} must choose an action: no deadline yet: its clock starts when a mail " \
           "run sends the report" in shown
    data = json.loads(ok("deadlines", str(game), "--json", "--now", MAILED_ON))
    assert data["clock"] is None and data["due"][0]["deadline"] is None
    assert data["due"][0]["late"] is False
    # The first mail run, four days later: the clock starts now, and nobody is overdue.
    assert ok("timeout", str(game), "--now", MAILED_ON) == \
        f"{mover}: not overdue (due 2027-03-07T09:00:00Z)\n"
    data = json.loads(ok("deadlines", str(game), "--json", "--now", MAILED_ON))
    assert data["clock"] == MAILED_ON
    assert data["due"][0]["deadline"] == "2027-03-07T09:00:00Z"
    assert "by Sun 07 Mar 2027 09:00 UTC" in ok("deadlines", str(game), "--now", MAILED_ON)
