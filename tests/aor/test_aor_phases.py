"""The turn's phases through the core, as scenarios (9.1-9.7, 11, A.2; rulings cited per test).
After `through_setup(3)` the order is ada, ben, cy with capitals Barcelona, Genoa and Venice,
10 tokens bought each, and ada to play cards in turn 1."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine.aor.actions.flow import proceed, reset_flow
from engine.aor.board import markers_in_stock, markers_on_board, tokens_in
from engine.aor.model import player
from engine.aor.ruleset import AOR
from engine.aor.victory import score
from engine.core.adjudicate import Outcome, adjudicate, options_now
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.errors import IllegalOrder
from engine.core.table import Table
from pbem.words import say
from tests.aor.agenda_helpers import at_phase, give, play, send, through_setup
from tests.aor.helpers import ScriptedChance, aor, dice, marker, own, tokens


def scripted(t: Table, who: str, *lines: str, script: Mapping[str, str]) -> Outcome:
    chance = ScriptedChance(dict(script))
    out = adjudicate(AOR, t, who, list(enumerate(lines, start=1)), chance)
    assert not chance.script, f"unused draws {chance.script}"
    return out


def lines(t: Table, who: str | None = None) -> list[str]:
    return [c.line for c in options_now(AOR, t, who)]


def started() -> Table:
    return through_setup(3)


def test_a2_war_the_loser_cedes_out_of_turn_and_a_forced_rest_goes_by_itself() -> None:
    t = started()
    give(t, "ada", "war")
    for where in ("milan", "florence", "rome", "lyons", "marseilles", "dubrovnik"):
        marker(t.state, "ben", where)
    with pytest.raises(IllegalOrder) as error:  # the War roll ends the block (R16, 4.2)
        send(t, "ada", "play war", "target ben", "pass")
    assert error.value.number == 2
    out = scripted(t, "ada", "play war", "target genoa",  # a player by capital
                   script={"war turn 1 ada": "6", "war turn 1 ben": "1"})
    t = out.table
    assert waiting_for(t.agenda) == ["ben"] and t.agenda[0]["args"] == {"winner": "ada", "left": 5}
    assert (player(t.state, "ada")["misery"], player(t.state, "ben")["misery"]) == (10, 20)
    assert "cede Genoa" in lines(t)
    t = play(t, "ben", "cede milan", "cede florence", "cede rome", "cede lyons")
    assert waiting_for(t.agenda) == ["ben"] and t.agenda[0]["args"]["left"] == 1
    t = play(t, "ben", "cede marseilles")
    assert sorted(markers_on_board(t.state, "ben")) == ["dubrovnik", "genoa"]
    assert {"milan", "florence", "rome", "lyons", "marseilles"} <= set(markers_on_board(t.state, "ada"))
    assert waiting_for(t.agenda) == ["ada"] and t.agenda[0]["action"] == "play"


def test_a2_war_the_loser_chooses_when_the_winner_cannot_take_them_all() -> None:
    """A.2: the loser cedes provinces the winner can support; with two domination markers left
    the winner cannot take all three of Genoa, Milan and Florence, so which two go is the
    loser's choice, and the province owed beyond them costs misery. The engine ceded them in
    order and refused the third mid-roll (soak game 4177; ruling R64)."""
    t = started()
    give(t, "ada", "war")
    for where in ("milan", "florence"):
        marker(t.state, "ben", where)
    cat = aor()
    taken = {"genoa", "milan", "florence", "barcelona", "venice"}
    spare = [w for w, p in sorted(cat.provinces.items())
             if w not in taken and not p.satellite and not cat.regions[p.region].overseas]
    while markers_in_stock(cat, t.state, "ada") > 2:
        marker(t.state, "ada", spare.pop())
    out = scripted(t, "ada", "play war", "target ben",
                   script={"war turn 1 ada": "6", "war turn 1 ben": "2"})
    t = out.table
    assert waiting_for(t.agenda) == ["ben"] and t.agenda[0]["args"] == {"winner": "ada", "left": 4}
    assert {"cede Genoa", "cede Milan", "cede Florence"} <= set(lines(t))
    misery = player(t.state, "ben")["misery"]
    t = play(t, "ben", "cede milan")
    assert {"cede Genoa", "cede Florence"} <= set(lines(t))  # one marker left: still a choice
    t = play(t, "ben", "cede florence")
    assert sorted(markers_on_board(t.state, "ben")) == ["genoa"]
    assert {"milan", "florence"} <= set(markers_on_board(t.state, "ada"))
    assert markers_in_stock(cat, t.state, "ada") == 0
    assert player(t.state, "ben")["misery"] > misery  # two owed and not ceded (A.2)
    assert waiting_for(t.agenda) == ["ada"] and t.agenda[0]["action"] == "play"


def test_a2_war_tie_goes_on_at_the_declarers_next_play_cards_turn() -> None:
    t = started()
    give(t, "ada", "war")
    tie = {"war turn 1 ada": "3", "war turn 1 cy": "3"}
    t = scripted(t, "ada", "play war", "target cy", script=tie).table
    assert t.state["wars"] == [["ada", "cy"]]
    assert player(t.state, "ada")["misery"] == player(t.state, "cy")["misery"] == 10


def test_a2_civil_war_the_victim_chooses_out_of_turn() -> None:
    t = started()
    give(t, "ada", "civil_war")
    t = play(t, "ada", "play civil war", "target ben")
    assert waiting_for(t.agenda) == ["ben"] and lines(t) == ["lose cash", "lose tokens"]
    assert t.state["provinces"]["genoa"]["marker"] is None and tokens_in(t.state, "genoa", "ben") == 1
    t = play(t, "ben", "lose tokens")
    assert player(t.state, "ben")["purchased"] == 5 and player(t.state, "ben")["misery"] == 10
    assert t.state["round"]["civil_war"] == ["ben"] and waiting_for(t.agenda) == ["ada"]


def test_a2_enlightened_ruler_protects_from_civil_war() -> None:
    t = started()
    give(t, "ada", "civil_war")
    give(t, "ben", "enlightened_ruler")
    t.state["round"]["played"].append(["ben", "enlightened_ruler"])
    t.state["players"]["ben"]["hand"] = {k: v for k, v in t.state["players"]["ben"]["hand"].items()
                                         if v != "enlightened_ruler"}
    t.state["reusable"].append("enlightened_ruler")
    out, _ = send(t, "ada", "play civil war")  # one target left: chosen without asking
    assert any("Civil War strikes cy" in say(e) for e in out.events)
    assert waiting_for(out.table.agenda) == ["cy"] and lines(out.table) == ["lose cash", "lose tokens"]


def attack_on_ben(t: Table, where: str = "basque", *, marker_too: bool = False) -> Table:
    (marker if marker_too else lambda s, p, w: tokens(s, p, w, 1))(t.state, "ben", where)
    return at_phase(t, "expansion", "ada", ["ben", "cy"])


def test_h_r21_a_defender_with_cathedral_is_asked_before_the_dice() -> None:
    t = started()
    own(t.state, "ben", "holy_indulgence", "cathedral")
    t = play(attack_on_ben(t), "ada", "attack basque")
    assert waiting_for(t.agenda) == ["ben"]
    assert lines(t) == ["cathedral", "standing cathedral use", "no cathedral"]
    out = scripted(t, "ben", "cathedral", script={})  # no die is rolled
    assert any("(Cathedral): ada loses" in say(e) for e in out.events)
    assert t.state["round"]["cathedral"] == {} and out.table.state["round"]["cathedral"] == {"ben": ["ada"]}
    assert waiting_for(out.table.agenda) == ["ada"]
    declined = scripted(t, "ben", "no cathedral", script=dice("battle turn 1 ada basque", 6, 1, 1))
    assert declined.table.state["provinces"]["basque"]["marker"] == "ada"


def test_n_r22_written_record_trades_after_taking_a_marker() -> None:
    t = started()
    own(t.state, "ada", "written_record")
    t = attack_on_ben(t, "valencia", marker_too=True)
    t = scripted(t, "ada", "attack valencia", script=dice("battle turn 1 ada valencia", 6, 1, 1)).table
    assert t.agenda[0]["action"] == "trade" and waiting_for(t.agenda) == ["ada"]
    mine = sorted(player(t.state, "ada")["hand"])
    assert lines(t) == [f"trade {x}" for x in mine] + ["no trade"]
    with pytest.raises(IllegalOrder):  # a card name where a label is needed
        send(t, "ada", "trade armor")
    theirs = dict(player(t.state, "ben")["hand"])
    given = player(t.state, "ada")["hand"][mine[0]]
    taken = sorted(theirs)[0]
    out = scripted(t, "ada", f"trade {mine[0]}",
                   script={"written record turn 1 ada from ben": taken})
    assert theirs[taken] in player(out.table.state, "ada")["hand"].values()
    assert given in player(out.table.state, "ben")["hand"].values()
    assert [e for e in out.events if e.get("visible_to") == ["ben"]]


def test_q_r20_renaissance_is_asked_at_the_start_of_a_phase() -> None:
    t = started()
    own(t.state, "ada", "written_record", "printed_word", "master_art", "renaissance")
    reset_flow(t, "play_cards")
    t.agenda.clear()
    proceed(t, SeededChance(b"x", "g", 0))
    assert waiting_for(t.agenda) == ["ada"] and lines(t) == [
        "swap later", "standing renaissance no", "standing renaissance never", "no swap"]
    t = play(t, "ada", "swap later")
    assert t.state["order"] == ["ben", "ada", "cy"] and waiting_for(t.agenda) == ["ben"]


def test_9_1_first_player_removal_and_wind_watermill() -> None:
    t = started()
    t.state["markets"] = {"wine": 1}
    own(t.state, "ben", "caravan", "wind_watermill")
    reset_flow(t, "draw")
    t.agenda.clear()
    proceed(t, SeededChance(b"x", "g", 0))
    assert waiting_for(t.agenda) == ["ada"] and lines(t) == ["pay wine", "done"]
    t = play(t, "ada", "pay wine")  # then `done` is forced: no marker left
    assert t.state["markets"] == {} and player(t.state, "ada")["cash"] == 25
    assert waiting_for(t.agenda) == ["ben"] and "mill grain shortage" in lines(t)
    out, chance = send(t, "ben", "mill grain shortage")  # the draws of 9.1 follow
    assert out.table.state["markets"] == {"grain": 1} and len(chance.draws) == 3


def test_9_2_urban_ascendancy_buys_a_card_and_ends_the_block() -> None:
    t = started()
    own(t.state, "ada", "urban_ascendancy", "written_record", "printed_word", "master_art")
    give(t, "ada", "armor")
    reset_flow(t, "buy_cards")
    t.agenda.clear()
    proceed(t, SeededChance(b"x", "g", 0))
    assert lines(t)[0] == "buy card" and "discard Armor" in lines(t)
    with pytest.raises(IllegalOrder, match="last line"):
        send(t, "ada", "buy card", "discard armor")
    t = play(t, "ada", "discard armor")  # Master Art first: the buy is still there (R62)
    assert "armor" in t.state["reusable"] and lines(t) == ["buy card", "pass"]
    t = play(t, "ada", "pass")
    assert t.state["phase"] == "play_cards" and waiting_for(t.agenda) == ["ada"]


def test_9_4_fleet_advances_with_a_leader_papal_decree_and_stabilization() -> None:
    t = started()
    give(t, "ada", "marco_polo")
    player(t.state, "ada")["cash"] = 200
    t = play(t, "ada", "play marco polo")
    t = at_phase(t, "acquisition", "ada", ["ben", "cy"])
    assert "buy Overland East with Marco Polo" in lines(t) and "fleet" in lines(t)
    t.state["round"]["papal_decree"] = {"player": "ben", "group": "exploration"}
    assert not [x for x in lines(t) if "Overland East" in x]
    with pytest.raises(IllegalOrder):
        send(t, "ada", "buy overland east")
    t.state["round"]["papal_decree"] = None
    t = play(t, "ada", "fleet", "buy R with marco polo", "buy caravan", "done")
    assert player(t.state, "ada")["fleet"] == {"stage": "galley", "box": 1}
    assert player(t.state, "ada")["new_advances"] == ["caravan", "overland_east"]
    assert waiting_for(t.agenda) == ["ada"] and lines(t) == ["stabilize pay", "stabilize misery"]
    cash = player(t.state, "ada")["cash"]
    t = play(t, "ada", "stabilize pay")
    assert player(t.state, "ada")["cash"] == cash - 6  # 1 + 2 + 3 for three cards
    assert waiting_for(t.agenda) == ["ben"]


def test_11_final_card_play_then_the_score() -> None:
    t = started()
    t = at_phase(t, "final_play", "ada", ["ben", "cy"])
    t.state["end_reason"] = "test"
    assert "done" not in lines(t) and "pass" not in lines(t)
    while not t.state["over"]:
        who = waiting_for(t.agenda)[0]
        t = play(t, who, lines(t)[0])
    assert t.state["result"]["kind"] == "test" and not t.agenda
    scores = {p: score(aor(), t.state, p) for p in ("ada", "ben", "cy")}
    assert t.state["result"]["scores"] == scores
    assert t.state["winners"] == [p for p in scores if scores[p] == max(scores.values())]


def test_9_4_3_players_out_of_the_game_lose_their_nodes_and_one_left_wins() -> None:
    t = started()
    give(t, "ada", "famine")
    for pid in ("ben", "cy"):
        player(t.state, pid)["misery"] = 1000
    out = adjudicate(AOR, t, "ada", [(1, "play famine")], SeededChance(b"x", "g", 0))
    state = out.table.state
    assert state["over"] and state["winners"] == ["ada"] and state["out"] == ["ben", "cy"]
    assert state["result"]["kind"] == "last player standing"
    AOR.check_invariants(out.table)
