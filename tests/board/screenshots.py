"""Remake the screenshots in docs/screenshots (needs chromium):

    .venv/bin/python -m tests.board.screenshots
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pbem.views import history, html
from pbem.views.board import draw
from pbem.views.model import report_model
from tests.board.chromium import screenshot
from tests.board.games import played

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        pax = played("pax", 4, 120, seed="browser-pax", map="default")
        aor = played("aor", 4, 150, seed="browser-aor", end="epoch1")
        for name, game, height in (("report-pax", pax, 1500), ("report-aor", aor, 1500)):
            viewer = report_model(game, None)["waiting_for"][0]
            page = folder / f"{name}.html"
            page.write_text(html.page(report_model(game, viewer)), encoding="utf-8")
            screenshot(page, DOCS / f"{name}.png", 1200, height)
        history.build(played("pax", 3, 30, seed="page-history"), folder / "site")
        screenshot(folder / "site" / "index.html", DOCS / "history-index.png", 1000, 700)
        for name, game in (("map-pax", pax), ("map-aor", aor)):
            svg = folder / f"{name}.svg"
            svg.write_text(draw(game, game.gf.player_ids()[0]), encoding="utf-8")
            screenshot(svg, DOCS / f"{name}.png", 1400, 1010)


if __name__ == "__main__":
    main()
