"""Issue 14: the coverage policy steers toward India Armada's Spice Islands fairs and Star
Chamber's claimed Kings from the catalog's own words and data, the engine's own options and one
more answer of look-ahead, with no rules knowledge of its own (pbem.play.coverage_places)."""

from __future__ import annotations

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.choice import Choice
from pbem.play.coverage_keys import coverage_keys, held_abilities, serving_cards
from pbem.play.coverage_places import named_places, named_verbs, place_cards, places_held
from pbem.play.policy import Serving
from pbem.rulesets import catalog_for
from tests.play.test_coverage_abilities import _dealt, _everything_seen_but, _start
from tests.play.test_coverage_apostasy import _coverage, _laid, _play

SPICE = "ability:concessions_double_in_spice_islands_trade_fairs"
CLAIMS = "ability:coronation_claims_married_or_opponent_kings"
INDIA_ARMADA = "PREN014"  # the Spice Islands ability; its trade shift opens the Spice Islands
ALMEIDA_ARMADA = "PREN018"
STAR_CHAMBER = "PREN006"
MARGARET_OF_ANJOU = "PREN047"  # suitors England, France, Aragon
SOPHIA_PALAIOLOGINA = "PREN076"  # suitors Hungary, Byzantium, Holy Roman Empire
SPANISH_TERCIO = "PREN023"


def test_a_summary_names_its_route_its_verbs_and_the_one_shots_opening_the_route() -> None:
    """"In trade fairs starting at the Spice Islands ... Concessions": the route the catalog
    keys `spice_islands`, the verbs `fair` and `concession`, and the cards whose one-shot names
    the Spice Islands as its own emporium (not those that list it among disks' destinations)."""
    catalog = catalog_for("pax")
    assert named_places(catalog, [SPICE]) == {"spice_islands"}
    assert named_places(catalog, [CLAIMS]) == frozenset()
    assert named_verbs(catalog, [SPICE], {"fair", "concession", "play", "op"}) == {"fair", "concession"}
    assert named_verbs(catalog, [CLAIMS], {"op", "play", "marry"}) == frozenset()  # "opponent"
    opening = {c.id for c in catalog.cards.values()
               if c.one_shot and c.one_shot.get("emporium") == "spice_islands"}
    assert place_cards(catalog, frozenset({"spice_islands"})) == opening
    assert {INDIA_ARMADA, ALMEIDA_ARMADA} <= opening
    assert named_places(catalog_for("aor"), [SPICE]) == frozenset()


def test_the_armada_holder_convenes_the_spice_islands_fair_whatever_else_is_offered() -> None:
    """India Armada laid out, the Spice Islands open and the holder's concession on their
    route: "fair west" is always among the candidates tried (its verb is named), so the
    policy convenes it at every tie-break seed, even at a width that leaves most options out,
    and the fair fires the ability."""
    ruleset, table, who, chance = _start("spice")
    _laid(table, who, INDIA_ARMADA)
    table.state["busted"] = [e for e in table.catalog.emporia if e != "spice_islands"]
    table.state["market"]["west"][0]["florins"] = 6
    assert places_held(table, who, {"spice_islands"}) == 1  # Fugger starts on France-HRE
    options = options_now(ruleset, table, who)
    fair = next(c for c in options if c.verb == "fair" and c.args == ("west",))
    assert len(options) > 8
    for game in range(6):
        bot = _coverage(_everything_seen_but(SPICE))
        bot.new_game(f"spice-{game}")
        bot.width = 4  # most options left out of the sample
        assert bot.choose(ruleset, table, who, options) == fair
    events = answer(ruleset, table, fair, chance, who) + run_automatic(ruleset, table, chance)
    assert SPICE in coverage_keys(events)


def test_a_concession_counts_on_the_named_route_only() -> None:
    """The holder's concessions on the Spice Islands route's borders, as the engine's state
    holds them; one on another route does not count."""
    _, table, who, _ = _start("spice")
    for border in table.catalog.routes["spice_islands"].sequence:
        table.state["borders"].pop(border, None)
    assert places_held(table, who, {"spice_islands"}) == 0
    table.state["borders"]["border_england_france"] = {"concession": f"pawn:{who}"}
    table.state["borders"]["border_mamluk_ottoman"] = {"concession": f"pawn:{who}"}
    assert places_held(table, who, {"spice_islands"}) == 1


def _marry(options: list[Choice], empire: str) -> Choice:
    return next(c for c in options if c.verb == "marry" and empire in c.args)


def test_star_chambers_holder_plays_the_queen_who_can_claim_an_opponents_king() -> None:
    """Star Chamber laid out; the opponent holds England's King. Margaret of Anjou (a suitor in
    England) and Sophia Palaiologina (none claimed) are both serving cards in hand; playing a
    serving card of an ability laid out in the player's own tableau is worth its best
    follow-up, so Margaret scores the claim (10) and Sophia does not. Without that look the two
    score alike. The policy plays Margaret at every tie-break seed, and marrying England fires
    the ability."""
    ruleset, table, who, chance = _start("chamber")
    rival = next(p for p in table.state["players"] if p != who)
    _laid(table, who, STAR_CHAMBER)
    for card in (MARGARET_OF_ANJOU, SOPHIA_PALAIOLOGINA):
        _dealt(table, who, card)
    table.state["empires"]["england"]["ruler"] = rival
    table.state["players"][rival]["west"].append("empire_square_england")
    assert CLAIMS in held_abilities(table, who)
    options = options_now(ruleset, table, who)
    queens = serving_cards(table.catalog, [CLAIMS])
    bot = _coverage(_everything_seen_but(CLAIMS))
    bot.new_game("chamber")
    looked = Serving(queens, frozenset(), plays=queens)
    plain = Serving(queens, frozenset())
    claim, other = (bot._score(ruleset, table, who, _play(options, q), looked)
                    for q in (MARGARET_OF_ANJOU, SOPHIA_PALAIOLOGINA))
    assert claim - other >= 10, (claim, other)
    claim, other = (bot._score(ruleset, table, who, _play(options, q), plain)
                    for q in (MARGARET_OF_ANJOU, SOPHIA_PALAIOLOGINA))
    assert abs(claim - other) < 10, (claim, other)
    for game in range(6):
        bot = _coverage(_everything_seen_but(CLAIMS))
        bot.new_game(f"chamber-{game}")
        assert bot.choose(ruleset, table, who, options) == _play(options, MARGARET_OF_ANJOU)
    answer(ruleset, table, _play(options, MARGARET_OF_ANJOU), chance, who)
    run_automatic(ruleset, table, chance)
    events = answer(ruleset, table, _marry(options_now(ruleset, table, who), "england"),
                    chance, who)
    assert CLAIMS in coverage_keys(events)
