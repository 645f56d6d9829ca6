"""The Acquisition Phase: 9.4.1 fleet, 9.4.2 Advances with credits (R12), prerequisites,
Institutional Research, 9.3.3 leaders with Patronage and Printed Word (R13, R37), Papal Decree
(R14), misery on purchase (9.4.3), and the 11.2 score."""

from __future__ import annotations

import pytest

from engine.aor.advances import (
    buy_advance,
    can_raise_fleet,
    claims_left,
    leaders_leave,
    play_leader,
    price,
    purchase_options,
    purchase_problem,
    raise_fleet,
)
from engine.aor.model import player, settle_advances
from engine.aor.reach import fleet
from engine.aor.victory import score, standings, winners
from engine.core.errors import IllegalOrder
from tests.aor.helpers import aor, game, own, play

THREE = {"venice": "venice", "genoa": "genoa", "barcelona": "barcelona"}
FIVE = {**THREE, "paris": "paris", "london": "london"}


def rich(capitals: dict[str, str] = THREE) -> dict[str, object]:
    state = game(capitals)
    for data in state["players"].values():
        data["cash"] = 1000
    return state


def test_9_4_2_credits_count_from_the_turn_after_purchase_within_the_group() -> None:
    state = rich()
    assert price(aor(), state, "venice", "laws_of_matter") == 90
    buy_advance(aor(), state, "venice", "the_heavens")
    assert price(aor(), state, "venice", "laws_of_matter") == 90  # no credit in the same turn
    settle_advances(state)
    assert price(aor(), state, "venice", "laws_of_matter") == 70
    assert price(aor(), state, "venice", "patronage") == 30  # another group
    own(state, "venice", "urban_ascendancy", "nationalism", "institutional_research")
    assert price(aor(), state, "venice", "cosmopolitan") == 150 - 90
    assert price(aor(), state, "venice", "middle_class") == 170 - 90


def test_9_4_2_institutional_research_works_at_once_but_not_on_religion_or_civics() -> None:
    state = rich()
    buy_advance(aor(), state, "venice", "institutional_research")
    assert price(aor(), state, "venice", "the_heavens") == 20
    assert price(aor(), state, "venice", "caravan") == 10
    assert price(aor(), state, "venice", "patronage") == 30
    assert price(aor(), state, "venice", "nationalism") == 60  # its own credit waits a turn
    own(state, "venice", "written_record")
    assert price(aor(), state, "venice", "printed_word") == 60 - 30 - 10
    own(state, "venice", "caravan", "wind_watermill", "improved_agriculture", "interest_and_profit")
    assert price(aor(), state, "venice", "industry") == 110 - 40 - 10


def test_9_4_2_prerequisites_may_be_bought_first_in_the_same_turn() -> None:
    state = rich()
    assert str(purchase_problem(aor(), state, "venice", "cathedral")) == \
        "Cathedral needs Holy Indulgence first"
    with pytest.raises(IllegalOrder, match="needs Holy Indulgence"):
        buy_advance(aor(), state, "venice", "cathedral")
    buy_advance(aor(), state, "venice", "holy_indulgence")
    buy_advance(aor(), state, "venice", "cathedral")
    assert str(purchase_problem(aor(), state, "venice", "new_world")) == \
        "New World needs Urban Ascendancy and Ocean Navigation first"
    assert "already owns" in str(purchase_problem(aor(), state, "venice", "cathedral"))


def test_9_4_3_misery_on_purchase_religion_up_human_body_and_agriculture_down() -> None:
    state = rich()
    player(state, "venice")["misery"] = 50
    buy_advance(aor(), state, "venice", "patronage")
    assert player(state, "venice")["misery"] == 60
    buy_advance(aor(), state, "venice", "human_body")
    own(state, "venice", "caravan", "wind_watermill")
    buy_advance(aor(), state, "venice", "improved_agriculture")
    assert player(state, "venice")["misery"] == 40


def test_9_4_2_too_little_cash() -> None:
    state = game(THREE)
    player(state, "venice")["cash"] = 39
    assert "costs 60 ducats" in str(purchase_problem(aor(), state, "venice", "human_body"))
    assert [o.advance for o in purchase_options(aor(), state, "venice")] == \
        ["the_heavens", "patronage", "caravan", "written_record", "urban_ascendancy"]


def test_a2_r14_papal_decree_bars_the_other_players_unless_religious_strife() -> None:
    state = rich()
    state["round"]["papal_decree"] = {"player": "venice", "group": "science"}
    assert "Papal Decree" in str(purchase_problem(aor(), state, "genoa", "the_heavens"))
    assert purchase_problem(aor(), state, "venice", "the_heavens") is None
    assert purchase_problem(aor(), state, "genoa", "patronage") is None
    play(state, "barcelona", "religious_strife")
    assert purchase_problem(aor(), state, "genoa", "the_heavens") is None


def test_9_3_3_own_leader_discount_and_one_leader_per_advance() -> None:
    state = rich()
    play_leader(aor(), state, "venice", "rashid_ad_din")
    play_leader(aor(), state, "venice", "dionysus_exiguus")
    lines = [o.line for o in purchase_options(aor(), state, "venice") if o.advance == "written_record"]
    assert lines == ["buy written_record", "buy written_record with rashid_ad_din",
                     "buy written_record with dionysus_exiguus"]
    assert buy_advance(aor(), state, "venice", "written_record", "dionysus_exiguus").price == 10
    assert buy_advance(aor(), state, "venice", "overland_east", "rashid_ad_din").price == 30
    assert "no discount" in str(purchase_problem(aor(), state, "genoa", "written_record", "rashid_ad_din"))


def test_e_patronage_claims_by_protected_slot_three_players() -> None:
    """3-4 players: the first leader is fully protected, the second once, the rest freely."""
    state = rich()
    for pid in ("genoa", "barcelona"):
        own(state, pid, "patronage")
    for leader in ("charlemagne", "dionysus_exiguus", "st_benedict"):
        play_leader(aor(), state, "venice", leader)
    assert [claims_left(aor(), state, c) for c in ("charlemagne", "dionysus_exiguus", "st_benedict")] == \
        [0, 1, None]
    assert purchase_problem(aor(), state, "genoa", "nationalism", "charlemagne") is not None
    buy_advance(aor(), state, "genoa", "written_record", "dionysus_exiguus")
    assert purchase_problem(aor(), state, "barcelona", "written_record", "dionysus_exiguus") is not None
    buy_advance(aor(), state, "barcelona", "written_record", "st_benedict")
    assert buy_advance(aor(), state, "genoa", "urban_ascendancy").price == 20
    leaders_leave(aor(), state)
    assert state["round"]["leaders"] == [] and "st_benedict" in state["removed"]


def test_e_five_players_protect_three_leaders() -> None:
    state = rich(FIVE)
    for leader in ("charlemagne", "dionysus_exiguus", "st_benedict", "rashid_ad_din"):
        play_leader(aor(), state, "venice", leader)
    assert [claims_left(aor(), state, c) for c in
            ("charlemagne", "dionysus_exiguus", "st_benedict", "rashid_ad_din")] == [0, 1, 2, None]


def test_a3_r37_walter_and_marco_polo_are_boosted_by_their_events() -> None:
    state = rich()
    play_leader(aor(), state, "venice", "walter_the_penniless")
    assert price(aor(), state, "venice", "overland_east", "walter_the_penniless") == 20
    play(state, "genoa", "the_crusades")
    assert price(aor(), state, "venice", "overland_east", "walter_the_penniless") == 10
    play_leader(aor(), state, "genoa", "marco_polo")
    play(state, "barcelona", "mongol_armies")
    assert price(aor(), state, "genoa", "overland_east", "marco_polo") == 0
    own(state, "genoa", "overland_east")
    assert price(aor(), state, "genoa", "cosmopolitan", "marco_polo") == 110


def test_o_printed_word_pays_discounts_on_advances_from_earlier_turns() -> None:
    state = rich()
    own(state, "venice", "written_record", "printed_word", "overland_east")
    own(state, "venice", "patronage", this_turn=True)
    assert play_leader(aor(), state, "venice", "st_benedict") == 10  # Written Record only
    assert play_leader(aor(), state, "venice", "rashid_ad_din") == 20
    assert player(state, "venice")["cash"] == 1030
    assert play_leader(aor(), state, "genoa", "dionysus_exiguus") == 0  # no Printed Word


def test_9_4_1_fleet_one_box_a_turn_no_jump_between_rows_and_s_t_set_rows() -> None:
    state = rich()
    assert fleet(aor(), state, "venice") == ("none", 0)
    raise_fleet(aor(), state, "venice")
    assert fleet(aor(), state, "venice") == ("galley", 2) and player(state, "venice")["cash"] == 990
    assert not can_raise_fleet(aor(), state, "venice")
    with pytest.raises(IllegalOrder):
        raise_fleet(aor(), state, "venice")
    player(state, "venice")["fleet"] = {"stage": "galley", "box": 4}
    state["round"]["fleet_raised"] = []
    assert not can_raise_fleet(aor(), state, "venice")  # galley 8 does not buy seaworthy 10
    buy_advance(aor(), state, "venice", "seaworthy_vessels")
    assert fleet(aor(), state, "venice") == ("seaworthy", 10)
    raise_fleet(aor(), state, "venice")
    assert fleet(aor(), state, "venice") == ("seaworthy", 12)
    own(state, "venice", "the_heavens")
    buy_advance(aor(), state, "venice", "ocean_navigation")
    assert fleet(aor(), state, "venice") == ("ocean", 1)


def test_11_2_score_is_advances_plus_cash_less_misery_and_ties_share() -> None:
    state = game(THREE)
    own(state, "venice", "the_heavens", "caravan")
    player(state, "venice").update(cash=100, misery=30)
    assert score(aor(), state, "venice") == 30 + 20 + 100 - 30
    player(state, "genoa").update(cash=120, misery=0)
    assert standings(aor(), state)[:2] == [("genoa", 120), ("venice", 120)]
    assert winners(aor(), state) == ["genoa", "venice"]
