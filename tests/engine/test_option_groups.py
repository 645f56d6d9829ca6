"""The Pax main turn lists its answers a group at a time (engine.core.options, issue 17); read
whole, in part, or by one line, the groups must give what the whole list gives.

Checked at every main-turn decision of seeded random games of two to four players, against
the list built in one pass (the way the turn built it before it was grouped, D1):
- the whole list, in order;
- every line of a group begins with the group's word, so a line is looked for in one group;
- each legal line, looked up on fresh options, names exactly its own answer;
- whether an answer is forced (two answers read at most) agrees with the whole list.
"""

from __future__ import annotations

from engine.core.agenda import next_pending
from engine.core.choice import Choice, fold, match_line
from engine.core.options import Options
from engine.core.table import Table
from engine.pax.abilities import Ability
from engine.pax.actions.common import ACTIONS_PER_TURN
from engine.pax.actions.turn import END, VERBS, Turn, free_lines
from engine.pax.ruleset import PAX
from pbem.rulesets import pax_catalog
from tests.engine.playing import random_pax_positions

TURN = Turn()


def _one_pass(t: Table, bank: str) -> list[Choice]:
    """The turn's legal lines built in one pass (D1: once-per-turn limits, actions left)."""
    turn = t.state["turn"]
    left = ACTIONS_PER_TURN - turn["actions"]
    options: list[Choice] = []
    for verb in VERBS.values():
        for choice in verb.options(t, bank):
            if verb.once and any(key in turn["used"] for key in verb.limits(choice)):
                continue
            if verb.cost(t, bank, choice)[0] <= left:
                options.append(choice)
    if turn["used"] or not options:
        options.append(END)
    if left > 0:
        options += free_lines(t, bank)
    return options


def _forced(options: list[Choice]) -> Choice | None:
    actions = [c for c in options if c.verb != "standing"]
    return actions[0] if len(actions) == 1 else None


def _check(t: Table, node: dict[str, object], counts: dict[str, int]) -> None:
    bank = str(node["player"])
    expected = _one_pass(t, bank)
    listed = TURN.listed(t, node)
    assert isinstance(listed, Options)
    assert TURN.auto(t, node, listed) == _forced(expected)
    assert list(listed) == expected and listed == expected
    for index, word in enumerate(listed.words()):
        for choice in listed.group(index):
            assert fold(choice.line).split(" ", 1)[0] == word, (word, choice.line)
    namer = PAX.namer(t)
    for choice in expected:
        fresh = TURN.listed(t, node)
        assert fresh.named(fold(choice.line)) == [choice]
        assert match_line(choice.line, fresh, namer, PAX.verbs) == choice
        counts[choice.verb] = counts.get(choice.verb, 0) + 1
    kind = "forced" if _forced(expected) else "open"
    counts[kind] = counts.get(kind, 0) + 1
    if t.state["turn"]["actions"] == ACTIONS_PER_TURN and _forced(expected) != END:
        counts["free with no action left"] = counts.get("free with no action left", 0) + 1


def test_grouped_turn_options_agree_with_the_whole_list() -> None:
    counts: dict[str, int] = {}
    for table in random_pax_positions("option-groups", 3, 250, unsettled=True):
        node = next_pending(table.agenda)  # unsettled too: forced turns are met
        if node is not None and node["action"] == "turn":
            _check(table, node, counts)
    # the lines of every kind were looked up, and both forced and open turns were met
    for kind in ("buy", "sell", "play", "ops", "end", "forced", "open"):
        assert counts.get(kind), (kind, counts)


FREE = (Ability.FREE_EASTERN_OPS, Ability.FREE_WESTERN_OPS, Ability.FREE_TRADE_FAIR)


def test_with_no_action_left_only_free_verbs_are_listed() -> None:
    """D1: with both actions used, a verb is listed only when its line may cost nothing (the
    free ops and free trade fair abilities); the groups skip the others unmade. Each free
    ability's card is put in the player's tableau at each position, with 0, 1 and 2 actions
    used, and the groups are compared with the whole list."""
    counts: dict[str, int] = {}
    catalog = pax_catalog()
    for table in random_pax_positions("free-actions", 2, 150):
        node = next_pending(table.agenda)
        if node is None or node["action"] != "turn":
            continue
        for ability in FREE:
            for used in range(ACTIONS_PER_TURN + 1):
                t = table.copy()
                card_id = sorted(catalog.abilities[ability]["cards"])[0]
                side = "east" if ability == Ability.FREE_EASTERN_OPS else "west"
                t.state["players"][node["player"]][side].append(card_id)
                t.state["turn"]["actions"] = used
                _check(t, node, counts)
    assert counts.get("free with no action left"), counts
