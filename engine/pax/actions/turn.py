"""The main turn (D1): one or two actions, per-turn limits, then the refresh and the next player."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial
from itertools import islice
from typing import Any

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.errors import Reason
from engine.core.options import Options
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event, has_ability
from engine.pax.actions.ability_actions import (
    apostasy_options,
    apply_apostasy,
    apply_revolt,
    revolt_options,
)
from engine.pax.actions.common import ACTIONS_PER_TURN, Cost, Result, Verb
from engine.pax.actions.fair import apply_fair, fair_options
from engine.pax.actions.market import apply_buy, buy_options, refresh_market
from engine.pax.actions.ops.node import apply_ops, ops_options
from engine.pax.actions.ops.tax import has_concession, set_standing, standing_answer, standing_options
from engine.pax.actions.play import apply_play, play_options
from engine.pax.actions.sell import apply_sell, sell_options
from engine.pax.model import player, prestige, tableau
from engine.pax.victory import (
    ability_notes,
    declaration_cost,
    describe,
    meets,
    victory_squares,
    victory_words,
)

END = Choice("end", (), (), "end")


def victory_options(t: Table, bank: str) -> list[Choice]:
    """E6: an active square whose conditions the player meets now."""
    return [_victory(square) for square in victory_squares(t)
            if t.state["victory"][square] == "active" and meets(t, bank, square)]


@cache
def _victory(square: str) -> Choice:
    return Choice("victory", (square,), ("square",), f"victory {square}")


def apply_victory(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    square = choice.args[0]
    declared = event("pax.victory.declare", kind=f"victory:{square}", bank=bank, square=square)
    notes = ability_notes(t, bank, square)
    msg, args = victory_words(t, bank, square)
    return Result([declared, *notes, *finish(t, [bank], square, describe(t, bank, square), msg,
                                             **args)], [])


def victory_cost(t: Table, bank: str, choice: Choice) -> Cost:
    return declaration_cost(t, bank, choice.args[0]), None


FREE_OPS = {"east": Ability.FREE_EASTERN_OPS, "west": Ability.FREE_WESTERN_OPS}


def ops_cost(t: Table, bank: str, choice: Choice) -> Cost:
    """D1: free ops abilities (the side still runs once per turn)."""
    side = choice.args[0]
    sides = ("east", "west") if side == "both" else (side,)
    if all(has_ability(t, bank, FREE_OPS[s]) for s in sides):
        ability = FREE_OPS[sides[0]]
        return 0, ability_event(ability, "pax.turn.free_ops", bank=bank, side=side)
    return 1, None


def fair_cost(t: Table, bank: str, choice: Choice) -> Cost:
    """Podestà of Venice: the first trade fair of the turn uses no action."""
    first = not any(key.startswith("fair_") for key in t.state["turn"]["used"])
    if first and has_ability(t, bank, Ability.FREE_TRADE_FAIR):
        return 0, ability_event(Ability.FREE_TRADE_FAIR, "pax.turn.free_fair", bank=bank)
    return 1, None


def may_run_free_ops(t: Table, bank: str) -> bool:
    """`ops_cost` is 0 only for a side under its free ops ability."""
    return any(has_ability(t, bank, ability) for ability in FREE_OPS.values())


def may_hold_free_fair(t: Table, bank: str) -> bool:
    """`fair_cost` is 0 only under the free trade fair ability."""
    return has_ability(t, bank, Ability.FREE_TRADE_FAIR)


def free_lines(t: Table, bank: str) -> list[Choice]:
    """Lines that take no action: standing answers to taxes (engine.pax.actions.ops.tax)."""
    if has_concession(t, bank) or standing_answer(t, bank) is not None:
        return standing_options(t, bank)
    return []


def _ops_limits(choice: Choice) -> tuple[str, ...]:
    side = choice.args[0]
    return ("ops_east", "ops_west") if side == "both" else (f"ops_{side}",)


VERBS: dict[str, Verb] = {
    "buy": Verb(buy_options, apply_buy, lambda c: ("buy",), once=False),
    "sell": Verb(sell_options, apply_sell, lambda c: ("sell",), once=False),
    "play": Verb(play_options, apply_play, lambda c: ("play",), once=False),
    "fair": Verb(fair_options, apply_fair, lambda c: (f"fair_{c.args[0]}",), once=True,
                 cost=fair_cost, same_cost=True, free=may_hold_free_fair),
    "ops": Verb(ops_options, apply_ops, _ops_limits, once=True, cost=ops_cost,
                free=may_run_free_ops),
    "victory": Verb(victory_options, apply_victory, lambda c: ("victory",), once=True,
                    cost=victory_cost),
    "apostasy": Verb(apostasy_options, apply_apostasy, lambda c: ("apostasy",), once=True),
    "revolt": Verb(revolt_options, apply_revolt, lambda c: ("revolt",), once=True),
}


def _end_options(t: Table, listed: Options) -> list[Choice]:
    return [END] if t.state["turn"]["used"] or not listed.any_before(len(VERBS)) else []


def _free_options(t: Table, bank: str, left: int, listed: Options) -> list[Choice]:
    return free_lines(t, bank) if left > 0 else []


def _verb_options(t: Table, bank: str, verb: Verb, left: int, listed: Options) -> list[Choice]:
    """The verb's lines not yet used this turn (D1) that cost no more actions than are left."""
    if left < 1 and (verb.free is None or not verb.free(t, bank)):
        return []  # every line would cost an action, and none is left
    used = t.state["turn"]["used"]
    options: list[Choice] = []
    cost = None
    for choice in verb.options(t, bank):
        if verb.once and any(key in used for key in verb.limits(choice)):
            continue
        if cost is None or not verb.same_cost:
            cost = verb.cost(t, bank, choice)[0]
        if cost <= left:
            options.append(choice)
    return options


class Turn(Action):
    name = "turn"
    decision = "choose an action"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return self.listed(t, node).whole()

    def listed(self, t: Table, node: Node) -> Options:
        """A group per verb, in VERBS order; then `end` (once an action is taken, or when
        nothing else is legal); then the free standing answers while an action is left."""
        bank = node["player"]
        left = ACTIONS_PER_TURN - t.state["turn"]["actions"]
        return Options([*((word, partial(_verb_options, t, bank, verb, left))
                          for word, verb in VERBS.items()),
                        ("end", partial(_end_options, t)),
                        ("standing", partial(_free_options, t, bank, left))])

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        """A single action line is forced; free standing-answer lines do not count (only two
        are read: the standing answers come last)."""
        actions = list(islice((c for c in options if c.verb != "standing"), 2))
        return actions[0] if len(actions) == 1 else None

    def explain(self, t: Table, node: Node, line: str) -> str | Reason | None:
        from engine.pax.explain import explain_turn  # start-up: only a refused line

        return explain_turn(t, node["player"], line)

    def default(self, t: Table, node: Node, options: list[Choice]) -> Choice:  # type: ignore[override]
        """A timeout passes the turn, even before any action (NMR "skip", ruling R-701)."""
        return END

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        bank = node["player"]
        if choice.verb == "end":
            return end_turn(t, bank, chance)
        if choice.verb == "standing":
            t.agenda.insert(0, node)
            return set_standing(t, bank, choice)
        verb = VERBS[choice.verb]
        turn = t.state["turn"]
        cost, note = verb.cost(t, bank, choice)
        turn["actions"] += cost
        turn["used"] = sorted({*turn["used"], *verb.limits(choice)})
        result = verb.apply(t, bank, choice, chance)
        events = ([note] if note else []) + result.events
        if t.state["over"]:
            return events
        t.agenda[0:0] = [*result.follow_ups, node]
        return events


def end_turn(t: Table, bank: str, chance: Chance) -> list[Event]:
    events = [event("pax.turn.end", bank=bank)]
    refresh = refresh_market(t, chance)
    events += refresh
    if any(e["kind"] == "market_exhausted" for e in refresh):
        return events + patron_victory(t)
    seating = list(t.state["order"])
    events += eliminate_bankrupt(t)
    if t.state["over"]:
        return events
    start = seating.index(bank)
    rotation = seating[start + 1:] + seating[:start + 1]
    following = next(b for b in rotation if b in t.state["order"])
    t.state["turn"] = {"number": t.state["turn"]["number"] + 1, "player": following,
                       "actions": 0, "used": [], "usury": []}
    t.agenda.append(new_node(t.state, "turn", following))
    return events


def patron_victory(t: Table) -> list[Event]:
    """L2a: most Patron prestige wins; then most florins; a remaining tie shares the victory."""
    def rank(bank: str) -> tuple[int, int]:
        return prestige(t, bank, "patron"), player(t, bank)["florins"]

    best = max(rank(bank) for bank in t.state["order"])
    winners = sorted(bank for bank in t.state["order"] if rank(bank) == best)
    # A tie shares the victory: one message per number of winners.
    msg = "pax.end.patron" if len(winners) == 1 else f"pax.end.patron.shared.{len(winners)}"
    return finish(t, winners, "patron", f"with {best[0]} Patron prestige and {best[1]} florins",
                  msg, patron=best[0], florins=best[1])


def finish(t: Table, winners: list[str], kind: str, detail: str, msg: str, **args: Any
           ) -> list[Event]:
    """End the game. The state keeps the result's kind and detail (read by reports); the event
    says the same through message `msg` with `args` and the winners."""
    t.state["over"] = True
    t.state["winners"] = winners
    t.state["result"] = {"kind": kind, "detail": detail}
    t.agenda.clear()
    return [event(msg, kind="game_over", winners=list(winners), **args)]


def eliminate_bankrupt(t: Table) -> list[Event]:
    """G6 bankruptcy variant: no florins, cards or concessions means the bank has failed."""
    if not t.state["options"].get("bankruptcy"):
        return []
    events = []
    for bank in list(t.state["order"]):
        me = player(t, bank)
        has_concession = any(c.get("concession") == f"pawn:{bank}"
                             for c in t.state["borders"].values())
        if me["florins"] or me["hand"] or tableau(t, bank) or me["old_maids"] or has_concession:
            continue
        t.state["order"].remove(bank)
        t.state["eliminated"] = sorted({*t.state["eliminated"], bank})
        events.append(event("pax.turn.bankrupt", kind="eliminated", bank=bank))
    if len(t.state["order"]) == 1:
        events += finish(t, list(t.state["order"]), "last bank standing", "after bankruptcies",
                         "pax.end.last_bank")
    return events
