"""`pbem cards` finds cards by id or name part and shows their details."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


def test_lists_every_card() -> None:
    result = runner.invoke(app, ["cards"])
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 177
    assert "PREN001" in result.stdout and "COMET1" in result.stdout


def test_details_by_name_part_with_accents_optional() -> None:
    result = runner.invoke(app, ["cards", "Hochstetter"])
    assert result.exit_code == 0
    assert "Höchstetter Bank" in result.stdout and "agents: pawn" in result.stdout


def test_json_details_carry_ops_and_one_shot() -> None:
    result = runner.invoke(app, ["cards", "PREN001", "--json"])
    data = json.loads(result.stdout)
    assert data[0]["name"] == "Inquisition Pope"
    assert data[0]["one_shot"]["type"] == "crusade"
    assert data[0]["ops"] == ["behead (behead)", "inquisitor_catholic (inquisitor)"]
    assert "behead_west_card_with_catholic_or_reformist_bishop_only" in data[0]["abilities"]


def test_unknown_card_is_a_usage_error() -> None:
    result = runner.invoke(app, ["cards", "zzzz"])
    assert result.exit_code == 2 and "no card matches 'zzzz'" in result.stderr
