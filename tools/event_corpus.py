"""Every event's words from seeded self-play, one JSON line each: to check that a change to how
events are built (engine.core.words) leaves what players read exactly as it was.

    python tools/event_corpus.py pax 40 > before.jsonl   # ... change ...
    python tools/event_corpus.py pax 40 > after.jsonl && cmp before.jsonl after.jsonl
"""

from __future__ import annotations

import json
import random
import sys

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from pbem import words
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import seeds

VARIANTS = {"pax": [{}, {"map": "1550"}, {"map": "age_of_reformation"}, {"astrology": True}],
            "aor": [{"end": "epoch1", "sealing": "plain"}, {"end": "epoch2", "sealing": "plain"}]}


def main() -> None:
    name, games = sys.argv[1], int(sys.argv[2])
    ruleset, catalog = ruleset_for(name), catalog_for(name)
    low, high = ruleset.player_counts
    out = sys.stdout
    for index in range(games):
        players = low + index % (high - low + 1)
        options = VARIANTS[name][index % len(VARIANTS[name])]
        seed = f"corpus-{name}-{index}"
        chance = SeededChance(seeds.make_seed(seed), seed, 0)
        seats = ruleset.seat_ids([f"bot{i + 1}" for i in range(players)])
        try:
            table, events = ruleset.setup(catalog, seed, seats, dict(options), chance)
        except ValueError:
            continue
        rng = random.Random(seed)
        events += run_automatic(ruleset, table, chance)
        steps = 0
        while True:
            for e in events:
                out.write(json.dumps([index, steps, e["kind"], e.get("visible_to"), words.say(e)],
                                     ensure_ascii=False) + "\n")
            if ruleset.is_over(table) or steps > 3000:
                break
            owed = waiting_for(table.agenda)
            who = owed[0] if len(owed) == 1 else rng.choice(owed)
            choice = rng.choice(options_now(ruleset, table, who))
            events = answer(ruleset, table, choice, chance, who)
            events += run_automatic(ruleset, table, chance)
            steps += 1


if __name__ == "__main__":
    main()
