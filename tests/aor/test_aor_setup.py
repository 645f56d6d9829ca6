"""8.1-8.5 setup and 9.7 order of play, as scenarios. Rulings: R01, R10, R40 (docs/aor-rulings.md)."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

from engine.aor.deck import check_card_zones
from engine.aor.model import hand_size, player
from engine.aor.order import apply_token_purchase, civil_war_to_last, rank, swap, swap_options
from engine.aor.setup import (
    SetupError,
    apply_capital_bids,
    apply_opening_purchase,
    apply_return,
    capital_options,
    choose_capital,
    finish_returns,
    new_game,
    regions_in_play,
)
from engine.core.chance import SeededChance
from engine.core.errors import IllegalOrder
from tests import fast_yaml
from tests.aor.helpers import ScriptedChance, aor, game, own

NAMES = ("ada", "ben", "cy", "dee", "eve", "fay")


def dealt(n: int, seed: bytes = b"aor") -> tuple[dict[str, object], SeededChance]:
    chance = SeededChance(seed, "g", 0)
    return new_game(aor(), NAMES[:n], chance), chance


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_8_1_deal_three_private_draws_each_and_set_aside(n: int) -> None:
    state, chance = dealt(n)
    assert [d.purpose for d in chance.draws] == [f"deal {p} {i}" for p in NAMES[:n] for i in (1, 2, 3)]
    assert all(hand_size(state, p) == 3 for p in NAMES[:n])
    assert state["set_aside"] == sorted(aor().set_aside)
    assert not set(state["deck"]) & set(aor().set_aside)
    assert all(aor().cards[c].epoch == 1 for c in state["deck"])
    assert sorted(state["epochs"]) == ["2", "3"] and len(state["epochs"]["2"]) == 22
    check_card_zones(aor(), state)
    for pid in NAMES[:n]:  # 8.1, 8.4: 40 ducats, misery 0, 36 tokens, no fleet
        data = player(state, pid)
        assert (data["cash"], data["misery"], data["stock"], data["fleet"]["stage"]) == (40, 0, 36, "none")


@pytest.mark.parametrize(("n", "joins"), [(3, True), (4, True), (5, False), (6, False)])
def test_8_1_return_one_and_the_set_aside_cards_join_by_player_count(n: int, joins: bool) -> None:
    state, _ = dealt(n)
    before = len(state["deck"])
    for pid in NAMES[:n]:
        label = sorted(player(state, pid)["hand"])[0]
        apply_return(state, pid, label)
    finish_returns(aor(), state)
    assert all(hand_size(state, p) == 2 for p in NAMES[:n])
    assert len(state["deck"]) == before + n + (5 if joins else 0)
    assert (state["set_aside"] == []) == joins
    check_card_zones(aor(), state)


def test_8_1_returning_needs_a_label_from_the_hand() -> None:
    state, _ = dealt(3)
    card = next(iter(player(state, "ada")["hand"].values()))
    with pytest.raises(IllegalOrder, match="no card labelled"):
        apply_return(state, "ada", card)  # a card name is not a label


def test_setup_is_deterministic_and_a_yaml_round_trip() -> None:
    assert dealt(4)[0] == dealt(4)[0]
    assert dealt(4)[0] != dealt(4, b"other")[0]
    state = dealt(6)[0]
    assert fast_yaml.safe_load(yaml.safe_dump(state)) == state


def test_setup_refuses_two_or_seven_players() -> None:
    for n in (2, 7):
        with pytest.raises(SetupError):
            new_game(aor(), [f"p{i}" for i in range(n)], SeededChance(b"s", "g", 0))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_8_2_capitals_and_regions(n: int) -> None:
    state, _ = dealt(n)
    order = ["venice", "genoa", "barcelona", "paris", "london", "hamburg"]
    assert capital_options(aor(), state) == order[:n]
    assert {"orient", "new_world"} <= set(regions_in_play(aor(), state))  # R40


def through_returns(n: int) -> dict[str, object]:
    state, _ = dealt(n)
    for pid in NAMES[:n]:
        apply_return(state, pid, sorted(player(state, pid)["hand"])[0])
    finish_returns(aor(), state)
    return state


def test_8_3_bids_are_paid_and_ties_roll_a_die_until_broken() -> None:
    state = through_returns(4)
    chance = ScriptedChance({"capital tie 5 ben": "3", "capital tie 5 cy": "3", "capital tie 5 dee": "1",
                             "capital tie 5 again ben": "2", "capital tie 5 again cy": "6"})
    queue = apply_capital_bids(state, {"ada": 9, "ben": 5, "cy": 5, "dee": 5}, chance)
    assert queue == ["ada", "cy", "ben", "dee"] and not chance.script
    assert [player(state, p)["cash"] for p in NAMES[:4]] == [31, 35, 35, 35]
    with pytest.raises(IllegalOrder, match="not its turn|not cy's turn"):
        choose_capital(aor(), state, "cy", "venice")
    choose_capital(aor(), state, "ada", "paris")
    with pytest.raises(IllegalOrder, match="not a free capital"):
        choose_capital(aor(), state, "cy", "paris")
    for pid, capital in (("cy", "venice"), ("ben", "genoa"), ("dee", "barcelona")):
        choose_capital(aor(), state, pid, capital)
    assert state["capital_choosers"] == ["ada", "cy", "ben", "dee"]
    assert state["provinces"]["paris"]["marker"] == "ada" and state["phase"] == "opening_purchase"


def test_8_3_a_bid_beyond_cash_is_illegal() -> None:
    state = through_returns(3)
    with pytest.raises(IllegalOrder):
        apply_capital_bids(state, {"ada": 41, "ben": 0, "cy": 0}, ScriptedChance({}))


def test_8_5_and_9_7_purchase_sets_the_order_fewest_first_ties_to_the_later_chooser() -> None:
    state = through_returns(3)
    apply_capital_bids(state, {"ada": 10, "ben": 4, "cy": 0}, ScriptedChance({}))
    for pid, capital in (("ada", "venice"), ("ben", "genoa"), ("cy", "barcelona")):
        choose_capital(aor(), state, pid, capital)
    assert apply_opening_purchase(state, {"ada": 12, "ben": 12, "cy": -5}) == ["cy", "ben", "ada"]
    assert (state["turn"], state["phase"]) == (1, "draw")  # R01: turn 1 has its draw phase
    assert [player(state, p)["cash"] for p in ("ada", "ben", "cy")] == [18, 24, 35]
    assert [player(state, p)["purchased"] for p in ("ada", "ben", "cy")] == [12, 12, 0]  # -5 buys none
    assert [player(state, p)["recorded_cash"] for p in ("ada", "ben", "cy")] == [18, 24, 35]
    assert [rank(aor(), state, p) for p in state["order"]] == [2, 4, 6]  # section 2, R10


def test_9_7_buying_more_than_the_stock_takes_the_stock_and_pays_the_bid() -> None:
    state = game({"ada": "venice", "ben": "genoa", "cy": "barcelona"})
    player(state, "ada").update(cash=100, stock=7)
    apply_token_purchase(state, {"ada": 30, "ben": 1, "cy": 0})
    assert (player(state, "ada")["cash"], player(state, "ada")["purchased"], player(state, "ada")["stock"]) \
        == (70, 7, 0)
    assert state["order"] == ["cy", "ben", "ada"]
    with pytest.raises(IllegalOrder):
        apply_token_purchase(state, {"ada": -71, "ben": 0, "cy": 0})


def test_r10_ranks_for_four_and_five_players_and_after_an_elimination() -> None:
    four = game(dict(zip(NAMES, ["venice", "genoa", "barcelona", "paris"], strict=False)))
    assert [rank(aor(), four, p) for p in four["order"]] == [1, 3, 5, 6]
    five = game(dict(zip(NAMES, ["venice", "genoa", "barcelona", "paris", "london"], strict=False)))
    assert [rank(aor(), five, p) for p in five["order"]] == [1, 2, 3, 4, 5]
    five["order"].remove("ada")
    assert [rank(aor(), five, p) for p in five["order"]] == [1, 2, 3, 4]


def test_9_7_renaissance_example() -> None:
    """Paris and London own Renaissance; Paris plays first, Barcelona second, London third. Paris
    swaps first; then London has no non-owner in front of him."""
    state = game({"paris": "paris", "barcelona": "barcelona", "london": "london"})
    own(state, "paris", "renaissance")
    own(state, "london", "renaissance")
    assert swap_options(state, "paris") == ["barcelona"]
    assert swap_options(state, "london") == ["barcelona"]
    swap(state, "paris", "barcelona")
    assert state["order"] == ["barcelona", "paris", "london"]
    assert swap_options(state, "london") == [] and swap_options(state, "paris") == []  # once a turn
    with pytest.raises(IllegalOrder):
        swap(state, "london", "paris")


def test_a2_r50_civil_war_victims_become_last_at_the_expansion_phase() -> None:
    state = game(dict(zip(NAMES, ["venice", "genoa", "barcelona", "paris"], strict=False)))
    state["round"]["civil_war"] = ["ada", "cy"]
    civil_war_to_last(state)
    assert state["order"] == ["ben", "dee", "ada", "cy"]


def test_setup_draw_purposes_name_only_players_and_numbers() -> None:
    _, chance = dealt(6)
    words = Counter(w for d in chance.draws for w in d.purpose.split())
    assert set(words) == {"deal", "1", "2", "3", *NAMES}
