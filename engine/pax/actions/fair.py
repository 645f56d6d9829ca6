"""Trade fairs (E5, G1-G6): profits, subsidy, the voyage along the route, and levies."""

from __future__ import annotations

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.errors import Reason
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_count, ability_event, has_ability
from engine.pax.actions.common import Result
from engine.pax.model import (
    card_name,
    cat,
    city_name,
    concession_owner,
    describe_token,
    discard,
    free_token,
    levy_token,
    open_emporium,
    player,
    plural,
)
from engine.pax.notation import city_line_name
from engine.pax.places import empty_cities, entry_events

SPICE_ISLANDS = "spice_islands"


def fair_options(t: Table, bank: str) -> list[Choice]:
    return [FAIRS[side] for side in ("east", "west")
            if t.state["market"][side][0]["card"] is not None]


FAIRS = {side: Choice("fair", (side,), ("side",), f"fair {side}") for side in ("east", "west")}


def apply_fair(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    side = choice.args[0]
    slot = t.state["market"][side][0]
    card_id = slot["card"]
    players = len(t.state["order"])
    china = 1 if players <= 2 else 2
    profits = slot["florins"] + china  # G1: market florins plus China's share
    discard(t, card_id)
    events = [event(f"pax.fair.convene.{plural(profits)}", bank=bank, side=side,
                    card=card_name(t, card_id), profits=profits, china=china)]
    me = player(t, bank)
    if not t.state["options"].get("bankruptcy"):
        subsidy = 1  # G2; none in the bankruptcy variant (G6)
        if has_ability(t, bank, Ability.EMPORIUM_SUBSIDY_TWO) and profits > 1:
            subsidy = 2
            events.append(ability_event(Ability.EMPORIUM_SUBSIDY_TWO, "pax.fair.subsidy_two",
                                        bank=bank, subsidy=subsidy))
        me["florins"] += subsidy
        profits -= subsidy
        events.append(event("pax.fair.subsidy", bank=bank, subsidy=subsidy))
    entered: list[str] = []
    if profits > 0:
        entered, profits, voyage = _voyage(t, side, profits)
        events += voyage
    else:
        events.append(event("pax.fair.no_profits"))
    slot.update({"card": None, "florins": profits})
    if profits:
        events.append(event(f"pax.fair.left.{plural(profits)}", profits=profits, side=side))
    follow: list[Node] = []
    for empire_id in entered:
        if empty_cities(t, empire_id):
            follow.append(new_node(t.state, "levy", bank, empire=empire_id))
        else:
            events.append(event("pax.levy.saturated", empire=cat(t).empires[empire_id].name))
    return Result(events, follow)


def _voyage(t: Table, side: str, profits: int) -> tuple[list[str], int, list[Event]]:
    """G3/G5: follow the route, paying concessions and pirates until the profits run out."""
    emporium = open_emporium(t, side)
    route = cat(t).routes[emporium]
    entered: list[str] = []
    events = [event("pax.fair.voyage", city=city_name(t, emporium))]
    for step in route.sequence:
        if step in cat(t).empires:
            entered.append(step)
            continue
        border = cat(t).borders[step]
        content = t.state["borders"].get(step, {})
        if not border.sea or not content:
            continue
        if (owner := concession_owner(t, step)) is not None:
            # PIRATE (Arsenal/Dalmatians): a pirate sharing the border takes no part.
            earned, notes = _concession_profit(t, owner, emporium, profits)
            player(t, owner)["florins"] += earned
            profits -= earned
            events += notes
            events.append(event(f"pax.fair.earns.{plural(earned)}", owner=owner, border=border.name,
                                florins=earned))
        elif "pirate" in content:
            profits -= 1
            events.append(event("pax.fair.pirate", pirate=describe_token(content["pirate"]),
                                border=border.name))
        if profits == 0:
            events.append(event("pax.fair.run_out", border=border.name))
            break
    return entered, profits, events


def _concession_profit(t: Table, owner: str, emporium: str, profits: int
                       ) -> tuple[int, list[Event]]:
    """G3: 1 florin, doubled by Michelangelo, and doubled per India/Almeida Armada in fairs
    starting at the Spice Islands; never more than the profits left."""
    notes = []
    share = 1
    if has_ability(t, owner, Ability.CONCESSIONS_DOUBLE_IN_TRADE_FAIRS_AND_VOTES):
        share *= 2
        notes.append(ability_event(Ability.CONCESSIONS_DOUBLE_IN_TRADE_FAIRS_AND_VOTES,
                                   "pax.fair.double", owner=owner))
    if emporium == SPICE_ISLANDS:
        armadas = ability_count(t, owner, Ability.CONCESSIONS_DOUBLE_IN_SPICE_ISLANDS_TRADE_FAIRS)
        if armadas:
            share *= 2 ** armadas
            notes.append(ability_event(Ability.CONCESSIONS_DOUBLE_IN_SPICE_ISLANDS_TRADE_FAIRS,
                                       "pax.fair.spice_islands", owner=owner, times=2 ** armadas))
    return min(share, profits), notes


class Levy(Action):
    """G4: the convener chooses which empty city of an entered empire gets the levy."""

    name = "levy"
    decision = "which city receives the levy"

    def options(self, t: Table, node: Node) -> list[Choice]:
        seen: dict[str, Choice] = {}
        for city_id in empty_cities(t, node["args"]["empire"]):
            line = f"levy {city_line_name(t, city_id)}"
            seen.setdefault(line, Choice("levy", (city_id,), ("city",), line))
        # A levy whose empire filled up meanwhile is simply lost.
        return list(seen.values()) or [Choice("no levy", (), (), "no levy")]

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        from engine.pax.explain_places import explain_levy  # start-up: only a refused line

        return explain_levy(t, node["args"]["empire"], line)

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        if not choice.args:
            return [event("pax.levy.lost")]
        city_id = choice.args[0]
        tok = levy_token(t, city_id)
        events = free_token(t, tok)
        t.state["cities"][city_id] = tok
        t.state["cities"] = dict(sorted(t.state["cities"].items()))
        events += entry_events(t, city_id)
        return events + [event("pax.levy.raised", token=describe_token(tok),
                               city=city_name(t, city_id))]
