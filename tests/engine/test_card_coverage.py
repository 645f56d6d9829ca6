"""Every card in the data is reachable in play (issue 6): in some constructed state it can be
bought, played, each of its ops has a legal op line, and its one-shot can be triggered. A
catalog test fails when the data names an op, one-shot or ability that no rule handles.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.choice import match_line
from engine.pax.ability_ids import Ability
from engine.pax.actions.oneshots import HANDLERS as ONE_SHOTS
from engine.pax.actions.ops.node import HANDLERS as OPS
from engine.pax.actions.ops.node import card_choices
from engine.pax.actions.turn import VERBS
from engine.pax.catalog import CatalogError, check_abilities
from engine.pax.model import card
from engine.pax.ruleset import PAX
from pbem.resources import ruleset_data
from pbem.rulesets import pax_catalog
from tests.engine.card_states import ME, new_game, place, prepare_oneshot, prepare_op, to_market

CARDS = sorted(pax_catalog().cards)
ENGINE = Path(__file__).resolve().parents[2] / "engine"


def _line(table: object, text: str) -> object:
    options = options_now(PAX, table)  # type: ignore[arg-type]
    return match_line(text, options, PAX.namer(table), PAX.verbs)  # type: ignore[arg-type]


@pytest.mark.parametrize("card_id", CARDS)
def test_card_can_be_bought(card_id: str) -> None:
    table, chance = new_game()
    line = to_market(table, card_id)
    PAX.check_invariants(table)
    choice = _line(table, line)
    answer(PAX, table, choice, chance)  # type: ignore[arg-type]
    run_automatic(PAX, table, chance)
    PAX.check_invariants(table)
    where = table.state["discard"] if card(table, card_id).kind == "comet" \
        else table.state["players"][ME]["hand"]
    assert card_id in where


@pytest.mark.parametrize("card_id", [c for c in CARDS if pax_catalog().cards[c].kind != "comet"])
def test_card_can_be_played(card_id: str) -> None:
    table, chance = new_game()
    place(table, card_id, ME, "hand")
    PAX.check_invariants(table)
    plays = [c for c in options_now(PAX, table) if c.verb == "play" and c.args == (card_id,)]
    assert plays, f"{card_id} cannot be played from the hand"
    answer(PAX, table, plays[0], chance)
    run_automatic(PAX, table, chance)
    PAX.check_invariants(table)


OP_CASES = [(c, op) for c in CARDS for op in dict.fromkeys(pax_catalog().cards[c].ops)]


@pytest.mark.parametrize(("card_id", "op_id"), OP_CASES, ids=[f"{c}-{o}" for c, o in OP_CASES])
def test_each_op_has_a_legal_line(card_id: str, op_id: str) -> None:
    table, chance = new_game()
    place(table, card_id, ME, "tableau")
    prepare_op(table, card_id, op_id)
    PAX.check_invariants(table)
    lines = [c for c in card_choices(table, ME, card_id) if c.args[0] == f"{card_id}/{op_id}"]
    assert lines, f"{card_id} {op_id}: no legal op line"
    OPS[str(table.catalog.ops[op_id]["type"])].perform(table, ME, lines[0])


SHOT_CASES = [c for c in CARDS if pax_catalog().cards[c].one_shot is not None]


@pytest.mark.parametrize("card_id", SHOT_CASES)
def test_one_shot_can_fire(card_id: str) -> None:
    table, chance = new_game()
    place(table, card_id, ME, "hand")
    prepare_oneshot(table, card_id)
    PAX.check_invariants(table)
    plays = [c for c in options_now(PAX, table) if c.verb == "play" and c.args == (card_id,)]
    answer(PAX, table, plays[0], chance)
    run_automatic(PAX, table, chance)
    options = options_now(PAX, table)
    fire = [c for c in options if c.verb in ("oneshot", "oneshot in", "marry")]
    assert fire, f"{card_id}: the one-shot is never offered; options {[o.line for o in options]}"
    events = answer(PAX, table, fire[0], chance) + run_automatic(PAX, table, chance)
    PAX.check_invariants(table)
    assert any(e["kind"].startswith("oneshot:") for e in events)


def test_every_op_and_one_shot_named_by_the_data_has_a_handler() -> None:
    data = ruleset_data("pax", ("cards", "map", "abilities"))["cards"]
    op_types = {str(op["type"]) for op in data["op_catalog"].values()}
    assert op_types <= set(OPS), f"ops without a handler: {op_types - set(OPS)}"
    used = {op for c in data["tableau_cards"] for op in c["ops"]}
    used |= {op for s in data["empire_squares"] for side in ("king", "republic")
             for op in s[side]["ops"]}
    assert used <= set(data["op_catalog"])
    shots = {str(c["one_shot"]["type"]) for c in data["tableau_cards"] if c["one_shot"]}
    assert shots - {"coronation"} <= set(ONE_SHOTS), f"one-shots: {shots - set(ONE_SHOTS)}"
    assert "coronation" in shots


def test_every_ability_has_a_rule_site() -> None:
    """The data's ability ids equal the Ability enum, and each member is asked about by a rule
    somewhere in the engine (outside the enum itself)."""
    ids = ruleset_data("pax", ("cards", "map", "abilities"))["abilities"]["abilities"]
    check_abilities(ids)
    with pytest.raises(CatalogError, match="no rule implements"):
        check_abilities({**ids, "fly_to_the_moon": {}})
    source = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.rglob("*.py")
                       if p.name != "ability_ids.py")
    asked = set(re.findall(r"Ability\.([A-Z_]+)", source))
    missing = sorted(a.name for a in Ability if a.name not in asked)
    assert not missing, f"abilities with no rule site: {missing}"


def test_ability_actions_are_turn_verbs() -> None:
    assert {"apostasy", "revolt"} <= set(VERBS)
