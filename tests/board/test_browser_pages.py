"""The HTML report and the history site in a real browser (headless Chromium, when installed):
no console message, every city or province of the map an element of the page, no text out of
its box in the board, one or two A4 pages when printed, and a screenshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.pipeline.game import Game
from pbem.views import history, html
from pbem.views.model import report_model
from tests.board.chromium import CHROMIUM, open_page, open_probed, pdf_pages
from tests.board.games import played
from tests.board.pages import element_ids

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")


def places(model: dict[str, Any]) -> set[str]:
    """The ids the board must give each city (Pax) or province and sea (Age of Renaissance)."""
    if "aor" in model:
        from pbem import rulesets

        catalog = rulesets.catalog_for("aor")
        return {f"province-{p}" for p in catalog.provinces} | {f"sea-{s}" for s in catalog.seas}
    return {f"empire-{e['id']}" for e in model["view"]["map"]}


def check_in_browser(path: Path, model: dict[str, Any], folder: Path) -> None:
    # One browser run reads the DOM, the console and the board's layout, prints the page and
    # takes its screenshot: the probe only adds its script and one hidden <pre> (the probe's
    # own id aside, the ids are the page's).
    pdf, png = folder / (path.stem + ".pdf"), folder / (path.stem + ".png")
    dom, problems, console = open_probed(path, pdf, png)
    assert console == [], console
    ids = [i for i in element_ids(dom) if i != "probe-out"]
    assert places(model) <= set(ids)
    if "aor" not in model:  # every city slot, empty ones too
        assert len([i for i in ids if i.startswith("city-")]) == \
            sum(len(e["cities"]) for e in model["view"]["map"])
    assert problems == []
    assert pdf_pages(pdf) in (1, 2)


def mover(game: Game) -> str:
    owed: list[str] = report_model(game, None)["waiting_for"]
    return owed[0]


PAGES = [("pax", 4, 120, {"map": "default", "astrology": True}, True),
         ("pax", 3, 60, {"map": "age_of_reformation"}, False),
         ("aor", 6, 150, {"end": "epoch1"}, True), ("aor", 3, 60, {"end": "epoch1"}, False)]


@pytest.mark.parametrize(("ruleset", "players", "steps", "options", "for_mover"), PAGES)
def test_the_html_report_in_a_browser(ruleset: str, players: int, steps: int, options: dict[str, Any],
                                      for_mover: bool, tmp_path: Path) -> None:
    game = played(ruleset, players, steps, seed=f"page-{ruleset}", **options)
    model = report_model(game, mover(game) if for_mover else None)
    path = tmp_path / "report.html"
    path.write_text(html.page(model), encoding="utf-8")
    check_in_browser(path, model, tmp_path)


def test_the_history_site_in_a_browser(tmp_path: Path) -> None:
    game = played("pax", 3, 30, seed="page-history")
    history.build(game, tmp_path / "site")
    index = tmp_path / "site" / "index.html"
    dom, console = open_page(index, png=tmp_path / "index.png")  # its screenshot, same run
    assert console == [] and [f"seq-{n}" for n in range(31)] == \
        [i for i in element_ids(dom) if i.startswith("seq-")]
    check_in_browser(tmp_path / "site" / "seq-30.html", report_model(game, None), tmp_path)


def test_the_checks_see_console_errors_and_long_pages(tmp_path: Path) -> None:
    # one page, noisy and long, opened once: the console and the print come from one run
    page = tmp_path / "noisy.html"
    page.write_text("<html><body>" + "<p>line</p>" * 400 +
                    "<script>console.error('boom'); missing();</script></body></html>")
    _, console = open_page(page, pdf=tmp_path / "noisy.pdf")
    assert [m.split(",")[0] for m in console] == [
        '"boom"', '"Uncaught ReferenceError: missing is not defined"']
    assert pdf_pages(tmp_path / "noisy.pdf") > 2
