"""Self-play (issue 3): seeded games through the real pipeline with every per-step check.
The determinism check plays 5 fast games twice in `make test`, 20 in `make test-long`
(tests/scale.py)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app
from pbem.play.selfplay import run
from tests.scale import count

DETERMINISM_GAMES = count(5, 20)


def test_full_selfplay_finishes_games_with_no_violations(tmp_path: Path) -> None:
    for players in (2, 3, 4):
        stats = run(2, players, "suite", {}, out_dir=tmp_path)
        data = stats.to_data()
        assert data["games"] == 2 and data["invariant_violations"] == 0, data["violations"]
        assert sum(data["endings"].values()) == 2
        assert data["actions"]["buy"] > 0 and data["decisions"] > 20
    assert not list(tmp_path.iterdir())


def test_selfplay_runs_the_variants(tmp_path: Path) -> None:
    options = {"map": "1550", "astrology": True, "bankruptcy": True, "open_hands": True}
    data = run(2, 3, "variants", options, out_dir=tmp_path).to_data()
    assert data["invariant_violations"] == 0, data["violations"]
    assert data["games"] == 2


def test_fast_selfplay_is_deterministic() -> None:
    first = run(DETERMINISM_GAMES, 4, "det", {}, fast=True).to_data()
    second = run(DETERMINISM_GAMES, 4, "det", {}, fast=True).to_data()
    for key in ("decisions", "endings", "winners", "actions"):
        assert first[key] == second[key]


def test_selfplay_cli_json() -> None:
    result = CliRunner().invoke(app, ["selfplay", "--games", "3", "--players", "2", "--fast",
                                      "--json", "--option", "astrology=true"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3 and data["invariant_violations"] == 0
    assert set(data) >= {"games", "decisions", "seconds", "endings", "actions", "one_shots",
                         "ops", "abilities", "invariant_violations"}


def test_selfplay_rejects_bad_player_count() -> None:
    result = CliRunner().invoke(app, ["selfplay", "--players", "5"])
    assert result.exit_code == 2 and "--players must be 2 to 4" in result.stderr


def test_fast_mode_says_it_checked_nothing() -> None:
    assert run(1, 2, "fast", {}, fast=True).to_data()["checked"] is False
    result = CliRunner().invoke(app, ["selfplay", "--games", "1", "--players", "2", "--fast"])
    assert result.exit_code == 0 and "not checked (--fast" in result.stdout
