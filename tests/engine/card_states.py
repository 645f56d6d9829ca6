"""Constructed states for the card coverage test: one card put where a rule can reach it.

`table_with(card_id, zone)` starts an Age of Reformation game (so every base and promo card is
in play) with the card moved to the first player's hand, tableau or a market slot; the
`prepare_*` helpers then arrange the map so that one op or the card's one-shot has a target.
"""

from __future__ import annotations

from engine.core.agenda import new_node
from engine.core.chance import SeededChance
from engine.core.table import Table
from engine.pax.actions.ops.base import acting_empires, op_param, op_type
from engine.pax.model import card, cat, location_empires, square_of, token
from engine.pax.places import city_slots
from engine.pax.ruleset import PAX
from pbem.play.scenarios.pax import take_card
from pbem.rulesets import pax_catalog

ME, OTHER = "fugger", "mendes"
SEED = b"aor-3"  # fugger, mendes, berenberg on the promo map


def new_game() -> tuple[Table, SeededChance]:
    chance = SeededChance(SEED, "scenario", 0)
    table, _ = PAX.setup(pax_catalog(), "scenario", ["a", "b", "c"],
                         {"map": "age_of_reformation"}, chance)
    state = table.state
    state["turn"] = {"number": 1, "player": ME, "actions": 0, "used": [], "usury": []}
    table.agenda[:] = [new_node(state, "turn", ME)]
    state["players"][ME]["florins"] = 20
    return table, chance


def place(t: Table, card_id: str, bank: str, zone: str) -> None:
    """Move a card into a bank's hand or tableau; a queen is crowned to her first suitor."""
    take_card(t.state, card_id)
    data = card(t, card_id)
    if zone == "tableau" and data.kind == "queen":
        husband = str(data.one_shot["suitors"][0]) if data.one_shot else "england"
        crown(t, husband, bank)
        t.state["empires"][husband]["queen"] = card_id
        return
    where = data.deck if zone == "tableau" else "hand"
    t.state["players"][bank][where].append(card_id)


def crown(t: Table, empire_id: str, bank: str) -> None:
    """Put an empire square, King side up, in a bank's tableau."""
    data = t.state["empires"][empire_id]
    if data["ruler"] == bank:
        return
    data.update({"ruler": bank, "side": "king", "suzerain": None})
    t.state["players"][bank][cat(t).empires[empire_id].region].append(square_of(empire_id))


def to_market(t: Table, card_id: str) -> str:
    take_card(t.state, card_id)
    side = card(t, card_id).deck
    slot = t.state["market"][side][1]
    if slot["card"] is not None:
        t.state["box"].append(slot["card"])
    slot.update({"card": card_id, "florins": 0})
    return f"buy {side} 1"


def _other_card(t: Table, location: str, avoid: str) -> str | None:
    """A regular card in the box with exactly this Location."""
    for card_id in sorted(t.state["box"]):
        data = card(t, card_id)
        if card_id != avoid and data.kind == "regular" and data.location == location:
            return str(card_id)
    return None


def prepare_op(t: Table, card_id: str, op_id: str) -> None:
    """Arrange the map so that `op_id` of `card_id` (in ME's tableau) has a target."""
    kind = op_type(t, op_id)
    empire = acting_empires(t, card_id)[0]
    cities = city_slots(t, empire)
    borders = cat(t).empires[empire].borders
    state = t.state
    if kind == "inquisitor":
        other = "hungary" if empire != "hungary" else "byzantium"
        state["bishops"][square_of(empire)] = str(op_param(t, op_id, "religion"))
        state["empires"][other]["ruler"] = None
    elif kind == "commerce":
        state["market"][str(op_param(t, op_id, "region"))][2]["florins"] = 1
    elif kind == "behead":
        target = _other_card(t, empire, card_id) or _other_card(t, "east", card_id) \
            or _other_card(t, "west", card_id)
        assert target is not None
        place(t, target, OTHER, "tableau")
        state["bishops"][target] = "reformist"
    elif kind in ("tax", "repress", "siege"):
        state["borders"][borders[0]] = {"concession": token("pawn", OTHER)}
        for city_id in cities:
            state["cities"].pop(city_id, None)
        if kind != "tax":  # a tax needs an empty city
            state["cities"][cities[0]] = token("knight", "catholic")
        if len(cities) > 1 and kind == "repress":
            state["cities"][cities[1]] = token("rook", "islamic")
    elif kind == "vote":
        region = str(op_param(t, op_id, "region"))
        target = cat(t).region_empires(region)[0]
        crown(t, target, OTHER)
        state["empires"][target]["repressed"] = []
        for border_id in cat(t).empires[target].borders:
            state["borders"][border_id] = {"concession": token("pawn", ME)}
    elif kind == "corsair":
        seas = [b for e in location_empires(t, empire) for b in cat(t).empires[e].borders
                if cat(t).borders[b].sea]
        for border_id in seas:
            state["borders"].pop(border_id, None)
        state["borders"][seas[0]] = {"pirate": token("pirate", str(op_param(t, op_id, "religion")))}
    elif kind == "campaign":
        state["cities"][cities[0]] = token("knight", "catholic")
    t.state["cities"] = dict(sorted(state["cities"].items()))
    t.state["borders"] = dict(sorted(state["borders"].items()))


def prepare_oneshot(t: Table, card_id: str) -> None:
    """Arrange the map so that the card's one-shot may be triggered when it is played."""
    data = card(t, card_id)
    shot = data.one_shot
    assert shot is not None
    kind = str(shot["type"])
    state = t.state
    empires = location_empires(t, data.location)
    if kind == "trade_shift":
        emporium = str(shot["emporium"])
        side = cat(t).emporia[emporium]["trade_fair"]
        state["busted"] = sorted({*[e for e, d in cat(t).emporia.items()
                                    if d["trade_fair"] != side and e in state["busted"]],
                                  *[e for e, d in cat(t).emporia.items()
                                    if d["trade_fair"] == side and e != str(
                                        shot["disk_moves_to_first_unbusted_of"][0])]})
        for city_id in list(state["cities"]):
            if city_id in state["busted"]:
                del state["cities"][city_id]
        place(t, "PREN018" if card_id == "PREN014" else "PREN014", ME, "tableau")  # Discovery
    elif kind in ("conspiracy", "peasant_revolt"):
        for empire_id in empires:
            sea = [b for b in cat(t).empires[empire_id].borders if cat(t).borders[b].sea]
            state["borders"][sea[0]] = {"pirate": "pirate:catholic"}
    elif kind in ("crusade", "jihad", "reformation"):
        believers = str(shot["attacker"])
        heretic = str(shot["defenders"][0])
        for empire_id in empires:
            cities = city_slots(t, empire_id)
            for city_id in cities:
                state["cities"].pop(city_id, None)
            state["cities"][cities[0]] = token("knight", heretic)
            if len(cities) > 1:
                state["cities"][cities[1]] = token("knight", believers)
            else:
                sea = [b for b in cat(t).empires[empire_id].borders if cat(t).borders[b].sea]
                state["borders"][sea[0]] = {"pirate": token("pirate", believers)}
    elif kind == "apostasy":
        faiths = [str(r) for r in shot["religions"]]
        for faith in faiths:
            holder = next(c for c in sorted(state["box"]) if card(t, c).kind == "regular"
                          and faith in card(t, c).prestige and not card(t, c).abilities)
            place(t, holder, OTHER, "tableau")
    t.state["cities"] = dict(sorted(state["cities"].items()))
    t.state["borders"] = dict(sorted(state["borders"].items()))
