"""Rule helpers of issue 4 that have no order line of their own: silencing (F1f), the regime
changes the ops call (campaign vassals, golden liberty), Old Maid prestige (I2)."""

from __future__ import annotations

from typing import Any

from engine.core.table import Table
from engine.pax.bishops import active_abilities, silenced, usable_ops
from engine.pax.model import prestige, vassals_of
from engine.pax.regime import regime_change
from pbem.play.scenarios.pax import build_table
from pbem.words import say


def table(**given: Any) -> Table:
    built, _, _ = build_table({"players": 3, "seed": "turn-1", "turn": "fugger", **given})
    return built


def test_a_bishop_leaves_only_religious_ops() -> None:
    t = table(move=[{"card": "PREN001", "to": "players.fugger.west"}],  # Inquisition Pope
              patch={"bishops": {"PREN001": "reformist"}})
    assert usable_ops(t, "PREN001") == ("inquisitor_catholic",)
    assert active_abilities(t, "PREN001") == ()
    assert prestige(t, "fugger", "catholic") == 1  # prestige is never silenced


def test_an_unsilenced_card_keeps_everything() -> None:
    t = table(move=[{"card": "PREN001", "to": "players.fugger.west"}])
    assert silenced(t, "PREN001") is False
    assert len(usable_ops(t, "PREN001")) > 1
    assert active_abilities(t, "PREN001") != ()


def test_a_bishop_on_the_queen_silences_the_king() -> None:
    t = table(move=[{"card": "PREN045", "to": "players.fugger.hand"}])
    t.state["players"]["fugger"]["hand"].remove("PREN045")
    t.state["empires"]["france"].update(ruler="fugger", queen="PREN045")
    t.state["players"]["fugger"]["west"].append("empire_square_france")
    t.state["bishops"]["PREN045"] = "catholic"
    assert silenced(t, "empire_square_france")
    assert usable_ops(t, "empire_square_france") == ()


def test_immunity_to_silencing_protects_the_owners_cards() -> None:
    t = table(move=[{"card": "PREN001", "to": "players.fugger.west"},
                    {"card": "PREN074", "to": "players.fugger.east"}],  # The Kremlin: immune
              patch={"bishops": {"PREN001": "reformist", "PREN074": "islamic"}})
    assert not silenced(t, "PREN001")
    assert "immune_to_silencing" in active_abilities(t, "PREN074")


def test_old_maid_prestige_counts_only_for_victory() -> None:
    t = table(move=[{"card": "PREN044", "to": "players.fugger.old_maids"}])  # Catholic
    assert prestige(t, "fugger", "catholic") == 1
    assert prestige(t, "fugger", "catholic", for_victory=False) == 0


def test_campaign_makes_a_vassal_of_the_top_suzerain() -> None:
    t = table(patch={"empires.france.ruler": "fugger",
                     "players.fugger.west": ["empire_square_france"],
                     "empires.holy_roman_empire.ruler": "fugger",
                     "empires.holy_roman_empire.suzerain": "france",
                     "empires.hungary.repressed": ["pawn:medici"]})
    events, follow = regime_change(t, "fugger", "hungary", cause="campaign",
                                   conqueror="holy_roman_empire")
    assert t.state["empires"]["hungary"]["suzerain"] == "france"
    assert vassals_of(t, "france") == ["holy_roman_empire", "hungary"]
    assert t.state["players"]["fugger"]["east"] == []  # a vassal sits under its suzerain
    # emancipation before the concession
    assert [n["action"] for n in follow] == ["emancipate", "regime_concession"]
    assert "Hungary becomes a vassal of France in Fugger's tableau." in [say(e) for e in events]


def test_campaign_from_an_enemy_tableau_discards_the_court() -> None:
    t = table(patch={"empires.france.ruler": "fugger",
                     "players.fugger.west": ["empire_square_france"],
                     "empires.england.ruler": "coeur",
                     "players.coeur.west": ["empire_square_england"],
                     "bishops": {"empire_square_england": "catholic"}})
    _, follow = regime_change(t, "fugger", "england", cause="campaign", conqueror="france")
    # nothing repressed, so no emancipation step is queued
    assert [n["action"] for n in follow] == ["regime_concession"]
    assert t.state["bishops"] == {}
    assert t.state["players"]["coeur"]["west"] == []
    assert t.state["empires"]["england"]["suzerain"] == "france"


def test_a_vote_in_a_theocracy_offers_golden_liberty() -> None:
    t = table(patch={"empires.papal_states.ruler": "coeur",
                     "players.coeur.west": ["empire_square_papal_states"]})
    _, follow = regime_change(t, "fugger", "papal_states", cause="vote")
    assert [n["action"] for n in follow] == ["regime_concession", "golden_liberty"]
    _, follow = regime_change(t, "coeur", "france", cause="conspiracy")
    assert "golden_liberty" not in [n["action"] for n in follow]


def test_a_suzerain_losing_its_regime_frees_its_vassals() -> None:
    t = table(patch={"empires.france.ruler": "coeur",
                     "players.coeur.west": ["empire_square_france"],
                     "empires.holy_roman_empire.ruler": "coeur",
                     "empires.holy_roman_empire.suzerain": "france"})
    regime_change(t, "fugger", "france", cause="conspiracy")
    assert t.state["empires"]["holy_roman_empire"]["ruler"] is None
    assert t.state["empires"]["holy_roman_empire"]["suzerain"] is None
    assert t.state["empires"]["france"]["ruler"] == "fugger"
