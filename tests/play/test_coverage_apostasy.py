"""Issue 14: the coverage policy steers toward Epicurean Swerve's immunity to apostasy from the
catalog's own words and data and one more answer of look-ahead, with no rules knowledge of its
own (pbem.play.policy, pbem.play.coverage_keys)."""

from __future__ import annotations

from typing import Any

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.chance import SeededChance
from engine.core.choice import Choice
from engine.core.table import Table
from pbem.play.coverage_keys import (
    coverage_keys,
    held_abilities,
    pairs_held,
    serving_cards,
    serving_pairs,
    trial_cards,
)
from pbem.play.policy import CoveragePolicy, Serving, make_policy
from pbem.rulesets import catalog_for
from tests.play.test_coverage_abilities import _dealt, _everything_seen_but, _start

SWERVE = "PREN155X"  # Epicurean Swerve: immune_to_apostasy (and Patron prestige)
IMMUNE = "ability:immune_to_apostasy"
GRAND_INQUISITOR = "PREN003"  # Catholic prestige
JESUITS = "PREN008"  # Catholic prestige
ANTIPOPE = "PREN004"  # Reformist prestige
REFORMED_THEOLOGY = "PREN005"  # Reformist prestige
SPANISH_TERCIO = "PREN023"  # no prestige
GENOESE_FLEET = "PREN013"  # no prestige, no one-shot
PETERS_PENCE = "PREN007"  # apostasy of the Reformist and Catholic faiths, one bishop agent


def _laid(table: Table, who: str, card: str) -> None:
    """`card` taken from where setup put it into `who`'s tableau, on its own deck's side."""
    _dealt(table, who, card)
    me = table.state["players"][who]
    me["hand"].remove(card)
    me[table.catalog.cards[card].deck].append(card)


def _coverage(seen: set[str]) -> CoveragePolicy:
    bot = make_policy("coverage")
    assert isinstance(bot, CoveragePolicy)
    bot.seen = seen
    return bot


def _play(options: list[Choice], card: str) -> Choice:
    return next(c for c in options if c.verb == "play" and c.args == (card,))


def test_a_plural_in_a_summary_names_its_one_shot_and_the_faiths_it_lists() -> None:
    """ "Apostasies (One-shot or action) never make you discard anything": the plural names the
    one-shot type `apostasy`, so the 15 apostasy cards serve it, and the prestige pairs those
    cards' own data lists (their two religions) are what its holder is steered toward."""
    catalog = catalog_for("pax")
    apostasies = {c.id for c in catalog.cards.values()
                  if c.one_shot and c.one_shot["type"] == "apostasy"}
    assert serving_cards(catalog, [IMMUNE]) == apostasies and len(apostasies) == 15
    faiths = {frozenset(c.one_shot["religions"]) for c in catalog.cards.values()
              if c.id in apostasies and c.one_shot}
    assert serving_pairs(catalog, [IMMUNE]) == faiths and len(faiths) == 3
    assert serving_pairs(catalog, ["ability:unlimited_hand_size"]) == frozenset()
    assert serving_pairs(catalog_for("aor"), [IMMUNE]) == frozenset()


def test_the_holder_plays_the_faith_that_completes_a_pair() -> None:
    """With Catholic prestige laid out beside Epicurean Swerve, playing a Reformist card makes
    a pair of faiths whole; a card without prestige does not, so the first scores more."""
    ruleset, table, who, chance = _start("swerve")
    for card in (SWERVE, GRAND_INQUISITOR):
        _laid(table, who, card)
    for card in (ANTIPOPE, SPANISH_TERCIO):
        _dealt(table, who, card)
    pairs = serving_pairs(table.catalog, [IMMUNE])
    options = options_now(ruleset, table, who)
    bot = _coverage(_everything_seen_but(IMMUNE))
    bot.new_game("swerve")
    serving = Serving(serving_cards(table.catalog, [IMMUNE]), pairs)
    faith, plain = (bot._score(ruleset, table, who, _play(options, card), serving)
                    for card in (ANTIPOPE, SPANISH_TERCIO))
    assert faith > plain, (faith, plain)
    probe = table.copy()
    answer(ruleset, probe, _play(options, ANTIPOPE), chance, who)
    assert pairs_held(table, who, pairs) == 2  # Catholic: one of two pairs, once each
    assert pairs_held(probe, who, pairs) == 6  # and Reformist: one pair whole, two halves


def test_an_apostasy_whose_trial_fires_the_immunity_is_triggered() -> None:
    """The holder of Epicurean Swerve and the player to move both hold Catholic and Reformist
    prestige; the player to move plays Peter's Pence. Triggering its apostasy reaches the
    immunity only after its bishop is placed, one answer later: the decision is about a card
    serving an ability never fired, so the policy looks that one answer deeper and triggers it,
    whatever its random tie-breaks."""
    ruleset, table, who, chance = _start("trial")
    holder = next(p for p in table.state["players"] if p != who)
    for card in (GRAND_INQUISITOR, ANTIPOPE):
        _laid(table, who, card)
    for card in (SWERVE, JESUITS, REFORMED_THEOLOGY):
        _laid(table, holder, card)
    _dealt(table, who, PETERS_PENCE)
    answer(ruleset, table, _play(options_now(ruleset, table, who), PETERS_PENCE), chance, who)
    run_automatic(ruleset, table, chance)
    options = options_now(ruleset, table, who)
    assert {c.verb for c in options} == {"oneshot", "no oneshot"}
    for game in range(6):
        bot = _coverage(_everything_seen_but(IMMUNE))
        bot.new_game(f"trial-{game}")
        assert bot.choose(ruleset, table, who, options).verb == "oneshot"
    events = answer(ruleset, table, next(c for c in options if c.verb == "oneshot"), chance, who)
    events += run_automatic(ruleset, table, chance)
    bot = _coverage(_everything_seen_but(IMMUNE))
    bot.new_game("trial-bishop")
    bishop = bot.choose(ruleset, table, who, options_now(ruleset, table, who))
    events += answer(ruleset, table, bishop, chance, who)
    events += run_automatic(ruleset, table, chance)
    assert IMMUNE in coverage_keys(events)


def _trial_position(seed: str) -> tuple[Any, Table, str, str, SeededChance]:
    """Epicurean Swerve laid out by the player not to move, beside Catholic and Reformist
    prestige; the player to move holds Catholic prestige."""
    ruleset, table, who, chance = _start(seed)
    holder = next(p for p in table.state["players"] if p != who)
    for card in (SWERVE, JESUITS, REFORMED_THEOLOGY):
        _laid(table, holder, card)
    _laid(table, who, GRAND_INQUISITOR)
    return ruleset, table, who, holder, chance


def test_a_player_beside_the_swerve_is_steered_onto_its_trial() -> None:
    """The immunity is the holder's, but it fires only in an apostasy that condemns someone
    else: while Epicurean Swerve is laid out and its immunity never fired, any player is
    steered toward holding both faiths of an apostasy (the pairs its summary's one-shot lists),
    and keeps the apostasies (`trials`) it buys in hand."""
    ruleset, table, who, holder, _ = _trial_position("trial")
    for card in (ANTIPOPE, SPANISH_TERCIO):
        _dealt(table, who, card)
    bot = _coverage(_everything_seen_but(IMMUNE) | {f"victory:{s}" for s in table.state["victory"]})
    bot.new_game("beside")
    unseen = held_abilities(table, holder) - bot.seen
    assert unseen == {IMMUNE} and held_abilities(table, who, hand=True) & unseen == set()
    trials = trial_cards(table.catalog, unseen)
    beside = Serving(frozenset(), frozenset(), trials=trials,
                     beside=serving_pairs(table.catalog, unseen))
    alone = beside._replace(beside=frozenset())
    options = options_now(ruleset, table, who)
    faith, plain, faith_alone = (
        bot._score(ruleset, table, who, _play(options, card), serving)
        for card, serving in ((ANTIPOPE, beside), (SPANISH_TERCIO, beside), (ANTIPOPE, alone)))
    assert faith > plain and faith > faith_alone, (faith, plain, faith_alone)
    assert PETERS_PENCE in trials and len(trials) == 15


def test_the_apostasy_that_fires_the_immunity_is_played_two_answers_ahead() -> None:
    """Both the player to move and the Swerve's holder hold Catholic and Reformist prestige, and
    the player to move holds Peter's Pence among other cards. Playing it reaches the immunity
    three answers later (the play, its one-shot, its bishop, then the trial): a card that puts
    tableaux on such a trial is looked at that deep, so it is played at every tie-break seed."""
    ruleset, table, who, _, chance = _trial_position("trial")
    _laid(table, who, ANTIPOPE)
    for card in (PETERS_PENCE, SPANISH_TERCIO, GENOESE_FLEET):
        _dealt(table, who, card)
    options = options_now(ruleset, table, who)
    assert len(options) > 3
    for game in range(6):
        bot = _coverage(_everything_seen_but(IMMUNE))
        bot.new_game(f"ahead-{game}")
        picked = bot.choose(ruleset, table, who, options)
        assert picked == _play(options, PETERS_PENCE), picked
    events = answer(ruleset, table, _play(options, PETERS_PENCE), chance, who)
    events += run_automatic(ruleset, table, chance)
    bot = _coverage(_everything_seen_but(IMMUNE))
    bot.new_game("ahead-play")
    while IMMUNE not in coverage_keys(events) and table.agenda:
        step = bot.choose(ruleset, table, who, options_now(ruleset, table, who))
        events += answer(ruleset, table, step, chance, who)
        events += run_automatic(ruleset, table, chance)
    assert IMMUNE in coverage_keys(events)
