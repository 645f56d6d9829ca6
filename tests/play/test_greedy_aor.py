"""Issue 24 §3: greedy's Age of Renaissance lookahead is scored by the engine's own measures."""

from __future__ import annotations

from engine.aor.economy import income
from engine.aor.victory import score, standings, winners
from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.table import Table
from pbem.play.policy import make_policy, margin
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import seeds


def _aor_game(seed: str) -> list[Table]:
    """Every position of a random three-player game to the end of Epoch 1 (copies)."""
    rules = ruleset_for("aor")
    chance = SeededChance(seeds.make_seed(seed), seed, 0)
    table, _ = rules.setup(catalog_for("aor"), seed, rules.seat_ids(["a", "b", "c"]),
                           {"end": "epoch1"}, chance)
    bot = make_policy("random")
    bot.new_game(seed)
    run_automatic(rules, table, chance)
    seen = [table.copy()]
    while not rules.is_over(table):
        who = waiting_for(table.agenda)[0]
        answer(rules, table, bot.choose(rules, table, who, options_now(rules, table, who)),
               chance, who)
        run_automatic(rules, table, chance)
        seen.append(table.copy())
    return seen


def test_greedy_scores_an_aor_seat_by_the_engines_final_score_and_income() -> None:
    rules = ruleset_for("aor")
    positions = _aor_game("greedy-aor")
    for table in positions:
        catalog, state = table.catalog, table.state
        worth = {pid: score(catalog, state, pid) + income(catalog, state, pid)
                 for pid, _ in standings(catalog, state)}
        for pid, mine in worth.items():
            best_other = max(w for other, w in worth.items() if other != pid)
            assert margin(rules, table, pid) == mine - best_other
    end = positions[-1]
    assert end.state["over"] and end.state["winners"] == winners(end.catalog, end.state)
    leads = {pid: score(end.catalog, end.state, pid) for pid in end.state["players"]}
    assert all(leads[pid] == max(leads.values()) for pid in end.state["winners"])


def test_greedy_adds_no_aor_score_to_a_pax_table() -> None:
    rules = ruleset_for("pax")
    chance = SeededChance(seeds.make_seed("m"), "m", 0)
    table, _ = rules.setup(catalog_for("pax"), "m", rules.seat_ids(["a", "b", "c"]), {}, chance)
    assert all(margin(rules, table, pid) == 0.0 for pid in table.state["order"])
