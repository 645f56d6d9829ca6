"""Activate Ops (E4): the `ops east`/`ops west` action and its decision, one op per card.

The action is legal only when some op on that side has a valid target (D1). It queues an
`ops` decision listing `op CARD OP TARGET…` for every card of that side not yet used this
action (cards gained meanwhile included, E4a), each of its ops with a valid target; a silenced
card offers only its religious ops (F1f). `done` ends the action once one op is done (E4).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.errors import Reason
from engine.core.registry import Registry
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event, has_ability, usable_ops
from engine.pax.actions.common import Result
from engine.pax.actions.ops.base import REGIONS, OpHandler, op_type, split_card_op
from engine.pax.model import card_name, cat, side_cards

_OPS = "engine.pax.actions.ops"

# op type -> its handler, each module loaded when a card first offers an op of its family
HANDLERS: Mapping[str, OpHandler] = Registry({
    "inquisitor": f"{_OPS}.religious:INQUISITOR", "commerce": f"{_OPS}.political:COMMERCE",
    "behead": f"{_OPS}.political:BEHEAD", "tax": f"{_OPS}.tax:TAX",
    "repress": f"{_OPS}.political:REPRESS", "vote": f"{_OPS}.political:VOTE",
    "corsair": f"{_OPS}.military:CORSAIR", "siege": f"{_OPS}.military:SIEGE",
    "campaign": f"{_OPS}.military:CAMPAIGN",
}, lambda handler: handler)
DONE = Choice("done", (), (), "done")
BOTH = "both"


def card_choices(t: Table, bank: str, card_id: str, *, political: bool = False
                 ) -> list[Choice]:
    """Every op line of one card now: each op with a valid target (F1f silencing applied;
    immunity to silencing honoured); only its political ops when `political`."""
    choices: list[Choice] = []
    for op_id in dict.fromkeys(usable_ops(t, card_id)):
        if political and cat(t).ops[op_id]["category"] != "political":
            continue
        choices += HANDLERS[op_type(t, op_id)].targets(t, bank, card_id, op_id)
    return choices


def sides_of(side: str) -> tuple[str, ...]:
    """`both` is the East and the West together (east_and_west_ops_in_one_action)."""
    return REGIONS if side == BOTH else (side,)


def side_choices(t: Table, bank: str, side: str, used: list[str]) -> list[Choice]:
    choices: list[Choice] = []
    for one in sides_of(side):
        for card_id in side_cards(t, bank, one):
            if card_id not in used:
                choices += card_choices(t, bank, card_id)
    return choices


def card_can_act(t: Table, bank: str, card_id: str) -> bool:
    """Whether `card_choices` has a line for the card: the same lazy target lists, stopping at
    the first target of the first op that has one."""
    return any(next(HANDLERS[op_type(t, op_id)].targets(t, bank, card_id, op_id), None)
               is not None for op_id in dict.fromkeys(usable_ops(t, card_id)))


def can_run(t: Table, bank: str, side: str) -> bool:
    return any(card_can_act(t, bank, c) for s in sides_of(side) for c in side_cards(t, bank, s))


def ops_options(t: Table, bank: str) -> list[Choice]:
    """`ops east`, `ops west`, and `ops both` for the Transylvanian Plot / Last Sigh ability."""
    runnable = [side for side in REGIONS if can_run(t, bank, side)]
    choices = [SIDES[side] for side in runnable]
    if runnable and has_ability(t, bank, Ability.EAST_AND_WEST_OPS_IN_ONE_ACTION):
        choices.append(SIDES[BOTH])
    return choices


SIDES = {side: Choice("ops", (side,), ("side",), f"ops {side}") for side in (*REGIONS, BOTH)}


def apply_ops(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    side = choice.args[0]
    if side == BOTH:
        shown = ability_event(Ability.EAST_AND_WEST_OPS_IN_ONE_ACTION, "pax.ops.both", bank=bank)
    else:
        shown = event("pax.ops.side", bank=bank, side=side)
    return Result([shown], [new_node(t.state, "ops", bank, side=side, used=[])])


class Ops(Action):
    """E4: one op per card of the side, in any order, then `done`."""

    name = "ops"
    decision = "run one op per card (op CARD OP TARGET), then done"

    def options(self, t: Table, node: Node) -> list[Choice]:
        args = node["args"]
        choices = side_choices(t, node["player"], args["side"], args["used"])
        return choices + [DONE] if args["used"] else choices or [DONE]

    def default(self, t: Table, node: Node, options: list[Choice]) -> Choice:  # type: ignore[override]
        return DONE if DONE in options else options[0]

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        from engine.pax.explain_places import explain_op  # start-up: only a refused line

        args = node["args"]
        return explain_op(t, node["player"], args["side"], args["used"], line)

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        if choice.verb == "done":
            return []
        card_id, op_id = split_card_op(choice)
        # an op the rules force (the only legal line) runs by itself; the block's
        # results say so, before what the op did.
        forced = [event("pax.ops.forced", bank=node["player"], card=card_name(t, card_id),
                        op=op_type(t, op_id))] if self.options(t, node) == [choice] else []
        node["args"]["used"] = [*node["args"]["used"], card_id]
        events, follow = HANDLERS[op_type(t, op_id)].perform(t, node["player"], choice)
        t.agenda[0:0] = [*follow, node]
        return forced + events
