"""The bot's strength (issue 24 §3): one seat plays greedy, the others random, through the engine
alone; how often the greedy seat wins, and its time per decision. The greedy seat rotates, so
no seat's advantage counts for it. `python bench/_bot_strength.py [GAMES] [RULESET]`."""

from __future__ import annotations

import sys
import time

from engine.core.adjudicate import answer, options_now, settle
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from pbem.play.policy import make_policy
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import seeds

MAX_DECISIONS = 20_000


def one_game(seed: str, ruleset_name: str, players: int, greedy_seat: int) -> tuple[bool, float, int]:
    """Whether the greedy seat won; its seconds spent choosing; its decisions."""
    ruleset = ruleset_for(ruleset_name)
    chance = SeededChance(seeds.make_seed(seed), seed, 0)
    seats = ruleset.seat_ids([f"bot{i + 1}" for i in range(players)])
    options = {"end": "epoch1"} if ruleset_name == "aor" else {}
    table, _ = ruleset.setup(catalog_for(ruleset_name), seed, seats, options, chance)
    settle(ruleset, table, chance)
    greedy, rand = make_policy("greedy"), make_policy("random")
    greedy.new_game(seed)
    rand.new_game(seed)
    bot = table.state["seats"][greedy_seat]
    spent, decisions = 0.0, 0
    for _ in range(MAX_DECISIONS):
        if ruleset.is_over(table):
            break
        who = rand.pick_player(waiting_for(table.agenda))
        policy = greedy if who == bot else rand
        started = time.perf_counter()
        choice = policy.choose(ruleset, table, who, options_now(ruleset, table, who))
        if who == bot:
            spent += time.perf_counter() - started
            decisions += 1
        answer(ruleset, table, choice, chance, who)
        settle(ruleset, table, chance)
    return bot in table.state.get("winners", []), spent, decisions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    ruleset = sys.argv[2] if len(sys.argv) > 2 else "pax"
    wins, spent, decisions = 0, 0.0, 0
    for i in range(games):
        won, seconds, count = one_game(f"strength-{ruleset}-{i}", ruleset, 3, i % 3)
        wins, spent, decisions = wins + won, spent + seconds, decisions + count
    print(f"{ruleset}: greedy won {wins} of {games} three-player games against two random "
          f"({100 * wins / games:.0f}%); {1000 * spent / max(decisions, 1):.1f} ms per greedy "
          f"decision over {decisions} decisions")


if __name__ == "__main__":
    main()
