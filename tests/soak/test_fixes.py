"""Bugs the month's soak found in pbem, each pinned by a focused test."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import mail
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import make_game

runner = CliRunner()


def test_showing_or_setting_deadlines_never_starts_the_clock(tmp_path: Path) -> None:
    """`pbem deadlines` is a read (and a roster change): it used to start the pending
    decision's clock at its own time, so a host who set deadlines a week before the first
    mail run found every player late at once."""
    game = make_game(tmp_path)
    result = runner.invoke(app, ["deadlines", str(game), "--set", "default=48h",
                                 "--now", "2027-03-01T00:00:00Z"])
    assert result.exit_code == 0, result.stderr
    assert mail.Book.load(game).started(gamefile.load(game)) is None
    result = runner.invoke(app, ["timeout", str(game), "--now", "2027-03-08T00:00:00Z"])
    assert result.exit_code == 0 and gamefile.load(game).seq == 0, result.stdout
    assert "(late)" not in runner.invoke(app, ["deadlines", str(game), "--now",
                                               "2027-03-08T00:00:00Z"]).stdout
