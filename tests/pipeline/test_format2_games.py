"""Games already being played keep verifying (issue 21 §1): format-2 game files, written by
main's pbem before settings and timeouts were log entries (tests/fixtures/format2, made by
make_format2.sh.txt there), hold their NMR policy only in the roster and timeouts without a
clock. They still verify, take blocks, and on the first settings change or timeout this pbem
writes, adopt their settings in an unsigned snapshot from which the trail starts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import gamefile
from tests import fast_yaml
from tests.pbem.test_mail_helpers import acting, block_for, legal

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "format2"
runner = CliRunner()


def ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, f"pbem {' '.join(args)}: {result.stderr}"
    return result.stdout


def copy_game(tmp_path: Path, name: str) -> Path:
    for source in FIXTURES.iterdir():
        if source.name.startswith(name) or source.suffix in (".key", ".pub"):
            shutil.copy(source, tmp_path / source.name)
    return tmp_path / f"{name}.yaml"


def verified(game: Path) -> str:
    seed = game.with_suffix(".seed")
    return ok("verify", str(game), *(["--secrets", str(seed)] if seed.exists() else []))


@pytest.mark.parametrize("name", ["pax-timeouts", "aor-timeouts"])
def test_a_format2_game_with_old_timeouts_still_verifies(tmp_path: Path, name: str) -> None:
    game = copy_game(tmp_path, name)
    data = fast_yaml.safe_load(game.read_text())
    assert data["format"] == 2 and "trail" not in data["game"]
    assert any(e["kind"] == "timeout" and "at" not in e for e in data["log"])
    assert verified(game).startswith("ok: ")


def test_a_format2_game_adopts_its_settings_on_the_next_change(tmp_path: Path) -> None:
    game = copy_game(tmp_path, "pax-timeouts")
    before = fast_yaml.safe_load(game.read_text())
    line = next(x for x in legal(game) if x.startswith("buy"))
    result = runner.invoke(app, ["apply", str(game), "-"], input=block_for(game, [line]))
    assert result.exit_code == 0, result.stderr
    ok("deadlines", str(game), "--nmr", "skip", "--key", str(tmp_path / "max.key"),
       "--now", "2027-03-02T00:00:00Z")
    ok("timeout", str(game), "--now", "2027-03-02T00:00:00Z")  # a mail run starts the clock
    data = fast_yaml.safe_load(game.read_text())
    adopted, change = data["log"][-2], data["log"][-1]
    assert data["format"] == gamefile.FORMAT and "trail" in data["game"]
    assert adopted["kind"] == "settings" and adopted["adopted"] is True
    assert adopted["deadlines"] == before["roster"]["deadlines"]  # the policy then in force
    assert change["deadlines"]["nmr"] == "skip" and "player: moderator" in change["block"]
    mover = acting(game)
    assert "did not answer" in ok("timeout", str(game), "--now", "2027-03-02T02:00:00Z")
    assert acting(game) != mover
    assert verified(game).startswith("ok: ")


def test_a_format2_moderated_game_takes_a_timeout_and_verifies(tmp_path: Path) -> None:
    game = copy_game(tmp_path, "aor-timeouts")
    ok("timeout", str(game), "--force", "--key", str(tmp_path / "max.key"),
       "--player", acting(game))
    log = fast_yaml.safe_load(game.read_text())["log"]
    assert [e["kind"] for e in log[-2:]] == ["settings", "timeout"]
    assert log[-1]["forced"] is True and "block" in log[-1]
    assert verified(game).startswith("ok: ")
