"""9.5.2 fighting for a province: examples 2-5 (R05), Cathedral (R21, R45), Proselytism,
military advantages (R15), capitals (R34), several defenders (R33), Cosmopolitan, the eliminated
(9.4.3, R31, R46), and the War card with 11.1 (R16)."""

from __future__ import annotations

import pytest

from engine.aor.battle import attack_problem, fight
from engine.aor.board import marker_of, tokens_in
from engine.aor.dice import Cathedral, Reason
from engine.aor.model import player
from engine.aor.reach import reach
from engine.aor.strength import attack_terms, defence
from engine.aor.war import cedable, cede, final_war_attempts, settle_war
from engine.core.errors import IllegalOrder
from tests.aor.helpers import ScriptedChance, aor, dice, game, marker, own, play, tokens

FIVE = {"venice": "venice", "genoa": "genoa", "london": "london", "barcelona": "barcelona",
        "paris": "paris"}  # London third in the order: rank 3


def board() -> dict[str, object]:
    state = game(FIVE)
    for pid in FIVE:
        player(state, pid).update(purchased=12, stock=23)
    return state


def needed(state: dict[str, object], attacker: str, where: str) -> int:
    return attack_terms(aor(), state, attacker, where).required


def test_example_2_fez_needs_4_and_5_with_oran_and_a_galley_2_is_not_enough() -> None:
    state = board()
    marker(state, "paris", "fez")
    tokens(state, "london", "granada", 1)
    player(state, "london")["fleet"] = {"stage": "galley", "box": 1}
    attack = attack_terms(aor(), state, "london", "fez")
    assert (attack.defenders, attack.defence, attack.required) == (("paris",), 2, 4)
    assert reach(aor(), state, "london")["fez"] == 2
    assert "at most 2 tokens" in str(attack_problem(aor(), state, attack))
    player(state, "london")["fleet"] = {"stage": "seaworthy", "box": 1}
    assert attack_problem(aor(), state, attack) is None
    tokens(state, "paris", "oran", 1)
    assert needed(state, "london", "fez") == 5


def test_example_3_belgrade_6_then_5_against_a_token_and_r05_genoa_5() -> None:
    state = board()
    marker(state, "venice", "belgrade")
    own(state, "venice", "nationalism")
    play(state, "venice", "stirrups")
    assert needed(state, "london", "belgrade") == 6  # marker 2 + market 2 + Nationalism + Stirrups
    own(state, "genoa", "nationalism")
    assert needed(state, "genoa", "belgrade") == 5  # the two Nationalisms cancel (R05: not 4)
    state["provinces"]["belgrade"] = {"marker": None, "tokens": {"venice": 1}, "new": {}}
    assert needed(state, "london", "belgrade") == 5  # R05: 1 + market 2 + 1 + 1


def test_example_4_bari_3_then_2_with_gunpowder_then_1_for_genoa() -> None:
    state = board()
    tokens(state, "venice", "bari", 1)
    own(state, "venice", "nationalism")
    assert needed(state, "london", "bari") == 3
    play(state, "london", "gunpowder")
    assert needed(state, "london", "bari") == 2
    own(state, "genoa", "nationalism")
    play(state, "genoa", "gunpowder")
    assert needed(state, "genoa", "bari") == 1


def oran_board() -> dict[str, object]:
    state = board()
    tokens(state, "paris", "oran", 1)
    tokens(state, "london", "granada", 1)
    player(state, "london")["fleet"] = {"stage": "galley", "box": 1}
    return state


def test_example_5_oran_won_on_green_4_at_rank_3() -> None:
    state = oran_board()
    attack = attack_terms(aor(), state, "london", "oran")
    assert attack.required == 2 and reach(aor(), state, "london")["oran"] == 2
    battle = fight(aor(), state, attack, ScriptedChance(dice("battle turn 1 london oran", 4, 1, 6)))
    assert battle.outcome.attacker_wins and battle.outcome.reason is Reason.GREEN
    assert tokens_in(state, "oran", "london") == 1 and tokens_in(state, "oran", "paris") == 0
    assert (player(state, "london")["purchased"], player(state, "london")["stock"]) == (10, 23 - 1 + 1)
    assert player(state, "paris")["stock"] == 23 + 0  # its token went back to stock
    assert state["round"]["placed"] == {"london": 2}  # R04 counts tokens committed


def test_example_5_advantages_change_the_tokens_needed() -> None:
    state = oran_board()
    play(state, "london", "armor")
    assert needed(state, "london", "oran") == 1
    state["round"]["played"] = [["paris", "armor"]]
    attack = attack_terms(aor(), state, "london", "oran")
    assert attack.required == 3 and "at most 2" in str(attack_problem(aor(), state, attack))
    with pytest.raises(IllegalOrder, match="at most 2"):
        fight(aor(), state, attack, ScriptedChance({}))


def test_example_5_lost_on_green_3_and_black_below_white() -> None:
    state = oran_board()
    attack = attack_terms(aor(), state, "london", "oran")
    battle = fight(aor(), state, attack, ScriptedChance(dice("battle turn 1 london oran", 3, 2, 5)))
    assert not battle.outcome.attacker_wins
    assert tokens_in(state, "oran", "london") == 0 and tokens_in(state, "oran", "paris") == 1
    assert (player(state, "london")["purchased"], player(state, "london")["stock"]) == (10, 22 + 2)


def test_winning_a_marker_province_places_a_marker_and_example_1_loses_every_token() -> None:
    state = board()
    marker(state, "paris", "fez")
    tokens(state, "london", "fez", 2)  # placed last turn (example 1)
    attack = attack_terms(aor(), state, "london", "fez")
    assert (attack.required, attack.new_tokens) == (4, 2)
    won = fight(aor(), state, attack, ScriptedChance(dice("battle turn 1 london fez", 1, 5, 2)))
    assert won.outcome.reason is Reason.BLACK and won.took_marker_from == "paris"
    assert marker_of(state, "fez") == "london" and tokens_in(state, "fez", "london") == 0
    state = board()
    marker(state, "paris", "fez")
    tokens(state, "london", "fez", 2)
    lost = fight(aor(), state, attack_terms(aor(), state, "london", "fez"),
                 ScriptedChance(dice("battle turn 1 london fez", 1, 2, 2)))
    assert not lost.outcome.attacker_wins and tokens_in(state, "fez", "london") == 0
    assert player(state, "london")["stock"] == 21 + 4


def test_military_advantage_wins_ties_and_proselytism_wins_green_equal_to_rank() -> None:
    for extra, roll in ((None, (1, 3, 3)), ("proselytism", (3, 1, 6))):
        state = oran_board()
        if extra:
            own(state, "london", extra)
        else:
            play(state, "london", "stirrups")
        battle = fight(aor(), state, attack_terms(aor(), state, "london", "oran"),
                       ScriptedChance(dice("battle turn 1 london oran", *roll)))
        assert battle.outcome.attacker_wins, extra


def test_r15_stirrups_negated_by_armor_and_cancelled_by_long_bow() -> None:
    state = oran_board()
    play(state, "london", "stirrups")
    play(state, "paris", "armor")
    assert needed(state, "london", "oran") == 3  # Stirrups gives nothing against Armor
    play(state, "venice", "long_bow")
    assert needed(state, "london", "oran") == 2  # both cancelled


def test_h_cathedral_settles_without_dice_once_per_opponent_per_turn() -> None:
    state = oran_board()
    own(state, "london", "holy_indulgence", "cathedral")
    battle = fight(aor(), state, attack_terms(aor(), state, "london", "oran"), ScriptedChance({}),
                   cathedral=Cathedral.ATTACKER)
    assert battle.dice is None and battle.outcome.reason is Reason.CATHEDRAL
    assert state["round"]["cathedral"] == {"london": ["paris"]}
    tokens(state, "paris", "algiers", 1)
    player(state, "london")["fleet"] = {"stage": "galley", "box": 2}
    with pytest.raises(IllegalOrder, match="cannot use Cathedral"):
        fight(aor(), state, attack_terms(aor(), state, "london", "algiers"), ScriptedChance({}),
              cathedral=Cathedral.ATTACKER)


def test_r45_an_attackers_cathedral_must_be_free_against_every_defender() -> None:
    state = oran_board()
    tokens(state, "venice", "algiers", 1)
    tokens(state, "paris", "algiers", 1)
    own(state, "london", "holy_indulgence", "cathedral")
    player(state, "london")["fleet"] = {"stage": "galley", "box": 2}
    state["round"]["cathedral"] = {"london": ["venice"]}
    with pytest.raises(IllegalOrder, match="against everyone"):
        fight(aor(), state, attack_terms(aor(), state, "london", "algiers"), ScriptedChance({}),
              cathedral=Cathedral.ATTACKER)
    state["round"]["cathedral"] = {}
    won = fight(aor(), state, attack_terms(aor(), state, "london", "algiers"), ScriptedChance({}),
                cathedral=Cathedral.ATTACKER)
    assert won.outcome.attacker_wins and state["round"]["cathedral"] == {"london": ["paris", "venice"]}


def test_h_a_defender_declares_cathedral_and_owners_are_immune() -> None:
    state = oran_board()
    own(state, "paris", "holy_indulgence", "cathedral")
    held = fight(aor(), state, attack_terms(aor(), state, "london", "oran"), ScriptedChance({}),
                 cathedral=Cathedral.DEFENDER, defender_cathedral="paris")
    assert not held.outcome.attacker_wins and tokens_in(state, "oran", "paris") == 1
    state = oran_board()
    own(state, "paris", "holy_indulgence", "cathedral")
    own(state, "london", "holy_indulgence", "cathedral")
    with pytest.raises(IllegalOrder, match="cannot use Cathedral"):
        fight(aor(), state, attack_terms(aor(), state, "london", "oran"), ScriptedChance({}),
              cathedral=Cathedral.DEFENDER, defender_cathedral="paris")


def test_r34_capitals_double_the_owners_marker_in_defence_and_in_retaking() -> None:
    state = board()
    assert defence(aor(), state, "venice", "venice", "genoa") == 10
    assert needed(state, "genoa", "venice") == 15
    state["provinces"]["venice"]["marker"] = "genoa"
    assert needed(state, "venice", "venice") == 5  # (5 + 5) / 2: the owner's tokens count double


def test_r33_several_defenders_are_attacked_together() -> None:
    state = board()
    tokens(state, "venice", "tunis", 1)
    tokens(state, "genoa", "tunis", 2)
    attack = attack_terms(aor(), state, "london", "tunis")
    assert (attack.defenders, attack.required) == (("genoa", "venice"), 3 + 4)


def test_y_cosmopolitan_satellites_and_satellites_support_only_marker_provinces() -> None:
    state = board()
    tokens(state, "paris", "fez", 1)
    tokens(state, "paris", "oran", 1)
    assert needed(state, "london", "fez") == 1 + 2  # no marker in Fez: Oran does not support
    state["provinces"]["fez"] = {"marker": "paris", "tokens": {}, "new": {}}
    own(state, "paris", "overland_east", "cosmopolitan")
    assert needed(state, "london", "fez") == 2 + 2 + 2
    tokens(state, "london", "oran", 1)
    own(state, "london", "overland_east", "cosmopolitan")
    assert needed(state, "london", "fez") == 5  # one token fewer per supporting satellite


def test_r46_an_eliminated_defender_keeps_only_nationalism() -> None:
    state = board()
    marker(state, "venice", "belgrade")
    own(state, "venice", "nationalism", "cosmopolitan", "overland_east")
    tokens(state, "venice", "durazzo", 1)
    assert needed(state, "london", "belgrade") == 2 + 2 + 1 + 2
    player(state, "venice")["eliminated"] = True
    state["order"].remove("venice")
    assert needed(state, "london", "belgrade") == 2 + 2 + 1 + 1


def test_a2_war_roll_misery_cessions_and_ties() -> None:
    state = board()
    own(state, "venice", "nationalism")
    play(state, "genoa", "armor")
    tie = settle_war(aor(), state, "venice", "genoa", {"venice": 3, "genoa": 3})
    assert tie.winner is None and state["wars"] == [["venice", "genoa"]]
    assert [player(state, p)["misery"] for p in ("venice", "genoa")] == [10, 10]
    result = settle_war(aor(), state, "venice", "genoa", {"venice": 6, "genoa": 2})
    assert (result.winner, result.loser, result.owed, result.totals) == ("venice", "genoa", 4,
                                                                          {"venice": 7, "genoa": 3})
    assert state["wars"] == [] and [player(state, p)["misery"] for p in ("venice", "genoa")] == [20, 30]
    marker(state, "genoa", "trebizond")
    marker(state, "genoa", "india")
    assert cedable(aor(), state, "genoa", "venice") == ["genoa"]  # V needs R, boxes need T
    own(state, "venice", "overland_east")
    cede(aor(), state, "genoa", "venice", "trebizond")
    assert marker_of(state, "trebizond") == "venice"


def test_11_1_example_the_fourth_of_six_players_gets_three_war_rolls() -> None:
    state = game({p: c for p, c in zip("abcdef", ["venice", "genoa", "barcelona", "paris", "london",
                                                   "hamburg"], strict=True)})
    assert final_war_attempts(state, "d") == 3
