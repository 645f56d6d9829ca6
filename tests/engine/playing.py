"""Helpers for the seeded play-outs: settle a table and read the legal answers that settling
already computed (asking `options_now` again would compute every option list twice), and the
YAML round trip of a played state."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.core.adjudicate import answer, options_now, settle
from engine.core.agenda import waiting_for
from engine.core.chance import Chance, SeededChance
from engine.core.choice import Choice
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table
from pbem.store import gamefile
from pbem.store.gamefile import GameFile


def settle_options(ruleset: Ruleset, table: Table, chance: Chance
                   ) -> tuple[list[Event], list[Choice]]:
    """The forced answers' events, then the legal answers of the first player owed (what
    `options_now(ruleset, table)` gives); none once the game is over."""
    events, known = settle(ruleset, table, chance)
    owed = waiting_for(table.agenda)
    if not owed:
        return events, []
    return events, known[owed[0]] if owed[0] in known else options_now(ruleset, table)


def random_pax_positions(label: str, games: int, steps: int, *, unsettled: bool = False
                         ) -> Iterator[Table]:
    """Each position of `games` seeded random Pax games of two, three and four players in turn
    (at most `steps` answers each), once settled; with `unsettled`, also each position just
    after an answer, before its forced answers resolve. The table is the game's: read it only."""
    from engine.pax.ruleset import PAX
    from pbem.rulesets import pax_catalog

    for game in range(games):
        chance = SeededChance(f"{label}-{game}".encode(), label, 0)
        seats = ["p1", "p2", "p3", "p4"][:2 + game % 3]
        table, _ = PAX.setup(pax_catalog(), label, seats, {}, chance)
        rng = random.Random(game)
        _, options = settle_options(PAX, table, chance)
        for _step in range(steps):
            if table.state["over"]:
                break
            yield table
            answer(PAX, table, rng.choice(options), chance)
            if unsettled:
                yield table
            _, options = settle_options(PAX, table, chance)


def yaml_round_trip(state: dict[str, object], agenda: list[dict[str, object]]) -> None:
    """The state reads back from the game file's YAML as the same data of the same JSON
    types (so it dumps to the same bytes): Python's == tells a key 1 from "1", the canonical
    JSON tells 1 from 1.0 and true."""
    probe = GameFile({"id": "p"}, {"players": []}, {}, 0, state, agenda, [])
    loaded = gamefile.load_text(gamefile.dump_text(probe))
    assert (loaded.state, loaded.agenda) == (state, agenda)
    assert gamefile.current_hash(loaded) == gamefile.current_hash(probe)
