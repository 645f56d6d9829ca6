"""Purchase (E1), comets (L1) and the market refresh (D2)."""

from __future__ import annotations

from functools import lru_cache

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import HAND_LIMIT, Ability, ability_event, hand_limit
from engine.pax.actions.common import Result
from engine.pax.model import card, card_name, player, plural
from engine.pax.setup import draw_card
from engine.pax.victory import victory_squares

SIDES = ("east", "west")
OTHER = {"east": "west", "west": "east"}


def buy_options(t: Table, bank: str) -> list[Choice]:
    me = player(t, bank)
    # The limit is two or none: it is asked only of a hand that would reach two.
    full_hand = len(me["hand"]) >= HAND_LIMIT and hand_limit(t, bank) is not None
    usury = set(t.state["turn"]["usury"])
    options = []
    for side in SIDES:
        for column, slot in enumerate(t.state["market"][side]):
            card_id = slot["card"]
            if column == 0 or card_id is None or column > me["florins"] or card_id in usury:
                continue
            if full_hand and card(t, card_id).kind != "comet":
                continue
            options.append(_buy(card_id, side, column))
    return options


@lru_cache(maxsize=4096)
def _buy(card_id: str, side: str, column: int) -> Choice:
    """Built once (a Choice is immutable)."""
    return Choice("buy", (card_id,), ("card",), f"buy {side} {column}")


def _slot_of(t: Table, card_id: str) -> tuple[str, int]:
    for side in SIDES:
        for column, slot in enumerate(t.state["market"][side]):
            if slot["card"] == card_id:
                return side, column
    raise AssertionError(f"{card_id} is not in the market")


def apply_buy(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    card_id = choice.args[0]
    side, column = _slot_of(t, card_id)
    market = t.state["market"]
    me = player(t, bank)
    for left in range(column):
        # E1 market gap: a vacant spot is paid to the other row's card in that column.
        target = market[side][left]
        if target["card"] is None and market[OTHER[side]][left]["card"] is not None:
            target = market[OTHER[side]][left]
        target["florins"] += 1
        if target["card"] is not None and target["card"] not in t.state["turn"]["usury"]:
            t.state["turn"]["usury"].append(target["card"])
    t.state["turn"]["usury"].sort()
    me["florins"] -= column
    bought = market[side][column]
    gained = bought["florins"]
    me["florins"] += gained
    market[side][column] = {"card": None, "florins": 0}
    name = card_name(t, card_id)
    # Florins found on the card are told in the purchase's own words (singular or plural).
    taking = f".taking.{plural(gained)}" if gained else ""
    found = {"florins": gained} if gained else {}
    if card(t, card_id).kind == "comet":
        t.state["discard"].append(card_id)
        t.state["discard"].sort()
        events = [event(f"pax.buy.comet{taking}", bank=bank, card=name, cost=column, **found)]
        inactive = [s for s in victory_squares(t) if t.state["victory"][s] == "inactive"]
        follow = [new_node(t.state, "activate", bank)] if inactive else []
        return Result(events, follow)
    events = []
    if len(me["hand"]) >= HAND_LIMIT:
        events.append(ability_event(Ability.UNLIMITED_HAND_SIZE, "pax.buy.beyond_hand_limit",
                                    bank=bank))
    me["hand"].append(card_id)
    me["hand"].sort()
    return Result([event(f"pax.buy.card{taking}", visible_to=None, bank=bank, card=name, side=side,
                         column=column, cost=column, **found), *events], [])


class Activate(Action):
    """L1: the comet's buyer flips an inactive victory square."""

    name = "activate"
    decision = "which victory square to activate"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [Choice("activate", (s,), ("square",), f"activate {s}")
                for s in victory_squares(t) if t.state["victory"][s] == "inactive"]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        square = choice.args[0]
        t.state["victory"][square] = "active"
        return [event("pax.victory.activate", bank=node["player"], square=square)]


def refresh_market(t: Table, chance: Chance) -> list[Event]:
    """D2: slide left with florins, refill East then West; False-y market ends the game."""
    market = t.state["market"]
    for side in SIDES:
        row = market[side]
        cards = [slot for slot in row if slot["card"] is not None]
        gap_florins = [slot["florins"] if slot["card"] is None else 0 for slot in row]
        market[side] = [
            {"card": cards[i]["card"] if i < len(cards) else None,
             "florins": (cards[i]["florins"] if i < len(cards) else 0) + gap_florins[i]}
            for i in range(len(row))
        ]
    events: list[Event] = []
    for side in SIDES:
        for column, slot in enumerate(market[side]):
            if slot["card"] is not None:
                continue
            drawn = take_from_deck(t, side, chance, f"refill-{side}-{column}")
            if drawn is None:
                drawn = take_from_deck(t, OTHER[side], chance, f"refill-{side}-{column}")
            if drawn is None:
                return events + [event("pax.market.exhausted", kind="market_exhausted")]
            slot["card"] = drawn
    reveal_previews(t, chance)
    return events


def take_from_deck(t: Table, side: str, chance: Chance, purpose: str) -> str | None:
    """The top card of a deck (the astrology preview first, when there is one)."""
    previews = t.state.get("preview", {})
    if previews.get(side):
        drawn: str = previews[side]
        previews[side] = None
        return drawn
    return draw_card(t.state, side, chance, purpose)


def reveal_previews(t: Table, chance: Chance) -> None:
    """C5 astrology: the top card of each deck lies face up, visible but not for sale."""
    if not t.state["options"].get("astrology"):
        return
    previews = t.state.setdefault("preview", {"east": None, "west": None})
    for side in SIDES:
        if previews.get(side) is None:
            previews[side] = draw_card(t.state, side, chance, f"astrology-{side}")
