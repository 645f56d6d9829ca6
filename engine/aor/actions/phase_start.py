"""Decisions at the start of phases (9.1, 9.2, 9.7/Q): Renaissance swaps, the first player's
marker removal, Wind/Watermill, and the card purchases of Urban Ascendancy and Master Art."""

from __future__ import annotations

from collections.abc import Sequence

from engine.aor.actions.common import AorAction, Step, cat
from engine.aor.actions.flow import MASTER_ART, URBAN_ASCENDANCY, drew
from engine.aor.deck import can_draw, discard_from_hand, draw_to_hand
from engine.aor.market import mill, mill_options, removal_options, remove_level
from engine.aor.model import hand_size, owns, pay, player
from engine.aor.names import card_name, choice, simple
from engine.aor.order import swap, swap_options
from engine.aor.standing import RENAISSANCE_NEVER, RENAISSANCE_NO, declines_swap, is_standing, set_standing
from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.table import Event, Table, event

NO_SWAP, DONE, NO_MILL, PASS, BUY_CARD = (simple("no swap"), simple("done"), simple("no mill"),
                                          simple("pass"), simple("buy card"))


class Renaissance(AorAction):
    """Q, R20: swap with the neighbour before or after who lacks Renaissance; once a turn. A
    standing answer (R61) declines for the rest of the turn or the game, and then answers."""

    name = "renaissance"
    decision = "swap places in the Order of Play (Renaissance) or not"

    def options(self, t: Table, node: Node) -> list[Choice]:
        pid, order = node["player"], t.state["order"]
        found = []
        for other in swap_options(t.state, pid):
            side = "earlier" if order.index(other) < order.index(pid) else "later"
            found.append(choice("swap", f"swap {side}", (side, "word")))
        return found + [RENAISSANCE_NO, RENAISSANCE_NEVER, NO_SWAP]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return NO_SWAP if declines_swap(t.state, node["player"]) else None

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        pid = node["player"]
        if is_standing(chosen):
            return Step(set_standing(t.state, pid, chosen))
        if chosen.verb == "no swap":
            if declines_swap(t.state, pid):  # answered by the standing answer, not by a line
                return Step([event("aor.standing.no_swap", kind="standing", player=pid)])
            return Step([])
        order = t.state["order"]
        at = order.index(pid) + (-1 if chosen.args[0] == "earlier" else 1)
        other = order[at]
        swap(t.state, pid, other)
        return Step([event("aor.order.swap", kind="swap", player=pid, other=other,
                           order=list(t.state["order"]))])


class Removal(AorAction):
    """9.1: the first player may pay a commodity's base value to remove one marker level."""

    name = "remove"
    decision = "pay to remove shortage or surplus markers, then done"

    def options(self, t: Table, node: Node) -> list[Choice]:
        found = [choice("pay", f"pay {c}", (c, "commodity"))
                 for c in removal_options(cat(t), t.state, node["player"])]
        return found + [DONE]

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        if chosen.verb == "done":
            return Step([])
        commodity = chosen.args[0]
        cost = remove_level(cat(t), t.state, node["player"], commodity)
        return Step([event("aor.market.removal", kind="removal", player=node["player"], cost=cost,
                           commodity=commodity)], again=True)


class Mill(AorAction):
    """J, R06: move Grain, Cloth, Wine or Metal one level toward shortage or surplus."""

    name = "mill"
    decision = "move one commodity toward shortage or surplus (Wind/Watermill) or not"

    def options(self, t: Table, node: Node) -> list[Choice]:
        found = []
        for commodity, step in mill_options(cat(t), t.state, node["player"]):
            way = "shortage" if step > 0 else "surplus"
            found.append(choice("mill", f"mill {commodity} {way}", (commodity, "commodity"),
                                (way, "word")))
        return found + [NO_MILL]

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        if chosen.verb == "no mill":
            return Step([])
        commodity, way = chosen.args
        mill(cat(t), t.state, node["player"], commodity, 1 if way == "shortage" else -1)
        msg = "aor.market.mill_shortage" if way == "shortage" else "aor.market.mill_surplus"
        return Step([event(msg, kind="mill", player=node["player"], commodity=commodity)])


class BuyCards(AorAction):
    """9.2: Urban Ascendancy buys one card for 10 ducats; Master Art discards one card (R07), each
    once and in either order (R62).
    The node's args record what was done (`bought`, `discarded`)."""

    name = "buy_cards"
    decision = "buy a card (Urban Ascendancy), discard a card (Master Art), or pass"

    def options(self, t: Table, node: Node) -> list[Choice]:
        pid, args, state = node["player"], node["args"], t.state
        found = []
        price = int(cat(t).numbers["prices"]["urban_ascendancy_card"])
        # R62: the purchase and the discard are independent grants of 9.2, in either order
        if owns(state, pid, URBAN_ASCENDANCY) and not args.get("bought") \
                and player(state, pid)["cash"] >= price and can_draw(state):
            found.append(BUY_CARD)
        if owns(state, pid, MASTER_ART) and not args.get("discarded"):
            found += discard_options(t, pid)
        return found + [PASS]

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        pid = node["player"]
        if chosen.verb == "pass":
            return Step([])
        if chosen.verb == "buy card":
            price = int(cat(t).numbers["prices"]["urban_ascendancy_card"])
            pay(t.state, pid, price)
            node["args"]["bought"] = True
            label = draw_to_hand(t.state, chance, pid, f"urban ascendancy turn {t.state['turn']} {pid}")
            return Step(drew(t, pid, label, "urban", price=price), again=True)
        node["args"]["discarded"] = True
        return Step(discard(t, pid, chosen.args[0]), again=True)


def discard_options(t: Table, pid: str) -> list[Choice]:
    """One `discard CARD` per distinct card name in the hand (R36: the lower id)."""
    seen: dict[str, Choice] = {}
    for label, card in sorted(player(t.state, pid)["hand"].items(), key=lambda kv: (kv[1], kv[0])):
        name = card_name(cat(t), card)
        seen.setdefault(name, choice("discard", f"discard {name}", (label, "card")))
    return sorted(seen.values(), key=lambda c: c.line)


def discard(t: Table, pid: str, label: str) -> list[Event]:
    """Master Art (P): the card is shown and leaves the hand (circled to the reusable pile)."""
    card = discard_from_hand(cat(t), t.state, pid, label)
    return [event("aor.buy.discard", kind="discard", player=pid, card=card_name(cat(t), card),
                  left=hand_size(t.state, pid))]

