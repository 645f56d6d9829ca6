"""Money and misery: 9.3.1 and 9.6.1 payouts, shortage and surplus (R06, R32, R39, R47), 9.1
removal and Wind/Watermill, 9.4.3 stabilization (R11) and relief (R08), 9.6 income."""

from __future__ import annotations

import pytest

from engine.aor.dice import Roll
from engine.aor.economy import (
    apply_relief,
    income,
    income_phase,
    interest,
    relief_steps,
    stabilization_cost,
    stabilization_options,
    stabilize,
)
from engine.aor.market import (
    apply_market_roll,
    level,
    mill,
    mill_options,
    payout,
    play_commodity,
    removal_options,
    remove_level,
    roll_markets,
)
from engine.aor.model import add_to_hand, eliminate, player
from engine.core.errors import IllegalOrder
from tests.aor.helpers import ScriptedChance, aor, dice, game, marker, own

FOUR = {"venice": "venice", "genoa": "genoa", "barcelona": "barcelona", "paris": "paris"}


def wine_board() -> dict[str, object]:
    """9.3.1: Barcelona dominates Barcelona, Lisbon and Marseilles; Paris dominates Strassburg."""
    state = game(FOUR, order=["barcelona", "paris", "venice", "genoa"])
    marker(state, "barcelona", "lisbon")
    marker(state, "barcelona", "marseilles")
    marker(state, "paris", "strassburg")
    return state


def cash(state: dict[str, object], *pids: str) -> list[int]:
    return [player(state, p)["cash"] for p in pids]


def test_9_3_1_example_wine_pays_45_and_5_and_20_with_industry() -> None:
    state = wine_board()
    assert (payout(aor(), state, "barcelona", "wine"), payout(aor(), state, "paris", "wine")) == (45, 5)
    assert play_commodity(aor(), state, "wine_cloth_e1", "wine") == {"barcelona": 45, "paris": 5}
    assert cash(state, "barcelona", "paris", "venice") == [85, 45, 40]
    own(state, "paris", "industry")
    assert payout(aor(), state, "paris", "wine") == 20
    assert payout(aor(), state, "venice", "wine") == 0  # Industry needs a province of it (M)
    with pytest.raises(IllegalOrder, match="does not pay"):
        play_commodity(aor(), state, "wine_cloth_e1", "metal")


def hand(state: dict[str, object], pid: str, count: int) -> None:
    for index in range(count):
        add_to_hand(state, pid, "stone_e1a", f"x{index}")


def test_9_6_1_example_surplus_of_wine() -> None:
    """Black 4 + white 3 = Wine, green 4: surplus. Barcelona pays 3; a Wine card then pays
    Barcelona 20 instead of 45 and Paris nothing; a second Wine card pays in full."""
    state = wine_board()
    rolled = apply_market_roll(aor(), state, Roll(4, 4, 3), ScriptedChance({}), "m")
    assert (rolled.commodities, rolled.shortage, rolled.fines) == (("wine",), False, {"barcelona": 3})
    assert level(state, "wine") == -1 and cash(state, "barcelona") == [37]
    assert play_commodity(aor(), state, "wine_e2", "wine") == {"barcelona": 20}
    assert play_commodity(aor(), state, "wine_e3", "wine") == {"barcelona": 45, "paris": 5}


def test_9_6_1_example_shortage_of_wine_gives_a_free_card_and_80_and_20() -> None:
    state = wine_board()
    chance = ScriptedChance({"m card barcelona": "stirrups"})
    state["deck"] = ["armor", "stirrups"]
    rolled = apply_market_roll(aor(), state, Roll(2, 4, 3), chance, "m")
    assert rolled.shortage and rolled.top == {"wine": "barcelona"} and rolled.fines == {}
    assert list(player(state, "barcelona")["hand"].values()) == ["stirrups"]
    assert play_commodity(aor(), state, "wine_e2", "wine") == {"barcelona": 80, "paris": 20}


def test_9_6_1_example_the_first_player_pays_5_to_remove_the_surplus() -> None:
    state = wine_board()
    apply_market_roll(aor(), state, Roll(5, 4, 3), ScriptedChance({}), "m")
    assert removal_options(aor(), state, "paris") == []  # only the first player
    assert remove_level(aor(), state, "barcelona", "wine") == 5
    assert cash(state, "barcelona") == [32]  # the 3-ducat penalty stays paid
    assert play_commodity(aor(), state, "wine_e2", "wine") == {"barcelona": 45, "paris": 5}


def test_9_6_1_ties_do_nothing_double_markers_and_cancelling() -> None:
    state = wine_board()
    marker(state, "paris", "bordeaux")  # timber: no tie; wine is 3 to 1
    marker(state, "venice", "dubrovnik")  # timber 1 to 1: tie
    rolled = apply_market_roll(aor(), state, Roll(6, 2, 2), ScriptedChance({}), "m")
    assert rolled.commodities == ("timber",) and rolled.top == {} and rolled.fines == {}
    apply_market_roll(aor(), state, Roll(6, 2, 2), ScriptedChance({}), "m2")
    assert level(state, "timber") == -2  # double surplus: needs two cards (9.6.1)
    assert payout(aor(), state, "paris", "timber") == 0  # effects are not doubled: 1 - 1 = 0
    play_commodity(aor(), state, "timber_e1", "timber")
    assert level(state, "timber") == -1
    apply_market_roll(aor(), state, Roll(1, 2, 2), ScriptedChance({}), "m3")
    assert level(state, "timber") == 0  # a shortage and a surplus cancel out


def test_r32_a_surplus_fine_is_capped_at_cash() -> None:
    state = wine_board()
    player(state, "barcelona")["cash"] = 2
    rolled = apply_market_roll(aor(), state, Roll(4, 4, 3), ScriptedChance({}), "m")
    assert rolled.fines == {"barcelona": 2} and cash(state, "barcelona") == [0]


def test_9_6_1_two_rolls_twelve_names_gold_and_ivory_and_r47_old_markers_go() -> None:
    state = wine_board()
    state["markets"] = {"stone": 2}
    chance = ScriptedChance({**dice("market turn 1 roll 1", 3, 6, 6),
                             **dice("market turn 1 roll 2", 5, 1, 1)})
    rolls = roll_markets(aor(), state, chance)
    assert [r.commodities for r in rolls] == [("gold", "ivory"), ("stone",)]
    assert state["markets"] == {"gold": 1, "ivory": 1, "stone": -1}  # last turn's double shortage gone


def test_9_1_j_wind_watermill_moves_grain_cloth_wine_or_metal_one_step() -> None:
    state = wine_board()
    own(state, "venice", "wind_watermill")
    own(state, "genoa", "wind_watermill")
    assert mill_options(aor(), state, "genoa") == []  # only the first owner in the order
    assert ("wine", 1) in mill_options(aor(), state, "venice")
    assert not any(c == "stone" for c, _ in mill_options(aor(), state, "venice"))
    state["markets"] = {"wine": 2}
    assert ("wine", 1) not in mill_options(aor(), state, "venice")
    mill(aor(), state, "venice", "wine", -1)
    assert level(state, "wine") == 1


@pytest.mark.parametrize(("space", "cards", "expected"), [(90, 5, 125), (100, 6, 125), (0, 0, 0), (0, 1, 10)])
def test_9_4_3_stabilization_examples(space: int, cards: int, expected: int) -> None:
    """Paris at 90 with 5 cards does not pay 15: 100 is short of it, so on to 125. Genoa at 100
    with 6 cards does not pay 21: one space, to 125."""
    state = wine_board()
    player(state, "paris")["misery"] = space
    hand(state, "paris", cards)
    assert stabilization_cost(aor(), state, "paris") == cards * (cards + 1) // 2
    if cards:
        stabilize(aor(), state, "paris", "misery")
    assert player(state, "paris")["misery"] == expected


def test_9_4_3_stabilization_pay_in_full_or_not_at_all_and_middle_class_halves_rounding_up() -> None:
    state = wine_board()
    hand(state, "paris", 5)
    player(state, "paris")["cash"] = 14
    assert stabilization_options(aor(), state, "paris") == ["misery"]
    with pytest.raises(IllegalOrder):
        stabilize(aor(), state, "paris", "pay")
    own(state, "paris", "middle_class")
    assert stabilization_cost(aor(), state, "paris") == 8
    assert stabilize(aor(), state, "paris", "pay") == 8 and cash(state, "paris") == [6]
    assert stabilization_options(aor(), state, "venice") == []  # no cards, nothing owed


def test_9_4_3_elimination_past_1000() -> None:
    state = wine_board()
    player(state, "paris")["misery"] = 900
    hand(state, "paris", 20)  # 210 ducats unpaid
    stabilize(aor(), state, "paris", "misery")
    assert player(state, "paris")["eliminated"] and "paris" not in state["order"]  # R09
    assert player(state, "paris")["hand"] == {} and state["reusable"].count("stone_e1a") == 20


def test_r08_misery_relief_each_turn_for_the_first_two_three_or_all() -> None:
    state = wine_board()
    player(state, "venice")["misery"] = 100
    own(state, "venice", "the_heavens", "human_body", "caravan", "wind_watermill", "written_record")
    assert relief_steps(aor(), state, "venice") == 0  # Printed Word missing
    own(state, "venice", "printed_word", this_turn=True)
    assert apply_relief(aor(), state, "venice") == 1 and player(state, "venice")["misery"] == 90
    own(state, "venice", "laws_of_matter", "improved_agriculture", "master_art")
    assert relief_steps(aor(), state, "venice") == 2
    own(state, "venice", "enlightenment", "interest_and_profit", "industry", "renaissance")
    assert relief_steps(aor(), state, "venice") == 3
    player(state, "venice")["misery"] = 10
    assert apply_relief(aor(), state, "venice") == 1 and player(state, "venice")["misery"] == 0


def test_9_6_example_london_income_100_and_interest_and_profit_100() -> None:
    five = {"venice": "venice", "genoa": "genoa", "barcelona": "barcelona", "paris": "paris",
            "london": "london"}
    state = game(five)
    more = [p.id for p in aor().provinces.values() if not p.satellite and not p.capital][:16]
    for where in more:
        marker(state, "london", where)
    player(state, "london")["cash"] = 108
    assert income(aor(), state, "london") == 100
    own(state, "london", "interest_and_profit")
    assert interest(aor(), state, "london") == 100
    paid = income_phase(aor(), state)
    assert (paid["london"].interest, paid["london"].income) == (100, 100)
    assert cash(state, "london") == [308]
    assert paid["venice"].income == 15 + 5  # its capital's marker


def test_9_6_middle_class_enlightenment_and_no_income_when_eliminated() -> None:
    state = wine_board()
    own(state, "barcelona", "middle_class", "interest_and_profit", "enlightenment")
    player(state, "barcelona")["misery"] = 30
    player(state, "barcelona")["cash"] = 500
    assert income(aor(), state, "barcelona") == 15 + 3 * 4 + 10
    assert interest(aor(), state, "barcelona") == 37  # capped by income, Middle Class included
    eliminate(aor(), state, "venice")
    paid = income_phase(aor(), state)
    assert "venice" not in paid and paid["barcelona"].enlightenment == 1
    assert player(state, "barcelona")["misery"] == 20 and cash(state, "barcelona") == [574]
