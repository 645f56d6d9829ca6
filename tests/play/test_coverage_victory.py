"""Issue 14: the coverage policy steers toward a victory whose declaration would reach something
never seen (its kind, or an ability the engine counts in it), by the engine's own measures: the
shortfall and the ability notes of engine.pax.victory (pbem.play.coverage_victory)."""

from __future__ import annotations

from engine.core.adjudicate import options_now
from engine.core.table import Table
from engine.pax.victory import shortfall
from pbem.play.coverage_victory import nearest_wanted, notes_reached, shortfall_of, wanted_squares
from pbem.rulesets import catalog_for
from tests.play.test_coverage_abilities import _dealt, _everything_seen_but, _start
from tests.play.test_coverage_apostasy import _coverage, _laid, _play

ACADEMIA = "PREN103X"  # counts_as_republic_for_renaissance
ZIONIST_STATE = "PREN168X"  # green_pirates_count_as_red_for_supremacy
FLANDERS_GUILD = "PREN036"  # Law prestige
SPANISH_TERCIO = "PREN023"  # no prestige
JESUITS = "PREN008"  # Catholic prestige
REPUBLIC = "ability:counts_as_republic_for_renaissance"
GREEN_PIRATES = "ability:green_pirates_count_as_red_for_supremacy"
SQUARES = ("holy", "imperial", "globalization", "renaissance")


def _all_declared(*but: str) -> set[str]:
    return _everything_seen_but(*but) | {f"victory:{s}" for s in SQUARES} - set(but)


def test_a_declared_kind_is_still_wanted_while_it_would_count_an_ability_never_fired() -> None:
    """Academia's holder wants Renaissance although it was declared: its declaration would count
    Academia's Republic, as the engine's own notes for that declaration say."""
    _, table, who, _ = _start("aim")
    assert wanted_squares(table, who, _all_declared("victory:renaissance")) == {"renaissance"}
    assert wanted_squares(table, who, _all_declared()) == frozenset()
    _laid(table, who, ACADEMIA)
    assert notes_reached(table, who, _all_declared(REPUBLIC)) == {f"{REPUBLIC}@renaissance"}
    assert wanted_squares(table, who, _all_declared(REPUBLIC)) == {"renaissance"}
    assert wanted_squares(table, who, _all_declared()) == frozenset()


def _green_pirate(table: Table) -> None:
    border = next(iter(table.state["borders"]))
    table.state["borders"][border]["pirate"] = "pirate:islamic"


def test_a_green_pirate_under_zionist_state_is_a_position_a_holy_declaration_counts() -> None:
    """Zionist State laid out anywhere: once a green pirate is on a border, a Holy declaration
    by anyone would count it, so every player wants Holy (no rules knowledge: the engine's
    notes)."""
    _, table, who, _ = _start("pirates")
    other = next(p for p in table.state["players"] if p != who)
    _laid(table, other, ZIONIST_STATE)
    seen = _all_declared(GREEN_PIRATES)
    assert notes_reached(table, who, seen) == set()
    _green_pirate(table)
    assert notes_reached(table, who, seen) == {f"{GREEN_PIRATES}@holy"}
    assert wanted_squares(table, who, seen) == {"holy"}


def test_the_player_plays_the_card_that_brings_an_undeclared_victory_nearer() -> None:
    """Renaissance never declared, all else seen: the Law card brings its shortfall down by
    one, so it is played at every tie-break seed; with Renaissance declared too the two cards
    score alike and the tie-break picks either."""
    ruleset, table, who, _ = _start("law2")
    for card in (FLANDERS_GUILD, SPANISH_TERCIO):
        _dealt(table, who, card)
    options = options_now(ruleset, table, who)
    law, other = _play(options, FLANDERS_GUILD), _play(options, SPANISH_TERCIO)
    pair = [law, other]
    aim = nearest_wanted(table, who, _all_declared("victory:renaissance"))
    assert aim is not None and aim[0] == "renaissance"
    picks = set()
    for seed in range(12):
        bot = _coverage(_all_declared("victory:renaissance"))
        bot.new_game(f"law{seed}")
        picks.add(bot.choose(ruleset, table, who, pair).args[0])
    assert picks == {FLANDERS_GUILD}
    picks = set()
    for seed in range(12):
        bot = _coverage(_all_declared())
        bot.new_game(f"law{seed}")
        picks.add(bot.choose(ruleset, table, who, pair).args[0])
    assert picks == {FLANDERS_GUILD, SPANISH_TERCIO}
    assert catalog_for("pax").cards[FLANDERS_GUILD].prestige == ("law",)


def test_a_declaration_anyone_would_make_news_with_is_measured_from_the_nearest_declarer() -> None:
    """A green pirate under Zionist State: a Holy declaration by any player would count it, so
    the aim is measured by the engine's shortfall of whichever player is nearest (a move that
    takes that player further away scores less, whoever makes it). Academia's Republic counts
    only in its holder's Renaissance, so that aim stays the player's own."""
    _, table, who, _ = _start("pirates")
    other = next(p for p in table.state["players"] if p != who)
    _laid(table, other, ZIONIST_STATE)
    _green_pirate(table)
    seen = _all_declared(GREEN_PIRATES)
    aim = nearest_wanted(table, who, seen)
    assert aim is not None and aim.square == "holy"
    assert set(aim.declarers) == set(table.state["order"]) and who in aim.declarers
    mine, theirs = (shortfall(table, p, "holy") for p in (who, other))
    _laid(table, other, JESUITS)  # Catholic prestige: the other player leads in it
    assert shortfall(table, other, "holy") < shortfall(table, who, "holy")
    aim = nearest_wanted(table, who, seen)
    assert aim is not None and aim.short == shortfall(table, other, "holy") == \
        shortfall_of(table, aim.declarers, "holy") < shortfall_of(table, (who,), "holy")
    assert min(mine, theirs) >= aim.short
    _, table, who, _ = _start("aim")
    _laid(table, who, ACADEMIA)
    aim = nearest_wanted(table, who, _all_declared(REPUBLIC))
    assert aim is not None and aim.declarers == (who,)


def test_a_look_ahead_that_eliminates_a_declarer_measures_those_left() -> None:
    """G6 (bankruptcy variant): a move the coverage player looks ahead at may eliminate another
    declarer; the shortfall is the nearest of those still in the game (a soak game crashed on
    the eliminated bank's measure)."""
    _, table, who, _ = _start("aim-eliminated")
    other = next(bank for bank in table.state["order"] if bank != who)
    table.state["order"].remove(other)
    table.state["eliminated"].append(other)
    for square in SQUARES:
        assert shortfall_of(table, (who, other), square) == shortfall(table, who, square)
    assert shortfall_of(table, (other, who), "holy") == 0  # the first declarer is gone
