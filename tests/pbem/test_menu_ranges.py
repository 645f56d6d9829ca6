"""Issue 15 point 6: menus show runs of numbered lines as ranges (`bid 0..40`, `tokens
-44..44`, `standing taxed pay 2..5`) and say how to write one number; `options --json` still
lists every line for scripts; the Age of Renaissance map has column headers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.views import report
from pbem.views.report import range_note, with_ranges
from tests.pbem.test_aor_cli import new_game as new_aor_game
from tests.pbem.test_report import expand_ranges, scenario_model

runner = CliRunner()
expand = expand_ranges


def test_ranges_round_trip_and_keep_short_runs() -> None:
    lines = ["bid 0", "bid 1", "bid 2", "bid 3", "pass", "tokens -2", "tokens -1", "tokens 0",
             "tokens 1",
             "standing taxed pay", "standing taxed pay 2", "standing taxed pay 3",
             "standing taxed pay 4", "standing taxed pay 5", "buy west 1", "buy west 2"]
    shown = with_ranges(lines)
    assert shown == ["bid 0..3", "pass", "tokens -2..1", "standing taxed pay",
                     "standing taxed pay 2..5", "buy west 1", "buy west 2"]
    assert expand(shown) == lines
    assert range_note(lines) == ("LOW..HIGH stands for one whole number from LOW to HIGH: "
                                 "write the number, e.g. 'bid 0'.")
    assert range_note(["pass"]) == ""


@pytest.mark.parametrize("fmt", report.FORMATS)
def test_the_pax_menu_collapses_the_tax_answers(fmt: str) -> None:
    model = scenario_model("setup")
    text = report.render(model, fmt)
    assert "standing taxed pay 2..5" in text
    assert "standing taxed pay 3" not in text
    assert "e.g. 'buy east 1'" not in text  # short runs of buys stay lines
    assert "write the number, e.g. 'standing taxed pay 2'" in re.sub(r"\s+", " ", text)


def test_aor_bid_menu_is_a_range_and_json_stays_complete(tmp_path: Path) -> None:
    game = new_aor_game(tmp_path)
    data = json.loads(runner.invoke(app, ["options", str(game), "--json"]).stdout)
    lines = data["lines"] or data.get("seal_lines") or []
    player = str(data["player"])
    shown = runner.invoke(app, ["report", str(game), "--for", player]).stdout
    if any(line.startswith("bid ") for line in lines):
        assert len([x for x in lines if x.startswith("bid ")]) > 10, "json lists every bid"
        assert re.search(r"\bbid 0\.\.\d+", shown), shown
        assert "e.g. 'bid 0'" in shown
    menu = shown.split("YOUR ORDERS", 1)[1]
    shown_lines = [cell.strip() for row in menu.splitlines()
                   for cell in re.split(r"\s{3,}", row.strip()) if cell.strip()]
    assert set(lines) <= set(expand(shown_lines)), "every legal line can be read off the menu"


def test_the_aor_map_has_column_headers(tmp_path: Path) -> None:
    game = new_aor_game(tmp_path)
    text = runner.invoke(app, ["report", str(game)]).stdout
    after = text.split("MAP\n===", 1)[1]
    first = after.strip().splitlines()[0]
    if "Nothing on the board yet." not in first:
        assert first.split() == ["Area", "Province", "Market", "Marker", "Tokens"]
