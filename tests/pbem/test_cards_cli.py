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
    assert "Höchstetter Bank" in result.stdout and "agents when played: pawn" in result.stdout


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


def test_details_read_like_the_card_without_internal_ids() -> None:
    """Issue 15 point 3: ops, one-shot and abilities in words, never catalog ids."""
    for query in ("PREN001", "Anne of Brittany", "Catalan", "COMET1"):
        result = runner.invoke(app, ["cards", query])
        assert result.exit_code == 0
        body = result.stdout.split("\n", 1)[1]  # the first line names the card by id
        for internal in ("vote_west", "(vote)", "corsair_", "inquisitor_", "suitors=",
                         "type=", "behead_west", "PREN", "_"):
            assert internal not in body, (query, internal, body)
    pope = runner.invoke(app, ["cards", "PREN001"]).stdout
    assert "op: Inquisitor: move the catholic bishop to a nearby card" in pope
    assert "one-shot when played: Crusade: the catholic holy war" in pope
    assert "prestige: catholic" in pope and "ability: This card's Behead Op" in pope
    anne = runner.invoke(app, ["cards", "Anne of Brittany"]).stdout
    assert "marry a king of France, England, Aragon or Holy Roman Empire" in anne
    comet = runner.invoke(app, ["cards", "COMET1"]).stdout
    assert "COMET" in comet and "activate an inactive victory square" in comet
