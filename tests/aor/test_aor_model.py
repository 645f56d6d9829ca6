"""The state layout and its named operations: misery track (R09, R11), tokens and markers (5.2,
9.3.2, 9.5.4), hands and labels (R36), the deck across Epochs (4.7, 8.1, R30), and the Expansion
Phase around battles (9.5, 9.5.1, 9.5.3, F, R03, R04, R19)."""

from __future__ import annotations

import pytest
import yaml

from engine.aor.board import (
    consolidate,
    controller,
    convert_marker,
    markers_in_stock,
    reduce_marker,
    tokens_in,
)
from engine.aor.deck import draw_card, draw_to_hand, join_set_aside, refill
from engine.aor.expansion import (
    bonus_card_winner,
    buy_card,
    can_buy_card,
    card_price,
    end_expansion,
    holy_indulgence,
    place,
    placement_limit,
)
from engine.aor.invariants import check_invariants, problems
from engine.aor.model import add_to_hand, label_of, misery_down, misery_up, player
from engine.core.chance import SeededChance, derive_label
from engine.core.errors import IllegalOrder, InvariantViolation
from tests import fast_yaml
from tests.aor.helpers import ScriptedChance, aor, game, marker, own, tokens

THREE = {"venice": "venice", "genoa": "genoa", "barcelona": "barcelona"}


def test_misery_moves_by_track_spaces_and_stops_at_zero() -> None:
    state = game(THREE)
    misery_up(aor(), state, "venice", 11)
    assert player(state, "venice")["misery"] == 125
    assert misery_down(aor(), state, "venice", 20) == 11 and player(state, "venice")["misery"] == 0


def test_r09_reaching_1000_is_not_elimination_passing_it_is() -> None:
    state = game(THREE)
    player(state, "venice")["misery"] = 900
    assert not misery_up(aor(), state, "venice", 1) and player(state, "venice")["misery"] == 1000
    assert misery_up(aor(), state, "venice", 1) and player(state, "venice")["eliminated"]
    assert state["order"] == ["genoa", "barcelona"]


def test_5_2_tokens_and_markers_are_conserved_by_layout() -> None:
    state = game(THREE)
    check_invariants(aor(), state)
    tokens(state, "venice", "milan", 3)
    assert markers_in_stock(aor(), state, "venice") == 24 and controller(aor(), state, "milan") == "venice"
    consolidate(aor(), state)  # 9.5.4: a full market becomes a marker
    assert state["provinces"]["milan"] == {"marker": "venice", "tokens": {}, "new": {}}
    assert player(state, "venice")["stock"] == 36 and markers_in_stock(aor(), state, "venice") == 23
    check_invariants(aor(), state)
    player(state, "venice")["stock"] -= 1
    assert any("35 tokens" in p for p in problems(aor(), state))


def test_9_3_2_a_reduced_marker_becomes_a_token_if_one_is_left() -> None:
    state = game(THREE)
    marker(state, "genoa", "milan")
    assert reduce_marker(state, "milan") and tokens_in(state, "milan", "genoa") == 1
    marker(state, "genoa", "florence")
    player(state, "genoa").update(stock=0, purchased=0)
    state["players"]["genoa"]["stock"] = 0
    assert not reduce_marker(state, "florence") and "florence" not in state["provinces"]


def test_9_5_2_with_every_marker_on_the_board_one_may_become_a_token() -> None:
    state = game(THREE)
    marker(state, "genoa", "milan")
    convert_marker(state, "genoa", "milan")
    assert state["provinces"]["milan"] == {"marker": None, "tokens": {"genoa": 1}, "new": {}}
    with pytest.raises(InvariantViolation):
        convert_marker(state, "venice", "genoa")
    check_invariants(aor(), state)


def test_invariants_catch_an_overfilled_market_outside_a_battle() -> None:
    state = game(THREE)
    tokens(state, "venice", "milan", 2)
    tokens(state, "genoa", "milan", 2)
    assert any("milan holds 4" in p for p in problems(aor(), state))
    assert problems(aor(), state, in_battle="milan") == []
    with pytest.raises(InvariantViolation):
        check_invariants(aor(), state)


def test_r36_identical_cards_are_played_lowest_id_first_by_label() -> None:
    state = game(THREE)
    add_to_hand(state, "venice", "stone_e1b", "k7")
    add_to_hand(state, "venice", "stone_e1a", "zz")
    assert label_of(state, "venice", "stone_e1a") == "zz"
    with pytest.raises(InvariantViolation):
        add_to_hand(state, "venice", "wool_e1a", "k7")


def test_r30_an_empty_deck_takes_the_next_epoch_and_the_reusable_pile() -> None:
    state = game(THREE)
    state.update(deck=[], reusable=["stone_e1a"], epochs={"2": ["grain_e2a"], "3": ["gold_e3"]})
    assert draw_card(state, ScriptedChance({"p": "grain_e2a"}), "p") == "grain_e2a"
    assert (state["epoch"], state["deck"], state["reusable"]) == (2, ["stone_e1a"], [])
    state.update(deck=[], reusable=["wool_e1a"])
    assert refill(state) and state["epoch"] == 3 and state["deck"] == ["gold_e3", "wool_e1a"]
    state.update(deck=[], reusable=["fur_e3"])
    assert refill(state) and state["deck"] == ["fur_e3"]  # after Epoch 3: the pile alone
    state.update(deck=[], reusable=[])
    assert draw_card(state, ScriptedChance({}), "p") is None


def test_8_1_set_aside_cards_join_at_turn_2_with_five_players() -> None:
    state = game(THREE)
    state.update(deck=["armor"], set_aside=["silk_e1", "spice_e1"])
    join_set_aside(state)
    assert state["deck"] == ["armor", "silk_e1", "spice_e1"] and state["set_aside"] == []


def test_private_draws_get_labels_that_say_nothing_about_the_card() -> None:
    state = game(THREE)
    state["deck"] = ["armor", "stirrups"]
    chance = SeededChance(b"x", "g", 0)
    label = draw_to_hand(state, chance, "venice", "draw venice turn 1")
    assert label == derive_label(b"x", "g", 0, "draw venice turn 1")
    assert chance.draws[0].purpose == "draw venice turn 1"
    custom = draw_to_hand(state, chance, "venice", "draw venice turn 2", lambda purpose, taken: "q9")
    assert custom == "q9" and sorted(player(state, "venice")["hand"]) == sorted([label, "q9"])


def test_yaml_round_trip_of_a_played_state() -> None:
    state = game(THREE)
    tokens(state, "venice", "milan", 2, new=True)
    state["markets"] = {"wine": -2}
    assert fast_yaml.safe_load(yaml.safe_dump(state)) == state


# --- the Expansion Phase around battles ------------------------------------------------------------


def expanding() -> dict[str, object]:
    state = game(THREE)
    for pid in THREE:
        player(state, pid).update(purchased=10, stock=26)
    return state


def test_9_5_placement_respects_market_size_own_tokens_and_ship_capacity() -> None:
    state = expanding()
    assert placement_limit(aor(), state, "venice", "milan") == 3
    place(aor(), state, "venice", "milan", 2)
    assert placement_limit(aor(), state, "venice", "milan") == 1
    assert placement_limit(aor(), state, "genoa", "milan") == 1  # room for one more token only
    with pytest.raises(IllegalOrder, match="1 to 1"):
        place(aor(), state, "genoa", "milan", 2)
    assert placement_limit(aor(), state, "venice", "tunis") == 0  # out of reach without a fleet
    player(state, "venice")["fleet"] = {"stage": "seaworthy", "box": 1}
    assert placement_limit(aor(), state, "venice", "tunis") == 4
    player(state, "venice")["fleet"] = {"stage": "galley", "box": 4}
    tokens(state, "venice", "sicily", 1)
    assert placement_limit(aor(), state, "venice", "tunis") == 4
    assert state["round"]["placed"] == {"venice": 2}


def test_9_5_1_cards_for_tokens_cost_3_then_6_once_per_player() -> None:
    state = expanding()
    state["deck"] = ["armor", "stirrups"]
    chance = ScriptedChance({"card for tokens turn 1 venice": "armor",
                             "card for tokens turn 1 genoa": "stirrups"})
    assert card_price(aor(), state) == 3
    buy_card(aor(), state, "venice", chance)
    assert (player(state, "venice")["purchased"], player(state, "venice")["stock"]) == (7, 29)
    assert not can_buy_card(aor(), state, "venice") and card_price(aor(), state) == 6
    buy_card(aor(), state, "genoa", chance)
    assert player(state, "genoa")["purchased"] == 4


def test_9_5_3_r04_bonus_card_to_the_most_placed_ties_to_the_earlier() -> None:
    state = expanding()
    state["round"]["placed"] = {"genoa": 4, "barcelona": 4, "venice": 1}
    assert bonus_card_winner(state) == "genoa"
    state["round"]["placed"] = {}
    assert bonus_card_winner(state) is None


def test_9_5_unplaced_tokens_return_and_9_5_4_markers_form() -> None:
    state = expanding()
    place(aor(), state, "venice", "milan", 3)
    end_expansion(aor(), state)
    assert state["provinces"]["milan"]["marker"] == "venice"
    assert all(player(state, p)["purchased"] == 0 for p in THREE)
    check_invariants(aor(), state)


def test_f_r19_holy_indulgence() -> None:
    state = expanding()
    own(state, "venice", "holy_indulgence")
    player(state, "genoa").update(purchased=1, stock=35, cash=0)
    player(state, "venice")["stock"] = 2
    player(state, "venice")["purchased"] = 34
    result = holy_indulgence(aor(), state)
    assert result.tokens == {"venice": 2, "genoa": -1, "barcelona": -2}
    assert result.ducats == {"venice": 2} and result.misery == {"genoa": 1}
    assert player(state, "genoa")["misery"] == 10 and player(state, "venice")["cash"] == 42
    check_invariants(aor(), state)
