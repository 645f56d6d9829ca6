"""Preparing to play on the agenda (8.1-8.5): the card returned (parallel), the capital bid
(sealed), the capitals by bid, and the sealed token purchase, shared with 9.7."""

from __future__ import annotations

from collections.abc import Sequence

from engine.aor.actions.common import AorAction, ParallelAction, Step, cat, find
from engine.aor.actions.flow import reset_flow
from engine.aor.messages import counted, rows
from engine.aor.model import new_round, player
from engine.aor.names import card_name, choice, counted_choices, province_name
from engine.aor.order import apply_token_purchase, token_bid_range
from engine.aor.reasons import why
from engine.aor.setup import (
    apply_capital_bids,
    apply_opening_purchase,
    apply_return,
    bid_range,
    capital_options,
    choose_capital,
    finish_returns,
)
from engine.core.agenda import Node, new_node, new_parallel
from engine.core.chance import Chance
from engine.core.choice import Choice, clean_line
from engine.core.errors import Reason
from engine.core.table import Event, Table, event


class Return(ParallelAction):
    """8.1: keep two of the three dealt cards; the answer names a label, so it reveals nothing."""

    name = "return"
    decision = "return one of your three dealt cards to the deck (by label)"

    def options(self, t: Table, node: Node) -> list[Choice]:
        hand = player(t.state, node["player"])["hand"]
        return [choice("return", f"return {label}", (label, "label")) for label in sorted(hand)]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return None  # the hand is secret: never answered for the player (aor-pbem 4.3)

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        """The card with the highest id goes back."""
        hand = player(t.state, node["player"])["hand"]
        label = max(hand, key=lambda x: (hand[x], x))
        return find(options, f"return {label}") or options[-1]

    def conclude(self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance) -> list[Event]:
        events = []
        for pid, answer in sorted(answers.items()):
            card = apply_return(t.state, pid, answer.args[0])
            events.append(event("aor.setup.returned", kind="returned", visible_to=[pid],
                                card=card_name(cat(t), card)))
        finish_returns(cat(t), t.state)
        t.agenda.append(new_parallel(t.state, "capital_bid", sorted(t.state["players"]), sealed=True))
        return events + [event("aor.setup.capital_bids_open", kind="setup")]


def bid_beyond_cash(t: Table, node: Node, line: str, verb: str, what: str) -> Reason | None:
    """Why a bid of more than the player's cash is refused (`what`: the reason's key)."""
    words = clean_line(line).split()
    if words[:1] != [verb] or len(words) < 2:
        return None
    number = words[1:] == ["minus", words[-1]] and words[-1].isdigit()
    if not (number or (len(words) == 2 and words[1].isdigit())):
        return None
    n = -int(words[-1]) if number else int(words[1])
    cash = player(t.state, node["player"])["cash"]
    if n < 0 and verb == "bid":
        return why("capital_bid_negative")
    return why(what, n=n, cost=abs(n), cash=cash)


def forfeits_last(order: list[str], node: Node) -> list[str]:
    """Issue 8, aor-pbem 6.2: a seal never opened counts as the default and goes last."""
    forfeit = node.get("forfeit", [])
    return [p for p in order if p not in forfeit] + [p for p in order if p in forfeit]


class CapitalBid(ParallelAction):
    """8.3: a sealed bid of 0 to 40 ducats, paid by every bidder."""

    name = "capital_bid"
    decision = "bid for the first choice of capital (sealed)"
    resolution_draws = True  # tied bids roll dice

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [choice("bid", f"bid {n}", (str(n), "number"))
                for n in bid_range(t.state, node["player"])]

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        return bid_beyond_cash(t, node, line, "bid", "capital_bid_cash")

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return options[0]  # bid 0

    def conclude(self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance) -> list[Event]:
        bids = {pid: int(answer.args[0]) for pid, answer in answers.items()}
        queue = forfeits_last(apply_capital_bids(t.state, bids, chance), node)
        t.state["capital_queue"] = queue
        t.agenda.append(new_node(t.state, "capital", queue[0]))
        players = sorted(bids)
        return [event(counted("aor.setup.capital_bids", players), kind="unseal", queue=list(queue),
                      **rows(players=players, bids=[bids[p] for p in players]))]


class Capital(AorAction):
    name = "capital"
    decision = "choose your capital"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [choice("capital", f"capital {province_name(cat(t), c)}", (c, "province"))
                for c in capital_options(cat(t), t.state)]

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return options[0]

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        pid, capital = node["player"], chosen.args[0]
        choose_capital(cat(t), t.state, pid, capital)
        events = [event("aor.setup.capital", kind="capital", player=pid,
                        province=province_name(cat(t), capital))]
        if t.state.get("capital_queue"):
            return Step(events, [new_node(t.state, "capital", t.state["capital_queue"][0])])
        players = sorted(p for p, d in t.state["players"].items() if not d["eliminated"])
        events.append(event("aor.setup.tokens_open", kind="setup"))
        return Step(events, [new_parallel(t.state, "tokens", players, sealed=True)])


class Tokens(ParallelAction):
    """8.5 and 9.7: a sealed purchase; a negative number buys an earlier place for no tokens."""

    name = "tokens"
    decision = "buy tokens for the turn, which sets the Order of Play (sealed)"
    resolution_draws = True  # the next turn starts with the draws of 9.1

    def options(self, t: Table, node: Node) -> list[Choice]:
        return list(counted_choices("tokens", token_bid_range(t.state, node["player"])))

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        return bid_beyond_cash(t, node, line, "tokens", "tokens_cash")

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return find(options, "tokens 0") or options[0]

    def conclude(self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance) -> list[Event]:
        bids = {pid: int(answer.args[0]) for pid, answer in answers.items()}
        state = t.state
        if state["phase"] == "opening_purchase":
            order = apply_opening_purchase(state, bids)
        else:
            state["round"] = new_round()
            order = apply_token_purchase(state, bids)
            state["turn"] += 1
        order = state["order"] = forfeits_last(order, node)
        reset_flow(t, "draw")
        players = sorted(bids)
        return [event(counted("aor.order.tokens", players), kind="unseal", turn=state["turn"],
                      order=list(order), **rows(players=players, bids=[bids[p] for p in players]))]
