"""Op lines (orders.md section 4): the op word may be left out for a one-op card, `in EMPIRE`
names a region card's empire, canonical lines parse back, and the victory helpers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.core.adjudicate import adjudicate, options_now
from engine.core.chance import SeededChance
from engine.core.choice import Choice, match_line
from engine.core.errors import AmbiguousOrder, IllegalOrder
from engine.core.table import Table
from engine.pax import victory
from engine.pax.ruleset import PAX
from pbem.play.scenarios.pax import build_table

# turn-1, 3 players: fugger (3 florins), coeur, medici.


def table(moves: dict[str, str], **patch: Any) -> Table:
    data: dict[str, Any] = {
        "players": 3, "seed": "turn-1", "turn": "fugger",
        "move": [{"card": card, "to": to} for card, to in moves.items()],
        "patch": patch,
    }
    built, _, _ = build_table(data)
    return built


def play(t: Table, *lines: str, player: str = "fugger") -> Table:
    chance = SeededChance(b"ops-notation", "test", 0)
    return adjudicate(PAX, t, player, list(enumerate(lines, start=1)), chance).table


def parse(t: Table, line: str) -> Choice:
    return match_line(line, options_now(PAX, t), PAX.namer(t), PAX.verbs)


def round_trip(t: Table) -> None:
    options = options_now(PAX, t)
    assert options
    for option in options:
        assert parse(t, option.line) == option, option.line


def test_the_op_word_may_be_left_out_for_a_one_op_card() -> None:
    t = play(table({"PREN034": "players.fugger.west", "PREN039": "players.fugger.west"},
                   **{"market.west.2.florins": 2}), "ops west")
    full = parse(t, 'op "Merchants of the Staple" commerce west 2')
    assert parse(t, "op staple west 2") == full
    assert parse(t, "op merchants of the staple commerce west 2") == full
    round_trip(t)


def test_the_op_word_is_needed_for_a_card_with_several_ops() -> None:
    t = play(table({"PREN028": "players.fugger.west"}), "ops west")  # The Bold: tax, siege...
    assert parse(t, "op the bold siege knight paris").args[1:] == ("knight:catholic", "paris")
    with pytest.raises(IllegalOrder):
        parse(t, "op the bold knight paris")
    round_trip(t)


def test_a_region_card_names_its_empire_only_where_it_matters() -> None:
    t = play(table({"PREN069": "players.fugger.east"},  # Bashi-bazouk: the East; tax
                   **{"borders.border_hungary_ottoman": {"concession": "pawn:medici"}}),
             "ops east")
    hungary = parse(t, "op bashi bazouk tax hungary-ottoman in hungary")
    assert hungary.args[1:] == ("border_hungary_ottoman", "hungary")
    assert parse(t, "op bashi-bazouk hungary-ottoman in ottoman").args[2] == "ottoman"
    with pytest.raises(IllegalOrder):
        parse(t, "op bashi-bazouk tax hungary-ottoman in byzantium")
    with pytest.raises(IllegalOrder):
        parse(t, "op bashi-bazouk tax hungary-ottoman")
    round_trip(t)


def test_squares_and_thrones_are_named_by_their_empire() -> None:
    t = play(table({"PREN028": "players.fugger.west", "PREN034": "players.medici.west"},
                   **{"players.coeur.west": ["empire_square_france"],
                      "empires.france.ruler": "coeur", "empires.england.ruler": "coeur",
                      "empires.england.suzerain": "france",
                      "bishops": {"empire_square_france": "catholic", "PREN034": "catholic"}}),
             "ops west")
    move = parse(t, "op bold inquisitor france england")
    assert move.args[1:] == ("empire_square_france", "empire_square_england")
    assert parse(t, "op bold inquisitor louis xi the spider england") == move
    round_trip(t)


def test_tax_answers_and_standing_lines_round_trip() -> None:
    t = play(table({"PREN066": "players.fugger.east"},
                   **{"borders.border_hungary_ottoman": {"concession": "pawn:medici"}}),
             "ops east", "op black army tax hungary-ottoman")
    round_trip(t)
    assert parse(t, "standing taxed pay 3").args == ("taxed pay 3",)
    with pytest.raises(IllegalOrder):
        parse(t, "standing taxed pay 7")


def test_a_victory_line_names_the_square() -> None:
    t = table({}, **{"victory.imperial": "active",
                     "players.fugger.west": ["empire_square_france", "empire_square_england"],
                     "empires.france.ruler": "fugger", "empires.england.ruler": "fugger"})
    assert parse(t, "victory imperial").args == ("imperial",)
    with pytest.raises(IllegalOrder):
        parse(t, "victory holy")


def test_an_ambiguous_card_part_lists_the_op_lines() -> None:
    t = play(table({"PREN035": "players.fugger.west", "PREN036": "players.fugger.west"},
                   **{"market.west.2.florins": 2}), "ops west")  # Communeros / Flanders Guild
    with pytest.raises(AmbiguousOrder) as caught:
        parse(t, "op guil commerce west 2")
    assert sorted(caught.value.options) == ['op "Communeros Guilds" commerce west 2',
                                            'op "Flanders Guild" commerce west 2']


# --- victory helpers ----------------------------------------------------------------------


def test_theocracy_counts_and_supremacy() -> None:
    t = table({})
    assert victory.theocracy_counts(t) == {"catholic": 1, "islamic": 1}  # Venice, Cairo
    assert victory.supreme_religion(t) is None
    t.state["bishops"] = {"empire_square_france": "catholic"}
    assert victory.supreme_religion(t) is None  # tokens still tied
    t.state["borders"]["border_ottoman_papal_states"] = {"pirate": "pirate:catholic"}
    assert victory.supreme_religion(t) == "catholic"
    t.state["empires"]["ottoman"]["religion"] = "catholic"
    assert victory.theocracy_counts(t)["catholic"] == 3  # the pirate borders two


def test_prestige_counts_old_maids_for_victory() -> None:
    t = table({"PREN048": "players.fugger.old_maids", "PREN159X": "players.fugger.west"},
              **{"empires.england.ruler": "fugger", "empires.england.side": "republic"})
    assert victory.meets(t, "fugger", "renaissance")  # 2 Law, one of them an Old Maid's
    t.state["players"]["fugger"]["old_maids"] = []
    assert not victory.meets(t, "fugger", "renaissance")


def test_a_region_card_repressing_a_concession_names_the_serf_square() -> None:
    """No base card has a region Location and a pawn repress, so one is made up here: the
    concession between two western empires may become a serf on either (R-501)."""
    t = table({"PREN023": "players.fugger.west"},  # Spanish Tercio: the West
              **{"borders.border_england_france": {"concession": "pawn:medici"}})
    tercio = replace(t.catalog.cards["PREN023"], ops=("repress_pawn",))
    t.catalog = replace(t.catalog, cards={**t.catalog.cards, "PREN023": tercio})
    t = play(t, "ops west")
    lines = [o.line for o in options_now(PAX, t)]
    assert 'op "Spanish Tercio" repress medici pawn england-france in england' in lines
    assert 'op "Spanish Tercio" repress medici pawn england-france in france' in lines
    assert 'op "Spanish Tercio" repress coeur pawn mamluk-ottoman' not in lines
    t = play(t, "op tercio medici pawn england-france in england")
    assert t.state["empires"]["england"]["repressed"] == ["pawn:medici"]
