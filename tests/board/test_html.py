"""`pbem report --format html` (issue 16): one self-contained page from the report's own model,
with the board inline, every word the text report says, and the orders ready to copy."""

from __future__ import annotations

import html as markup
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem import rulesets
from pbem.cli import app
from pbem.errors import UsageError
from pbem.pipeline.game import Game
from pbem.pipeline.opening import open_game
from pbem.views import html
from pbem.views.model import report_model
from pbem.views.report import render
from tests.board.games import played
from tests.board.pages import element_ids, hands, moderated_aor, pre_texts
from tests.security.test_output_injection import HOSTILE, hostile_game

runner = CliRunner()
# Words of the text report's layout, not facts: column headings, markers, and "the orders are
# at the end" (the page links to them instead).
LAYOUT_WORDS = {"slot", "card", "this", "turn's", "at", "end"}


def mover(game: Game) -> str:
    owed: list[str] = report_model(game, None)["waiting_for"]
    return owed[0]


def visible_words(page: str) -> set[str]:
    """The words a reader sees: tags and the board's hover titles left out, entities decoded."""
    page = re.sub(r"<svg.*?</svg>", " ", page, flags=re.S)
    text = markup.unescape(re.sub(r"<[^>]+>", " ", page))
    return {word.strip(".,;:()[]").lower() for word in text.split()} - {""}


def text_words(text: str) -> set[str]:
    words = {word.strip(".,;:()[]").lower() for word in text.split()}
    return {word for word in words if word.strip("=-*|")}


def check_page(page: str, model: dict[str, Any]) -> None:
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<svg") == 1, "the board is inline, once"
    for banned in ("<script", "<link", "<img", "<iframe", "src=", "url(", "https://", "@import"):
        assert banned not in page, f"not self-contained: {banned}"
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    missing = text_words(render(model, "text")) - visible_words(page) - LAYOUT_WORDS
    assert not missing, f"words of the text report the page does not say: {sorted(missing)[:20]}"
    menu = model["menu"]
    if menu:
        pres = pre_texts(page)
        assert pres["legal-lines"] == "".join(line + "\n" for line in menu["lines"])
        assert pres["block"] == menu["skeleton"].rstrip("\n")


@pytest.mark.parametrize("game_map", ["default", "1550", "age_of_reformation"])
def test_a_pax_page_on_every_map_has_the_board_the_facts_and_the_orders(game_map: str) -> None:
    game = played("pax", 4, 50, seed=f"html-{game_map}", map=game_map, astrology=True)
    model = report_model(game, mover(game))
    page = html.page(model)
    check_page(page, model)
    ids = element_ids(page)
    cities = [i for i in ids if i.startswith("city-")]
    assert len(cities) == len(set(cities)) == sum(len(e["cities"]) for e in model["view"]["map"])
    assert {f"empire-{e['id']}" for e in model["view"]["map"]} <= set(ids)
    assert "orders" in ids and model["menu"]


def test_an_open_hands_page_shows_every_hand_and_the_public_page_has_no_orders() -> None:
    game = played("pax", 3, 30, seed="html-open", open_hands=True)
    public = report_model(game, None)
    page = html.page(public)
    check_page(page, public)
    assert public["menu"] is None and 'id="orders"' not in page
    for bank in public["view"]["players"]:
        for card in bank["hand"]:
            assert markup.escape(card["name"], quote=False) in page


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_an_aor_page_has_every_province_for_3_to_6_players(players: int) -> None:
    game = played("aor", players, 90, seed=f"html-aor-{players}", end="epoch1")
    for viewer in (None, mover(game)):
        model = report_model(game, viewer)
        page = html.page(model)
        check_page(page, model)
        ids = set(element_ids(page))
        catalog = rulesets.catalog_for("aor")
        assert {f"province-{p}" for p in catalog.provinces} <= ids
        assert {f"sea-{s}" for s in catalog.seas} <= ids


@pytest.mark.parametrize("players", [3, 6])
def test_a_moderated_aor_page_shows_its_reader_their_hand_and_no_one_elses(
        players: int, tmp_path: Path) -> None:
    path = moderated_aor(tmp_path / "g.yaml", players, returns=1)
    dealt = hands(path)
    game = open_game(path, head_only=False)
    for viewer in [*dealt, None]:
        page = html.page(report_model(game, viewer))
        for owner, hand in dealt.items():
            for label in hand:
                assert (label in page) == (owner == viewer), (viewer, owner, label)


def test_the_report_command_writes_the_page_and_names_html_among_the_formats(tmp_path: Path) -> None:
    path = moderated_aor(tmp_path / "g.yaml", 3)
    result = runner.invoke(app, ["report", str(path), "--for", "ada", "--format", "html"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("<!DOCTYPE html>") and "Report for <strong>ada</strong>" in result.stdout
    result = runner.invoke(app, ["report", str(path), "--format", "pdf"])
    assert result.exit_code == 2
    assert result.stderr == "error: unknown format 'pdf'; formats: text, markdown, bbcode, bgg, html\n"


def assert_inert(page: str) -> None:
    assert "<img" not in page and "<svg" in page
    assert "onerror=alert" not in page.replace("onerror=alert(3)&gt;", "")
    assert not set(page) & set("\u202e\u2066\x1b\x07")


def test_hostile_player_names_are_shown_as_text_never_as_markup(tmp_path: Path) -> None:
    path = hostile_game(tmp_path, "pax")
    reader = mover(open_game(path, head_only=False))
    for args in (["--format", "html"], ["--format", "html", "--for", reader]):
        result = runner.invoke(app, ["report", str(path), *args])
        assert result.exit_code == 0, result.stderr
        assert_inert(result.stdout)
        assert "&lt;img src=x onerror=alert(3)&gt;" in result.stdout


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_hostile_history_and_deadlines_are_shown_as_text(ruleset: str, tmp_path: Path) -> None:
    model = report_model(open_game(hostile_game(tmp_path, ruleset), head_only=False), None)
    player = model["header"]["players"][0]["id"]
    model["history"] = [{"seq": 1, "player": player, "texts": [HOSTILE, "plain"]}]
    model["deadlines"] = [{"who": HOSTILE, "when": HOSTILE, "late": True}]
    page = html.page(model)
    assert_inert(page)
    assert page.count("&lt;img src=x onerror=alert(3)&gt;") >= 3


def test_a_ruleset_without_a_page_template_is_a_usage_error() -> None:
    model = report_model(played("pax", 3, 0, seed="html-none"), None)
    model["header"] = {**model["header"], "templates": "none"}
    with pytest.raises(UsageError, match=r"no HTML page for ruleset 'none': templates/none/page"):
        html.page(model)
