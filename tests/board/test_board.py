"""`pbem map` (issue 16): the board of both games as one self-contained SVG."""

from __future__ import annotations

from typing import Any

import pytest

from pbem import rulesets
from pbem.pipeline.game import Game
from pbem.views.board import draw, layout_for
from pbem.views.model import report_model
from tests.board.games import played
from tests.board.svgcheck import ids, parse, problems

PAX_MAPS = ("default", "1550", "age_of_reformation")


def _view(game: Game) -> dict[str, Any]:
    view: dict[str, Any] = report_model(game, None)["view"]
    return view


@pytest.mark.parametrize("game_map", PAX_MAPS)
@pytest.mark.parametrize("steps", [0, 60])
def test_every_pax_map_draws_every_city_of_its_map(game_map: str, steps: int) -> None:
    game = played("pax", 4, steps, seed=f"map-{game_map}", map=game_map)
    svg = draw(game, None)
    assert problems(svg) == []
    root = parse(svg)
    view = _view(game)
    drawn = ids(root, "city-")
    assert len(drawn) == sum(len(e["cities"]) for e in view["map"])  # empty cities too
    assert drawn <= set(layout_for("pax")["maps"][game_map]["cities"])
    assert ids(root, "empire-") == {e["id"] for e in view["map"]}
    assert ids(root, "border-") == set(layout_for("pax")["maps"][game_map]["borders"])
    assert ids(root, "bank-") == {p["bank"] for p in view["players"]}


def test_the_promo_map_has_kviv_the_byzantine_square_and_two_constantinople_slots() -> None:
    promo = parse(draw(played("pax", 3, 0, map="age_of_reformation"), None))
    assert "kviv" in ids(promo, "city-")
    assert "constantinople_3" not in ids(promo, "city-")
    assert "byzantine" in ids(promo, "victory-")
    default = parse(draw(played("pax", 3, 0), None))
    assert "kviv" not in ids(default, "city-")
    assert "constantinople_3" in ids(default, "city-")
    assert "byzantine" not in ids(default, "victory-")


def test_a_city_says_its_token_and_a_border_its_concession() -> None:
    game = played("pax", 4, 0)
    svg = draw(game, None)
    view = _view(game)
    toledo = next(c for e in view["map"] for c in e["cities"] if c["name"] == "Toledo")
    assert f"Toledo (Portugal) capital: {toledo['token']}" in svg
    held = next(b for e in view["map"] for b in e["borders"] if b["concession"])
    kind = "sea" if held["sea"] else "land"
    assert f"{held['name']} ({kind} border): {held['concession']}'s concession" in svg


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("steps", [0, 150])
def test_aor_draws_every_province_and_sea_zone(players: int, steps: int) -> None:
    game = played("aor", players, steps, seed=f"aor-{players}", end="epoch1")
    svg = draw(game, game.gf.player_ids()[0])
    assert problems(svg) == []
    root = parse(svg)
    catalog = rulesets.catalog_for(game.ruleset.name)
    assert ids(root, "province-") == set(catalog.provinces)
    assert ids(root, "sea-") == set(catalog.seas)
    assert ids(root, "player-") == set(game.gf.player_ids())


def test_a_dominated_province_names_its_player() -> None:
    game = played("aor", 3, 150, seed="aor-3", end="epoch1")
    provinces = _view(game)["provinces"]
    held = {pid: r["marker"] for pid, r in provinces.items() if r.get("marker")}
    assert held  # the play-out reached the board
    svg = draw(game, None)
    catalog = rulesets.catalog_for(game.ruleset.name)
    for pid, player in held.items():
        assert f"{catalog.provinces[pid].name} (" in svg
        assert f"dominated by {player}" in svg


def test_a_problem_is_found_when_there_is_one() -> None:
    bad = ('<svg xmlns="http://www.w3.org/2000/svg"><title>t</title><rect x="0"/>'
           '<image href="http://example.org/a.png"><title>i</title></image><script>1</script></svg>')
    found = problems(bad)
    assert "<rect> without a title" in found
    assert "<image> element" in found and "<script> element" in found
    assert any(p.startswith("external reference") for p in found)


def test_a_comet_in_the_market_and_a_pirate_at_sea_are_marked() -> None:
    game = played("pax", 4, 0)
    model = report_model(game, None)
    slot = model["view"]["market"]["west"][2]
    slot["card"] = {**slot["card"], "kind": "comet"}
    border = next(b for e in model["view"]["map"] for b in e["borders"] if b["sea"])
    border["pirate"] = "islamic pirate"
    svg = rulesets.board_drawer(game.ruleset.name)(model, layout_for(game.ruleset.name))
    assert problems(svg) == []
    assert f"{slot['card']['name']} (comet," in svg and ">☄<" in svg and ">cost 2 · comet<" in svg
    assert f"{border['name']} (sea border): " in svg and "; islamic pirate</title>" in svg
    assert "islamic pirate in " + border["name"] in svg


def test_an_empire_in_a_tableau_names_its_bank() -> None:
    game = played("pax", 4, 120)
    svg = draw(game, None)
    ruled = [e for e in _view(game)["map"] if e["ruler"] != "throne"]
    assert ruled  # the play-out crowned someone
    for empire in ruled:
        assert f"{empire['name']}: {empire['side']}, " in svg
        assert f"in {empire['ruler']}'s tableau" in svg


def test_astrology_and_open_hands_draw_every_hand() -> None:
    game = played("pax", 4, 40, astrology=True, open_hands=True)
    svg = draw(game, None)
    assert problems(svg) == []
    banks = _view(game)["players"]
    assert any(bank["hand"] for bank in banks)
    for bank in banks:
        for card in bank["hand"]:
            assert f"{bank['bank']} hand: {card['name']}" in svg
