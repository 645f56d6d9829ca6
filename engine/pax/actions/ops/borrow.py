"""Cryptography, "Medici Ciphers Broken" (sell_to_borrow_opponent_purple_op, CRYPTOGRAPHY):
when its owner sells it from the tableau, unsilenced, they may run one political (purple) op
of a card in an opponent's West tableau as though it were theirs. The card keeps its Location
and its limits (it cannot behead itself, it dies beheading a square, a silenced card offers no
political op, its own behead restrictions hold). The line is an ordinary op line, or `skip`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table
from engine.pax.abilities import Ability, ability_event
from engine.pax.actions.ops.base import op_type, split_card_op
from engine.pax.actions.ops.node import HANDLERS, card_choices
from engine.pax.model import banks, card_name, side_cards

SKIP = Choice("skip", (), (), "skip")


def borrow_options(t: Table, bank: str) -> list[Choice]:
    choices: list[Choice] = []
    for other in banks(t):
        if other != bank:
            for card_id in side_cards(t, other, "west"):
                choices += card_choices(t, bank, card_id, political=True)
    return choices


class Borrow(Action):
    name = "borrow"
    decision = "run one political op of a card in an opponent's West tableau, or skip"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return borrow_options(t, node["player"]) + [SKIP]

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return SKIP

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        if choice.verb == "skip":
            return []
        bank = node["player"]
        card_id, op_id = split_card_op(choice)
        note = ability_event(Ability.SELL_TO_BORROW_OPPONENT_PURPLE_OP, "pax.op.borrowed",
                             bank=bank, op=op_type(t, op_id), card=card_name(t, card_id))
        events, follow = HANDLERS[op_type(t, op_id)].perform(t, bank, choice)
        t.agenda[0:0] = follow
        return [note, *events]
