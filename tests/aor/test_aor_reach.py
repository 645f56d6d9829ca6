"""9.5 and 9.4.1 reach: land, Caravan, galleys along one coast (R27), The Heavens, seaworthy and
ocean-going ships, Region V and the overseas boxes (4.1, R24, R29, R43, R48)."""

from __future__ import annotations

from engine.aor.model import player
from engine.aor.reach import caravan_reach, land_reach, reach, sea_reach
from tests.aor.helpers import aor, game, marker, own, tokens

FIVE = {"venice": "venice", "genoa": "genoa", "barcelona": "barcelona", "paris": "paris",
        "london": "london"}
SIX = {**FIVE, "hamburg": "hamburg"}
LONDON_BY_GALLEY_2 = {"edinburg", "york", "portsmouth", "cornwall", "st_malo", "paris", "bruges",
                      "amsterdam"}


def fleet(state: dict[str, object], pid: str, stage: str, box: int) -> None:
    player(state, pid)["fleet"] = {"stage": stage, "box": box}


def test_9_4_1_london_with_galley_2_reaches_exactly_eight_provinces_by_sea() -> None:
    state = game(FIVE)
    fleet(state, "london", "galley", 1)
    assert set(sea_reach(aor(), state, "london")) == LONDON_BY_GALLEY_2
    assert set(sea_reach(aor(), state, "london").values()) == {2}  # 2 tokens into each
    assert set(reach(aor(), state, "london")) == LONDON_BY_GALLEY_2 | {"london", "chester"}
    assert reach(aor(), state, "london")["portsmouth"] is None  # also by land: no limit


def test_9_4_1_paris_needs_a_fleet_to_place_in_london() -> None:
    state = game(FIVE)
    assert "london" not in reach(aor(), state, "paris")
    fleet(state, "paris", "galley", 1)
    assert reach(aor(), state, "paris")["london"] == 2
    fleet(state, "paris", "seaworthy", 1)
    assert reach(aor(), state, "paris")["london"] == 10


def test_9_4_1_the_heavens_at_stockholm() -> None:
    """From a token in Stockholm a galley 2 reaches Danzig and Riga across the Baltic with The
    Heavens; without it only along the coast, as far as Stettin."""
    state = game(SIX)
    tokens(state, "hamburg", "stockholm", 1)
    fleet(state, "hamburg", "galley", 1)
    along = set(sea_reach(aor(), state, "hamburg"))
    assert "stettin" in along and not {"danzig", "riga"} & along
    own(state, "hamburg", "the_heavens")
    across = set(sea_reach(aor(), state, "hamburg"))
    assert {"danzig", "riga"} <= across and along <= across


def test_9_4_1_galley_capacity_is_also_its_range() -> None:
    state = game(FIVE)
    fleet(state, "london", "galley", 2)
    far = sea_reach(aor(), state, "london")
    assert set(far) > LONDON_BY_GALLEY_2 and set(far.values()) == {4}
    assert "chester" in far  # around Cornwall, on Portsmouth's other coast


def test_4_1_iceland_and_west_africa_need_the_heavens_or_seaworthy_vessels() -> None:
    state = game(FIVE)
    fleet(state, "london", "galley", 4)
    tokens(state, "london", "edinburg", 1)
    tokens(state, "london", "seville", 1)
    assert not {"iceland", "west_africa"} & set(reach(aor(), state, "london"))
    own(state, "london", "the_heavens")
    assert {"iceland", "west_africa"} <= set(reach(aor(), state, "london"))
    other = game(FIVE)
    fleet(other, "london", "seaworthy", 1)
    assert {"iceland", "west_africa"} <= set(reach(aor(), other, "london"))


def test_9_4_1_seaworthy_vessels_reach_every_coastal_province_but_overseas_and_region_v() -> None:
    state = game(FIVE)
    fleet(state, "london", "seaworthy", 3)
    found = sea_reach(aor(), state, "london")
    assert "tunis" in found and "dijon" not in found and set(found.values()) == {14}
    assert not {"china", "india", "north_america", "trebizond"} & set(found)
    own(state, "london", "overland_east")
    assert "trebizond" in sea_reach(aor(), state, "london")  # R: not even by sea without it


def test_9_4_1_ocean_navigation_opens_the_orient_one_box_per_level_and_new_world_needs_u() -> None:
    state = game(FIVE)
    own(state, "london", "ocean_navigation", "the_heavens", "seaworthy_vessels")
    fleet(state, "london", "ocean", 1)
    found = sea_reach(aor(), state, "london")
    assert {"china", "east_indies", "india"} <= set(found) and found["china"] is None
    assert not {"north_america", "south_america"} & set(found)
    tokens(state, "london", "india", 1)
    assert set(reach(aor(), state, "london")) & {"china", "east_indies", "india"} == {"india"}
    fleet(state, "london", "ocean", 2)
    own(state, "london", "new_world", "urban_ascendancy")
    assert {"china", "north_america", "south_america"} <= set(sea_reach(aor(), state, "london"))


def test_8_2_r29_nothing_is_placed_outside_the_regions_in_play() -> None:
    state = game({"venice": "venice", "genoa": "genoa", "barcelona": "barcelona"})
    found = set(land_reach(aor(), state, "venice"))
    assert found == {"venice", "dubrovnik", "florence", "milan"}  # Salzburg, St. Galt, Vienna: III
    fleet(state, "venice", "seaworthy", 1)
    assert "london" not in reach(aor(), state, "venice")


def test_9_5_tokens_placed_this_turn_are_no_base() -> None:
    state = game(FIVE)
    tokens(state, "venice", "belgrade", 1, new=True)
    assert "budapest" not in reach(aor(), state, "venice")
    state["provinces"]["belgrade"] = {"marker": None, "tokens": {"venice": 1}, "new": {}}
    assert "budapest" in reach(aor(), state, "venice")


def test_9_5_a_capital_held_by_an_opponent_is_still_a_base() -> None:
    state = game(FIVE)
    state["provinces"]["venice"]["marker"] = "genoa"
    assert "dubrovnik" in reach(aor(), state, "venice")


def test_i_caravan_skips_one_province_an_opponent_does_not_control() -> None:
    state = game({"venice": "venice", "genoa": "genoa", "barcelona": "barcelona"})
    assert caravan_reach(aor(), state, "genoa") == set()
    own(state, "genoa", "caravan")
    assert "bordeaux" in caravan_reach(aor(), state, "genoa")  # through Lyons
    tokens(state, "venice", "lyons", 2)  # opposing tokens below the market size: no bar (example 3)
    assert "bordeaux" in caravan_reach(aor(), state, "genoa")
    marker(state, "venice", "lyons")  # now Venice controls Lyons
    assert "bordeaux" not in caravan_reach(aor(), state, "genoa")
    state["provinces"]["lyons"]["marker"] = "genoa"  # one's own control is no bar
    assert "bordeaux" in caravan_reach(aor(), state, "genoa")


def test_r43_caravan_does_not_pass_through_a_region_the_player_may_not_enter() -> None:
    state = game(FIVE)
    own(state, "venice", "caravan")
    tokens(state, "venice", "constantinople", 1)
    assert "trebizond" not in caravan_reach(aor(), state, "venice")  # V without Overland East
    assert "angora" not in reach(aor(), state, "venice")
    own(state, "venice", "overland_east")
    assert "trebizond" in caravan_reach(aor(), state, "venice") and "angora" in reach(aor(), state, "venice")



def test_r48_ships_pass_along_coasts_held_by_opponents() -> None:
    state = game(FIVE)
    fleet(state, "london", "galley", 1)
    marker(state, "paris", "york")
    assert {"york", "edinburg"} <= set(sea_reach(aor(), state, "london"))
