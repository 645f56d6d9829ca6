"""Agent placement (E2.2): knights and rooks in cities, pirates and pawns on borders, bishops
on cards or thrones, with the 1-florin repression and the pirate's kill; a bishop's arrival is
in engine.pax.bishops."""

from __future__ import annotations

from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.errors import Reason
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.actions.common import quoted
from engine.pax.bishops import arrive
from engine.pax.explain_places import explain_agent
from engine.pax.model import (
    banks,
    card_location,
    card_name,
    cat,
    city_name,
    describe_token,
    free_token,
    location_empires,
    owner_of,
    player,
    repress,
    square_of,
    tableau,
    token,
)
from engine.pax.notation import border_line_name, city_line_name, short_empire
from engine.pax.pirates import pirate_arrives
from engine.pax.places import city_slots, entry_events

SKIP = Choice("skip", (), (), "skip")


def _same_location(t: Table, target: str | None, source: str | None) -> bool:
    """LOCATION: a card of 'The East' shares a location with every eastern card, and back."""
    if target is None or source is None:
        return False
    if target == source:
        return True
    return bool(set(location_empires(t, target)) & set(location_empires(t, source))) and (
        target in ("east", "west") or source in ("east", "west"))


def _city_options(t: Table, node: Node, empires: list[str]) -> list[Choice]:
    kind = node["args"]["type"]
    florins = player(t, node["player"])["florins"]
    seen: dict[str, Choice] = {}
    for empire_id in empires:
        for city_id in city_slots(t, empire_id):
            if city_id in node["args"]["placed"]:
                continue
            line = f"{kind} {city_line_name(t, city_id)}"
            occupied = city_id in t.state["cities"]
            if occupied and florins < 1:
                continue
            known = seen.get(line)
            # Constantinople's three slots share a name: an empty slot is taken first.
            if known is None or (known.args[0] in t.state["cities"] and not occupied):
                seen[line] = Choice(kind, (city_id,), ("city",), line)
    return list(seen.values())


def _border_options(t: Table, node: Node, empires: list[str]) -> list[Choice]:
    kind = node["args"]["type"]
    florins = player(t, node["player"])["florins"]
    options = []
    for border_id in sorted({b for e in empires for b in cat(t).empires[e].borders}):
        border = cat(t).borders[border_id]
        content = t.state["borders"].get(border_id, {})
        if border_id in node["args"]["placed"]:
            continue
        if kind == "pirate" and not border.sea:
            continue
        if kind == "pawn" and ("pirate" in content or ("concession" in content and florins < 1)):
            continue
        line = f"{kind} {border_line_name(cat(t), border_id)}"
        options.append(Choice(kind, (border_id,), ("border",), line))
    return options


def _bishop_options(t: Table, node: Node) -> list[Choice]:
    card_id = node["args"]["card"]
    source = card_location(t, card_id)
    options = []
    if owner_of(t, card_id) is not None:  # not a card sold under Machiavellianism
        options.append(Choice("bishop", (card_id,), ("card",),
                              f"bishop {quoted(card_name(t, card_id))}"))
    for bank in banks(t):
        for target in tableau(t, bank):
            if target != card_id and _same_location(t, card_location(t, target), source):
                line = f"bishop {quoted(card_name(t, target))}"
                options.append(Choice("bishop", (target,), ("card",), line))
    for empire_id in location_empires(t, source):
        if t.state["empires"][empire_id]["ruler"] is None:
            line = f"bishop {short_empire(cat(t), empire_id)}"
            options.append(Choice("bishop", (square_of(empire_id),), ("card",), line))
    return options


class PlaceAgent(Action):
    name = "agent"
    decision = "where to place the agent"

    def options(self, t: Table, node: Node) -> list[Choice]:
        args = node["args"]
        empires = location_empires(t, card_location(t, args["card"]))
        kind = args["type"]
        if kind in ("knight", "rook"):
            options = _city_options(t, node, empires)
        elif kind in ("pirate", "pawn"):
            options = _border_options(t, node, empires)
        else:
            options = _bishop_options(t, node)
        return options + [SKIP] if args["optional"] else options or [SKIP]

    def default(self, t: Table, node: Node, options: list[Choice]) -> Choice:  # type: ignore[override]
        return SKIP if SKIP in options else options[0]

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        return explain_agent(t, node["player"], node["args"], line)

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        args = node["args"]
        bank = node["player"]
        if choice.verb == "skip":
            return [event("pax.agent.skip", bank=bank, agent=args["type"],
                          card=card_name(t, args["card"]))]
        for later in t.agenda:
            if later["action"] == "agent" and later["args"]["card"] == args["card"]:
                later["args"]["placed"] = sorted({*later["args"]["placed"], choice.args[0]})
        kind = args["type"]
        colour = bank if kind == "pawn" else args["religion"]
        tok = token(kind, colour)
        events = free_token(t, tok, into=choice.args[0])
        if kind in ("knight", "rook"):
            return events + _place_in_city(t, bank, tok, choice.args[0])
        if kind in ("pirate", "pawn"):
            return events + _place_on_border(t, bank, tok, choice.args[0], args["card"])
        placed, follow_ups = arrive(t, bank, args["religion"], choice.args[0])
        t.agenda[0:0] = follow_ups
        return events + placed


def _place_in_city(t: Table, bank: str, tok: str, city_id: str) -> list[Event]:
    city = cat(t).cities[city_id]
    events = []
    occupant = t.state["cities"].get(city_id)
    if occupant is not None:
        player(t, bank)["florins"] -= 1
        repress(t, occupant, city.empire)
        events.append(event("pax.agent.repress.city", bank=bank, token=describe_token(occupant),
                            city=city_name(t, city_id)))
    t.state["cities"][city_id] = tok
    t.state["cities"] = dict(sorted(t.state["cities"].items()))
    events += entry_events(t, city_id)
    return events + [event("pax.agent.place.city", bank=bank, token=describe_token(tok),
                           city=city_name(t, city_id))]


def _place_on_border(t: Table, bank: str, tok: str, border_id: str, card_id: str) -> list[Event]:
    border = cat(t).borders[border_id]
    content = t.state["borders"].get(border_id, {})
    events = []
    if tok.startswith("pirate:"):
        victims, notes = pirate_arrives(t, tok, border_id)
        events += [event("pax.agent.pirate_kills", pirate=describe_token(tok),
                         victim=describe_token(victim), border=border.name)
                   for victim in victims] + notes
    else:
        if "concession" in content:
            empires = [e for e in border.empires
                       if e in location_empires(t, card_location(t, card_id))]
            serf_to = sorted(empires)[0]
            player(t, bank)["florins"] -= 1
            repress(t, content["concession"], serf_to)
            events.append(event("pax.agent.repress.border", bank=bank,
                                token=describe_token(content["concession"]), border=border.name,
                                empire=cat(t).empires[serf_to].name))
        t.state["borders"][border_id] = {"concession": tok}
    t.state["borders"] = dict(sorted(t.state["borders"].items()))
    return events + [event("pax.agent.place.border", bank=bank, token=describe_token(tok),
                           border=border.name)]
