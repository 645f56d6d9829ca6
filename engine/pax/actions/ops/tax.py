"""The tax op (F4) and the concession owner's answer, given out of turn, and standing answers.

The taxing player names a concession on a border of the taxing empire (which needs an empty
city). The owner then decides, in a block of their own: `pay` (1 florin to China) or `repress`
(the pawn becomes a serf on the taxing empire's square, for free), then places a levy of their
choice there. When the owner cannot pay, the answer is forced.

Standing answers let an owner answer in advance, so a game need not wait for them. They are
lines of the owner's own blocks, sent during their turn (free, not an action) or in answer to
a tax: `standing taxed pay`, `standing taxed pay N` (pay while holding N florins or more, else
repress), `standing taxed repress`, and `standing taxed ask` to clear it. The answer is kept in
the state under `players.<bank>.standing.taxed`; a standing answer also places the levy, in the
first empty city in map order, when there is a choice.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.errors import Reason
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.actions.fair import Levy
from engine.pax.actions.ops.base import (
    Done,
    OpHandler,
    acting_empires,
    in_words,
    op_choice,
    op_event,
    place_label,
    split_card_op,
)
from engine.pax.model import (
    cat,
    concession_owner,
    player,
    remove_from_border,
    repress,
    token_colour,
)
from engine.pax.places import empty_cities

PAY = Choice("pay", (), (), "pay")
REPRESS = Choice("repress", (), (), "repress")
THRESHOLDS = (2, 3, 4, 5)

# --- standing answers -------------------------------------------------------------------------


def standing_answer(t: Table, bank: str) -> str | None:
    answer = player(t, bank).get("standing", {}).get("taxed")
    return str(answer) if answer else None


def standing_options(t: Table, bank: str) -> list[Choice]:
    """The `standing taxed …` lines, leaving out the answer already standing."""
    return list(_standing_lines(standing_answer(t, bank)))


@cache
def _standing_lines(current: str | None) -> tuple[Choice, ...]:
    """Built once per standing answer (a Choice is immutable)."""
    answers = ["pay", *(f"pay {n}" for n in THRESHOLDS), "repress"]
    if current is not None:
        answers.append("ask")
    return tuple(Choice("standing", (f"taxed {a}",), ("answer",), f"standing taxed {a}")
                 for a in answers if a != current)


def has_concession(t: Table, bank: str) -> bool:
    """Whether `bank` owns a concession (`concession_owner` of some border is `bank`)."""
    return any(token_colour(owner) == bank for content in t.state["borders"].values()
               if (owner := content.get("concession")))


def set_standing(t: Table, bank: str, choice: Choice) -> list[Event]:
    answer = choice.args[0].removeprefix("taxed ")
    standing = player(t, bank).setdefault("standing", {})
    if answer == "ask":
        standing.pop("taxed", None)
        if not standing:
            del player(t, bank)["standing"]
        return [event("pax.standing.ask", kind="standing", bank=bank)]
    standing["taxed"] = answer
    if answer in ("repress", "pay"):
        return [event(f"pax.standing.{answer}", kind="standing", bank=bank)]
    return [event("pax.standing.pay_holding", kind="standing", bank=bank,
                  florins=int(answer.split()[1]))]


def apply_standing(answer: str, florins: int) -> Choice:
    if answer == "repress" or florins < 1:
        return REPRESS
    if answer == "pay":
        return PAY
    return PAY if florins >= int(answer.split()[1]) else REPRESS


# --- the op -----------------------------------------------------------------------------------


def tax_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    empires = [e for e in acting_empires(t, card_id) if empty_cities(t, e)]
    by_border: dict[str, list[str]] = {}
    for empire_id in empires:
        for border_id in cat(t).empires[empire_id].borders:
            if concession_owner(t, border_id) is not None:
                by_border.setdefault(border_id, []).append(empire_id)
    for border_id, taxing in sorted(by_border.items()):
        for empire_id in sorted(taxing):
            if len(taxing) > 1:  # a region card names the empire that taxes and levies
                yield op_choice(t, card_id, op_id, (border_id, empire_id), ("border", "in"),
                                (place_label(t, border_id), in_words(t, empire_id)))
            else:
                yield op_choice(t, card_id, op_id, (border_id,), ("border",),
                                (place_label(t, border_id),), within=taxing)


def tax_perform(t: Table, bank: str, choice: Choice) -> Done:
    border_id = choice.args[1]
    card_id, _ = split_card_op(choice)
    if len(choice.args) > 2:
        empire_id = choice.args[2]
    else:
        empire_id = next(e for e in sorted(cat(t).borders[border_id].empires)
                         if e in acting_empires(t, card_id) and empty_cities(t, e))
    owner = concession_owner(t, border_id)
    assert owner is not None
    node = new_node(t.state, "tax_response", owner, border=border_id, empire=empire_id,
                    taxer=bank)
    return [op_event(t, bank, choice, "pax.op.tax", owner=owner,
                     border=cat(t).borders[border_id].name,
                     empire=cat(t).empires[empire_id].name)], [node]


TAX = OpHandler(tax_targets, tax_perform)


# --- the owner's answer -----------------------------------------------------------------------


class TaxResponse(Action):
    """F4: the taxed concession's owner pays 1 florin to China or represses it, then levies."""

    name = "tax_response"
    decision = "answer the tax on a concession: pay 1 florin to China or repress it"

    def answers(self, t: Table, node: Node) -> list[Choice]:
        return [PAY, REPRESS] if player(t, node["player"])["florins"] >= 1 else [REPRESS]

    def options(self, t: Table, node: Node) -> list[Choice]:
        return self.answers(t, node) + standing_options(t, node["player"])

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        answers = self.answers(t, node)
        if len(answers) == 1:
            return answers[0]
        standing = standing_answer(t, node["player"])
        if standing is None:
            return None
        return apply_standing(standing, player(t, node["player"])["florins"])

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return self.answers(t, node)[0]

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        from engine.pax.explain_places import explain_tax_answer  # start-up: a refused line

        return explain_tax_answer(t, node["player"], line)

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        owner = node["player"]
        if choice.verb == "standing":
            events = set_standing(t, owner, choice)
            t.agenda.insert(0, node)
            return events
        border_id, empire_id = node["args"]["border"], node["args"]["empire"]
        border, empire = cat(t).borders[border_id].name, cat(t).empires[empire_id].name
        standing = standing_answer(t, owner) is not None
        if choice.verb == "pay":
            player(t, owner)["florins"] -= 1
            events = [event("pax.tax.pay", owner=owner, border=border)]
        else:
            tok = t.state["borders"][border_id]["concession"]
            remove_from_border(t, border_id, "concession")
            repress(t, tok, empire_id)
            events = [event("pax.tax.repress", owner=owner, border=border, empire=empire)]
        if empty_cities(t, empire_id):
            t.agenda.insert(0, new_node(t.state, "tax_levy", owner, empire=empire_id,
                                        standing=standing))
        else:
            events.append(event("pax.levy.saturated", empire=empire))
        return events


class TaxLevy(Levy):
    """F4: the concession's owner (not the taxing player) chooses the levy's city; under a
    standing answer, the first empty city in map order."""

    name = "tax_levy"
    decision = "which city receives the tax levy"

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        if node["args"].get("standing") and options:
            return options[0]
        return super().auto(t, node, options)
