"""The AoR invariants count the board in one pass (`invariants._board_counts`, and each
province's weight summed in place); they must name exactly what the board's own per-player
reads name (`tokens_on_board`, `markers_in_stock`, `presence`), on the positions of a seeded
game and on damaged copies of them (tokens moved, markers put down, stock changed)."""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.aor.board import markers_in_stock, presence, tokens_on_board
from engine.aor.invariants import problems
from engine.core.adjudicate import answer, options_now, settle
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import seeds


def _board_problems(catalog: Any, state: dict[str, Any], in_battle: str | None) -> list[str]:
    """The token, marker and market lines of `problems`, from the per-player reads."""
    start = catalog.numbers["start"]
    found = []
    for pid, data in sorted(state["players"].items()):
        total = data["stock"] + data["purchased"] + tokens_on_board(state, pid)
        if total != start["tokens"] or min(data["stock"], data["purchased"]) < 0:
            found.append(f"{pid} has {total} tokens (stock {data['stock']}, "
                         f"bought {data['purchased']})")
        if markers_in_stock(catalog, state, pid) < 0:
            found.append(f"{pid} has more than {start['markers']} markers on the board")
    for where in state["provinces"]:
        weight = sum(presence(catalog, state, where).values())
        if where != in_battle and weight > catalog.provinces[where].market:
            found.append(f"{where} holds {weight} for a market of {catalog.provinces[where].market}")
    return found


def _positions(seed: str, steps: int) -> list[dict[str, Any]]:
    ruleset, catalog = ruleset_for("aor"), catalog_for("aor")
    chance = SeededChance(seeds.make_seed(seed), seed, 0)
    rng = random.Random(seed)
    seats = ruleset.seat_ids([f"bot{i + 1}" for i in range(5)])
    table, _ = ruleset.setup(catalog, seed, seats, {"end": "epoch2"}, chance)
    settle(ruleset, table, chance)
    states = []
    for _ in range(steps):
        if ruleset.is_over(table):
            break
        who = waiting_for(table.agenda)[0]
        answer(ruleset, table, rng.choice(options_now(ruleset, table, who)), chance, who)
        settle(ruleset, table, chance)
        states.append(copy.deepcopy(table.state))
    return states


def test_one_pass_counts_name_what_the_per_player_reads_name() -> None:
    catalog = catalog_for("aor")
    states = [s for s in _positions("invariant-counts", 160) if len(s["provinces"]) > 4]
    assert len(states) > 50
    rng = random.Random(7)
    named = 0
    for index in range(600):
        state = copy.deepcopy(rng.choice(states))
        for _ in range(rng.randint(0, 3)):
            record = state["provinces"][rng.choice(sorted(state["provinces"]))]
            pid = rng.choice([*sorted(state["players"]), "ghost"])
            roll = rng.random()
            if roll < 0.3:
                record["tokens"][pid] = record["tokens"].get(pid, 0) + rng.choice([-1, 1, 2, 5])
            elif roll < 0.5:
                record["new"][pid] = record["new"].get(pid, 0) + rng.choice([1, 3])
            elif roll < 0.7:
                record["marker"] = pid if rng.random() < 0.8 else None
            elif roll < 0.85:
                state["players"][rng.choice(sorted(state["players"]))]["stock"] += rng.choice([-9, 1])
            else:
                for where in rng.sample(sorted(state["provinces"]), 4):
                    state["provinces"][where]["marker"] = pid
        in_battle = rng.choice([None, *sorted(state["provinces"])[:3]]) if index % 4 == 0 else None
        expected = _board_problems(catalog, state, in_battle)
        board = [line for line in problems(catalog, state, in_battle=in_battle)
                 if " tokens (stock " in line or " markers on the board" in line
                 or " for a market of " in line]
        assert sorted(board) == sorted(expected)
        named += bool(expected)
    assert named > 300  # most damaged positions break a count


def test_an_advance_without_its_prerequisites_is_named_and_one_with_them_is_not() -> None:
    catalog = catalog_for("aor")
    state = _positions("invariant-advances", 5)[-1]
    needing = next(a for a in sorted(catalog.advances) if catalog.advances[a].requires)
    pid = sorted(state["players"])[0]
    state["players"][pid]["new_advances"] = [needing]
    assert f"{pid} owns {needing} without its prerequisites" in problems(catalog, state)
    state["players"][pid]["advances"] = sorted(set(catalog.advances[needing].requires))
    assert not [line for line in problems(catalog, state) if "prerequisites" in line]
