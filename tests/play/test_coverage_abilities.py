"""Issue 14: the coverage policy steers toward an ability that never fired, from the engine's own
tableau and the catalog's own words, with no rules knowledge of its own (pbem.play.policy)."""

from __future__ import annotations

from typing import Any

from engine.core.adjudicate import answer, options_now, run_automatic, settle
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.choice import Choice
from engine.core.table import Table
from pbem.play.coverage_keys import held_abilities, serving_cards
from pbem.play.policy import WIDE, CoveragePolicy, make_policy
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import seeds

ELIZABETH = "PREN095X"  # Elizabeth Báthory: discard_to_launch_peasant_revolt
HOSPITALLER = "PREN012"  # Knights Hospitaller: crusade_rooks_count_as_knights
REVOLT = "ability:discard_to_launch_peasant_revolt"
ROOKS = "ability:crusade_rooks_count_as_knights"


def _start(seed: str) -> tuple[Any, Table, str, SeededChance]:
    ruleset = ruleset_for("pax")
    chance = SeededChance(seeds.make_seed(seed), seed, 0)
    table, _ = ruleset.setup(catalog_for("pax"), seed, ruleset.seat_ids(["a", "b"]), {}, chance)
    settle(ruleset, table, chance)
    return ruleset, table, waiting_for(table.agenda)[0], chance


def _dealt(table: Table, who: str, card: str) -> None:
    """`card` taken from the box or a deck (where setup put it) into `who`'s hand."""
    def take(place: Any) -> bool:
        if isinstance(place, list) and card in place:
            place.remove(card)
            return True
        items = place.values() if isinstance(place, dict) else place
        return isinstance(place, (list, dict)) and any(take(p) for p in items)
    assert take(table.state["box"]) or take(table.state["decks"])
    table.state["players"][who]["hand"].append(card)


def _do(ruleset: Any, table: Table, who: str, chance: SeededChance, verb: str) -> None:
    choice = next(c for c in options_now(ruleset, table, who) if c.verb == verb)
    answer(ruleset, table, choice, chance, who)
    run_automatic(ruleset, table, chance)


def _everything_seen_but(*keys: str) -> set[str]:
    """Every coverage key the run could meet, except `keys`."""
    catalog = catalog_for("pax")
    seen = {f"ability:{a}" for a in catalog.abilities}
    seen |= {f"{kind}:{c.name}" for c in catalog.cards.values() for kind in ("played", "bought")}
    seen |= {f"op:{op['type']}" for op in catalog.ops.values()}
    seen |= {f"oneshot:{c.one_shot['type']}" for c in catalog.cards.values() if c.one_shot}
    return seen - set(keys)


def test_a_summary_names_the_cards_that_serve_its_ability() -> None:
    """Read from the ability's own summary and the catalog: "In your Crusades" names the
    crusade cards, "Each Patron prestige ... your Vote Ops" the Patron and vote cards."""
    catalog = catalog_for("pax")
    cards = catalog.cards.values()
    crusades = {c.id for c in cards if c.one_shot and c.one_shot["type"] == "crusade"}
    assert serving_cards(catalog, [ROOKS]) == crusades and len(crusades) == 9
    voters = {c.id for c in cards if any(catalog.ops[op]["type"] == "vote" for op in c.ops)}
    patrons = {c.id for c in cards if "patron" in c.prestige}
    assert serving_cards(catalog, ["ability:patron_discounts_vote_ops"]) == voters | patrons
    assert serving_cards(catalog, ["ability:unlimited_hand_size"]) == frozenset()
    assert serving_cards(catalog_for("aor"), [ROOKS]) == frozenset()


def test_a_crowned_queen_holds_her_ability_and_an_old_maid_does_not() -> None:
    ruleset, table, who, chance = _start("crown")
    _dealt(table, who, ELIZABETH)
    assert REVOLT in held_abilities(table, who, hand=True) - held_abilities(table, who)
    _do(ruleset, table, who, chance, "play")
    crowned, maid = table.copy(), table.copy()
    _do(ruleset, crowned, who, chance, "marry")
    _do(ruleset, maid, who, chance, "old maid")
    assert REVOLT in held_abilities(crowned, who)  # she sits with her King, not in a zone
    assert REVOLT not in held_abilities(maid, who, hand=True)


def test_coverage_plays_and_crowns_a_queen_whose_ability_never_fired() -> None:
    """Playing her reaches nothing new by itself; the crowning that follows does."""
    ruleset, table, who, chance = _start("crown")
    _dealt(table, who, ELIZABETH)
    bot = make_policy("coverage")
    bot.seen = _everything_seen_but(REVOLT)
    for game in range(5):
        bot.new_game(f"queen-{game}")
        picked = bot.choose(ruleset, table, who, options_now(ruleset, table, who))
        assert (picked.verb, picked.args) == ("play", (ELIZABETH,))
    _do(ruleset, table, who, chance, "play")
    assert bot.choose(ruleset, table, who, options_now(ruleset, table, who)).verb == "marry"


def test_a_player_holding_an_ability_never_fired_tries_wide() -> None:
    ruleset, table, who, chance = _start("wide")
    _dealt(table, who, HOSPITALLER)
    _do(ruleset, table, who, chance, "play")
    while waiting_for(table.agenda) == [who] and len(options_now(ruleset, table, who)) <= WIDE:
        _do(ruleset, table, who, chance, options_now(ruleset, table, who)[-1].verb)
    options: list[Choice] = options_now(ruleset, table, who)
    assert ROOKS in held_abilities(table, who) and len(options) > WIDE
    bot = make_policy("coverage")
    assert isinstance(bot, CoveragePolicy)
    for seen, tried in ((_everything_seen_but(ROOKS), WIDE), (_everything_seen_but(), 6)):
        bot.seen = seen
        bot.new_game("wide")
        bot.choose(ruleset, table, who, options)
        assert bot.looks >= tried and bot.looks <= tried * 2, (bot.looks, tried)
