"""Order-line parsing (orders.md sections 2-3): names, aliases, slots, and the three errors."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.adjudicate import adjudicate, options_now
from engine.core.chance import SeededChance
from engine.core.choice import Choice, clean_line, fold, match_line
from engine.core.errors import AmbiguousOrder, IllegalOrder, RuleError, UnreadableOrder
from engine.core.table import Table
from engine.pax.ruleset import PAX
from pbem.play.scenarios.pax import build_table

# turn-1, 3 players: fugger (3 florins), coeur, medici.
# East row: PREN090, PREN120X, PREN073, PREN110X, PREN125X, PREN088
# West row: PREN134X, PREN028 (The Bold), PREN136X (Hermeticism), PREN097X, PREN039, PREN023


def table(**given: Any) -> Table:
    data: dict[str, Any] = {"players": 3, "seed": "turn-1", "turn": "fugger", **given}
    built, _, _ = build_table(data)
    return built


def holding(*cards: str, zone: str = "hand", **given: Any) -> Table:
    moves = [{"card": card, "to": f"players.fugger.{zone}"} for card in cards]
    return table(move=moves, **given)


def parse(t: Table, line: str) -> Choice:
    return match_line(line, options_now(PAX, t), PAX.namer(t), PAX.verbs)


def play(t: Table, *lines: str) -> Table:
    chance = SeededChance(b"notation", "test", 0)
    return adjudicate(PAX, t, "fugger", list(enumerate(lines, start=1)), chance).table


# --- folding ------------------------------------------------------------------------------


def test_fold_drops_accents_case_and_punctuation() -> None:
    assert fold("Jacques Cœur") == "jacques coeur"
    assert fold("Jacques Lefèvre d'Étaples") == "jacques lefevre d etaples"
    assert fold("MARÉCHAUSSÉE") == "marechaussee"


def test_clean_line_drops_comments_quotes_and_spaces() -> None:
    assert clean_line('  BUY  “Jacques Cœur”   # the banker') == "buy jacques coeur"
    assert clean_line("buy west 2#cheap") == "buy west 2"


# --- cards --------------------------------------------------------------------------------


def test_card_by_id_full_name_and_part() -> None:
    t = holding("PREN021", "PREN001")  # Conquistadors, Inquisition Pope
    conquistadors = parse(t, 'sell "Conquistadors"')
    assert conquistadors.args == ("PREN021",)
    assert parse(t, "sell PREN021") == conquistadors
    assert parse(t, "sell pren021") == conquistadors
    assert parse(t, "sell conquist") == conquistadors
    assert parse(t, "sell inquisition pope").args == ("PREN001",)
    assert parse(t, 'sell "Inquisition Pope"').args == ("PREN001",)
    assert parse(t, "sell pope").args == ("PREN001",)


def test_accents_are_optional_in_card_names() -> None:
    t = holding("PREN160X", "PREN054")  # Jacques Lefèvre d'Étaples, Maréchaussée
    lefevre = parse(t, "sell \"Jacques Lefèvre d'Étaples\"")
    assert lefevre.args == ("PREN160X",)
    assert parse(t, "sell jacques lefevre d'etaples") == lefevre
    assert parse(t, "sell LEFEVRE") == lefevre
    assert parse(t, "sell marechaussee").args == ("PREN054",)
    assert parse(t, "sell Maréchaussée").args == ("PREN054",)


def test_market_slots_name_the_card_there() -> None:
    t = table()
    by_slot = parse(t, "buy west 2")
    assert by_slot.args == ("PREN136X",)
    assert by_slot.line == "buy west 2"
    assert parse(t, "buy hermeticism") == by_slot
    assert parse(t, "Buy West 2   # two florins") == by_slot


def test_an_exact_name_beats_a_part_of_another() -> None:
    t = holding("PREN003", "PREN089")  # Grand Inquisitor, Grande of Spain
    assert parse(t, "sell grand inquisitor").args == ("PREN003",)
    assert parse(t, "sell grande").args == ("PREN089",)


def test_an_ambiguous_part_lists_the_matches() -> None:
    t = holding("PREN110X", "PREN165X")  # Transylvanian Plot, Transylvanian Saxons
    with pytest.raises(AmbiguousOrder) as caught:
        parse(t, "sell transylvanian")
    assert sorted(caught.value.options) == ['sell "Transylvanian Plot"',
                                            'sell "Transylvanian Saxons"']
    assert "name one exactly" in caught.value.reason
    assert parse(t, "sell transylvanian saxons").args == ("PREN165X",)


# --- the three errors ---------------------------------------------------------------------


def test_unknown_verb_is_unreadable() -> None:
    t = table()
    with pytest.raises(UnreadableOrder) as caught:
        parse(t, "purchase west 1")
    assert "unknown order word 'purchase'" in caught.value.reason
    assert "buy west 1" in caught.value.options


def test_empty_line_is_unreadable() -> None:
    with pytest.raises(UnreadableOrder):
        parse(table(), "   # only a comment")


def test_known_verb_not_legal_now_is_illegal() -> None:
    t = table(patch={"players.fugger.florins": 1})
    for line in ("buy west 2", "buy west 0", "sell xyzzy", "end", "knight paris"):
        with pytest.raises(IllegalOrder):
            parse(t, line)
    assert parse(t, "buy west 1").args == ("PREN028",)


def test_block_errors_name_the_line_and_change_nothing() -> None:
    t = table()
    chance = SeededChance(b"notation", "test", 0)
    before = (repr(t.state), repr(t.agenda))
    with pytest.raises(RuleError) as caught:
        adjudicate(PAX, t, "fugger", [(1, "buy west 1"), (2, "frobnicate the pope")], chance)
    assert isinstance(caught.value, UnreadableOrder)
    assert caught.value.number == 2
    assert caught.value.line == "frobnicate the pope"
    assert str(caught.value).startswith("line 2: 'frobnicate the pope': unknown order word")
    assert (repr(t.state), repr(t.agenda)) == before


# --- borders, empires, cities, tokens -----------------------------------------------------


def test_border_names_either_order_or_start_city() -> None:
    t = play(holding("PREN042"), "play höchstetter")  # Höchstetter Bank: HRE, pawn agent
    augsburg = parse(t, "pawn augsburg")
    assert augsburg.args == ("border_france_holy_roman_empire",)
    for line in ("pawn france-hre", "pawn hre-france", "pawn HRE - France",
                 "pawn holy roman empire-france", "pawn france holy roman empire"):
        assert parse(t, line) == augsburg, line
    assert parse(t, "pawn hre-papal states").args == ("border_holy_roman_empire_papal_states",)
    with pytest.raises(IllegalOrder):
        parse(t, "pawn france-england")


def test_empire_aliases_name_thrones() -> None:
    t = play(holding("PREN098X"), "play unity")  # Unity of the Brethren: HRE, bishop
    throne = parse(t, "bishop hre")
    assert throne.args == ("empire_square_holy_roman_empire",)
    assert parse(t, "bishop holy roman empire") == throne
    assert parse(t, "bishop Holy Roman Empire") == throne
    t = play(holding("PREN010"), "play bonfire")  # Bonfire of the Vanities: Papal States
    papal = parse(t, "bishop papal states")
    assert papal.args == ("empire_square_papal_states",)
    assert parse(t, "bishop papal") == papal
    assert parse(t, "bishop Papal States") == papal


def test_city_names_fold_accents() -> None:
    t = play(holding("PREN022"), "play the last knight", "no oneshot")  # HRE knight
    lubeck = parse(t, "knight Lübeck")
    assert lubeck.args == ("lubeck",)
    assert parse(t, "knight lubeck") == lubeck
    assert parse(t, "knight NURNBERG").args == ("nurnberg",)


def test_tokens_by_colour_or_religion_word() -> None:
    patch = {"empires.holy_roman_empire.repressed": ["pawn:medici", "rook:catholic"]}
    t = play(holding("PREN098X", patch=patch), "play unity", "bishop hre")
    rook = parse(t, "kill catholic rook")
    assert rook.args == ("rook:catholic",)
    assert parse(t, "kill rook gold") == rook
    assert parse(t, "kill rook") == rook
    assert parse(t, "kill pawn medici").args == ("pawn:medici",)


# --- round trips --------------------------------------------------------------------------


def _round_trip(t: Table) -> None:
    options = options_now(PAX, t)
    assert options
    for option in options:
        assert parse(t, option.line) == option, option.line
        assert repr(option) == f"Choice.from_line({option.line!r})"


@pytest.mark.parametrize("setup", [
    lambda: table(patch={"players.fugger.florins": 5}),
    lambda: play(holding("PREN067"), "play janissaries"),
    lambda: play(holding("PREN041"), "play dithmarschen"),
    lambda: play(holding("PREN013"), "play genoese"),
    lambda: play(table(move=[{"card": "PREN015", "to": "players.coeur.west"},
                             {"card": "PREN023", "to": "players.medici.west"},
                             {"card": "PREN004", "to": "players.fugger.hand"}]), "play antipope"),
    lambda: play(table(), "fair east"),
    lambda: play(table(move=[{"card": "COMET1", "to": "market.east.1"}]), "buy east 1"),
], ids=["turn", "region-knights", "region-pawn", "pirate", "bishop", "levy", "activate"])
def test_every_canonical_line_parses_back(setup: Any) -> None:
    _round_trip(setup())
