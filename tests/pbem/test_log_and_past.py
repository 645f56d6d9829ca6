"""Issue 15 point 12: `pbem log GAME [--since SEQ] [--for PLAYER]` tells what happened seq by
seq (the public log only: no reader sees another player's hidden cards), and `pbem report
--seq N` shows the board as it stood then (rebuilt by the replay, checked against the log)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import gamefile

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "format1"
runner = CliRunner()


def copy(tmp_path: Path, name: str) -> Path:
    for path in FIXTURES.glob(f"{name}.*"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path / f"{name}.yaml"


def test_log_tells_each_seq_with_refills(tmp_path: Path) -> None:
    game = copy(tmp_path, "pax-open")
    result = runner.invoke(app, ["log", str(game), "--since", "2"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("seq 2 (Fugger):\n  Fugger sells Gold Coast Monopoly")
    assert "The west market refills: Peter's Pence is dealt into west 5." in out
    assert "seq 1 " not in out
    rows = json.loads(runner.invoke(app, ["log", str(game), "--json"]).stdout)
    assert [r["seq"] for r in rows] == list(range(gamefile.load(game).seq + 1))


def test_log_for_a_player_of_a_hidden_game_shows_no_hand(tmp_path: Path) -> None:
    game = copy(tmp_path, "aor-moderated")
    (tmp_path / "aor-moderated.seed").unlink()  # a player has no secrets file
    gf = gamefile.load(game)
    player = gf.player_ids()[0]
    result = runner.invoke(app, ["log", str(game), "--for", player])
    assert result.exit_code == 0, result.stderr
    assert "seq 0 (Setup):" in result.stdout
    bad = runner.invoke(app, ["log", str(game), "--for", "nobody"])
    assert bad.exit_code == 2 and "unknown player 'nobody'" in bad.stderr
    late = runner.invoke(app, ["log", str(game), "--since", "9999"])
    assert late.exit_code == 2 and "--since 9999 is not in this game" in late.stderr


def test_report_at_an_earlier_seq_shows_that_board(tmp_path: Path) -> None:
    game = copy(tmp_path, "pax-open")
    gf = gamefile.load(game)
    then = runner.invoke(app, ["report", str(game), "--seq", "1"])
    assert then.exit_code == 0, then.stderr
    assert "seq 1   state " + gf.log[1]["post_state"][:16] in then.stdout
    now = runner.invoke(app, ["report", str(game)]).stdout
    assert then.stdout != now
    for_player = runner.invoke(app, ["report", str(game), "--seq", "1", "--for", "fugger"])
    assert for_player.exit_code == 0 and "BEGIN PBEM ORDERS" not in for_player.stdout
    assert "Your hand" in for_player.stdout
    bad = runner.invoke(app, ["report", str(game), "--seq", "-1"])
    assert bad.exit_code == 2 and "is not in this game" in bad.stderr
    assert gamefile.load(game) == gf, "reading the past changes nothing"


def test_a_hidden_game_needs_the_moderator_for_its_past_boards(tmp_path: Path) -> None:
    game = copy(tmp_path, "aor-moderated")
    moderator = runner.invoke(app, ["report", str(game), "--seq", "1"])
    assert moderator.exit_code == 0, moderator.stderr
    (tmp_path / "aor-moderated.seed").unlink()
    player = runner.invoke(app, ["report", str(game), "--seq", "1"])
    assert player.exit_code == 2 and "only by the moderator" in player.stderr
