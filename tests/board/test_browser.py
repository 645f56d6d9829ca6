"""The pictures as a browser lays them out (headless Chromium, when installed): no text leaves
its box or the canvas, no two labels overlap, and a screenshot is taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.views.board import draw
from tests.board.chromium import CHROMIUM, layout_problems
from tests.board.games import played

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")


def _layout_problems(svg: str, folder: Path, png: Path | None = None) -> list[str]:
    problems, console = layout_problems(svg, folder, png, (1400, 1010))
    assert console == [], console
    return problems


CASES = [("pax", 4, 120, {"map": "default"}), ("pax", 4, 120, {"map": "1550"}),
         ("pax", 4, 120, {"map": "age_of_reformation"}), ("aor", 3, 150, {"end": "epoch1"}),
         ("aor", 6, 150, {"end": "epoch1"})]


@pytest.mark.parametrize(("ruleset", "players", "steps", "options"), CASES)
def test_no_text_leaves_its_box_and_a_screenshot_is_taken(
        ruleset: str, players: int, steps: int, options: dict[str, str], tmp_path: Path) -> None:
    game = played(ruleset, players, steps, seed=f"browser-{ruleset}", **options)
    svg = draw(game, game.gf.player_ids()[0])
    # the board laid out, measured and its screenshot taken in one browser run
    assert _layout_problems(svg, tmp_path, tmp_path / "board.png") == []


def test_the_probe_finds_text_out_of_its_box(tmp_path: Path) -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><g><title>t</title>'
           '<rect x="0" y="0" width="40" height="20"><title>r</title></rect>'
           '<text x="2" y="14" font-size="12">far too long for the box</text></g></svg>')
    assert _layout_problems(svg, tmp_path) == ["out of its box: far too long for the box"]
