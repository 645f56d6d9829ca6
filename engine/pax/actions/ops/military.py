"""The military ops: corsair (F7), siege (F8) and campaign (F9)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core.choice import Choice
from engine.core.table import Table
from engine.pax.abilities import Ability, ability_event, has_ability
from engine.pax.actions.ops.base import (
    Done,
    OpHandler,
    acting_empires,
    op_choice,
    op_event,
    op_param,
    place_label,
    split_card_op,
)
from engine.pax.battle import start_battle
from engine.pax.model import (
    cat,
    city_name,
    describe_token,
    empire_state,
    player,
    plural,
    remove_from_border,
    token_colour,
    token_kind,
)
from engine.pax.notation import short_empire
from engine.pax.pirates import pirate_arrives
from engine.pax.places import adjacent, city_slots

MAMLUK = "mamluk"

# --- corsair (F7) -----------------------------------------------------------------------------


def _sea_borders(t: Table, empire_id: str) -> list[str]:
    return [b for b in cat(t).empires[empire_id].borders if cat(t).borders[b].sea]


def corsair_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    religion = op_param(t, op_id, "religion")
    moves: set[tuple[str, str]] = set()
    for empire_id in acting_empires(t, card_id):
        reach = [empire_id, *cat(t).empires[empire_id].sea_neighbours]
        goals = sorted({b for e in reach for b in _sea_borders(t, e)})
        for source in _sea_borders(t, empire_id):
            pirate = t.state["borders"].get(source, {}).get("pirate")
            if pirate is None or token_colour(pirate) != religion:
                continue
            for goal in goals:
                there = t.state["borders"].get(goal, {}).get("pirate")
                if goal != source and not (there and token_colour(there) == religion):
                    moves.add((source, goal))
    for source, goal in sorted(moves):
        yield op_choice(t, card_id, op_id, (source, goal), ("border", "border"),
                        (place_label(t, source), place_label(t, goal)))


def corsair_perform(t: Table, bank: str, choice: Choice) -> Done:
    source, goal = choice.args[1], choice.args[2]
    pirate = t.state["borders"][source]["pirate"]
    remove_from_border(t, source, "pirate")
    victims, notes = pirate_arrives(t, pirate, goal)
    # A border holds at most a concession and a pirate: none, one or two victims.
    msg = ("pax.op.corsair", "pax.op.corsair.kills.1", "pax.op.corsair.kills.2")[len(victims)]
    args: dict[str, Any] = {"pirate": describe_token(pirate),
                            "source": cat(t).borders[source].name, "goal": cat(t).borders[goal].name}
    if victims:
        args["victims"] = [describe_token(v) for v in victims]
    return [op_event(t, bank, choice, msg, **args), *notes], []


# --- siege (F8) -------------------------------------------------------------------------------


def siege_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    seen: set[str] = set()  # a line once, at its first place (a region card's empires overlap)
    empires = acting_empires(t, card_id)
    for empire_id in empires:
        for city_id in city_slots(t, empire_id):
            tok = t.state["cities"].get(city_id)
            if tok is not None and token_kind(tok) in ("knight", "rook"):
                choice = op_choice(t, card_id, op_id, (tok, city_id), ("token", "city"),
                                   (describe_token(tok), place_label(t, city_id)))
                if choice.line not in seen:
                    seen.add(choice.line)
                    yield choice
    for border_id in sorted({b for e in empires for b in cat(t).empires[e].borders}):
        tok = t.state["borders"].get(border_id, {}).get("pirate")
        if tok is not None:
            choice = op_choice(t, card_id, op_id, (tok, border_id), ("token", "border"),
                               (describe_token(tok), place_label(t, border_id)))
            if choice.line not in seen:
                seen.add(choice.line)
                yield choice


def siege_perform(t: Table, bank: str, choice: Choice) -> Done:
    tok, place = choice.args[1], choice.args[2]
    if place in cat(t).borders:
        remove_from_border(t, place, "pirate")
        msg, where = "pax.op.siege.border", {"border": cat(t).borders[place].name}
    else:
        del t.state["cities"][place]
        msg, where = "pax.op.siege.city", {"city": city_name(t, place)}
    return [op_event(t, bank, choice, msg, token=describe_token(tok), **where)], []


# --- campaign (F9) ----------------------------------------------------------------------------


def campaign_knights(t: Table, empire_id: str) -> list[str]:
    """F9b: every knight, of any colour, in the King's Location (their city slots)."""
    return [c for c in city_slots(t, empire_id)
            if token_kind(t.state["cities"].get(c, "none:none")) == "knight"]


def mamluk_slaves(t: Table, bank: str, target: str) -> list[str]:
    """Circassian Mamluks: in the owner's campaigns against an Eastern empire, every token
    repressed on the Mamluk square fights as a knight (and costs 1 florin)."""
    if cat(t).empires[target].region != "east":  # Mamluk itself too
        return []
    if not has_ability(t, bank, Ability.MAMLUK_REPRESSED_TOKENS_JOIN_EAST_CAMPAIGNS):
        return []
    return list(empire_state(t, MAMLUK)["repressed"])


def campaign_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    empire_id = cat(t).empire_of_square(card_id)
    knights = len(campaign_knights(t, empire_id))
    for target in sorted(adjacent(t, empire_id)):
        size = knights + len(mamluk_slaves(t, bank, target))
        if empire_state(t, target)["ruler"] == bank or not knights \
                or size > player(t, bank)["florins"]:
            continue
        yield op_choice(t, card_id, op_id, (target,), ("empire",), (short_empire(cat(t), target),))


def campaign_perform(t: Table, bank: str, choice: Choice) -> Done:
    card_id, _ = split_card_op(choice)
    attacker, target = cat(t).empire_of_square(card_id), choice.args[1]
    knights = campaign_knights(t, attacker)
    attackers = [{"token": t.state["cities"][c], "from": "adjacent", "at": c} for c in knights]
    slaves = mamluk_slaves(t, bank, target)
    attackers += [{"token": tok, "from": "repressed", "at": MAMLUK} for tok in slaves]
    size = len(attackers)
    player(t, bank)["florins"] -= size
    defenders = [{"token": t.state["cities"][c], "from": "city", "at": c}
                 for c in city_slots(t, target) if c in t.state["cities"]]
    campaign = op_event(t, bank, choice, f"pax.op.campaign.{plural(size)}",
                        attacker=cat(t).empires[attacker].name, target=cat(t).empires[target].name,
                        size=size)
    notes = [ability_event(Ability.MAMLUK_REPRESSED_TOKENS_JOIN_EAST_CAMPAIGNS,
                           "pax.op.campaign.mamluks", count=len(slaves))] if slaves else []
    events, node = start_battle(t, bank, target=target, kind="campaign", attackers=attackers,
                                defenders=defenders,
                                victory={"cause": "campaign", "conqueror": attacker})
    return [campaign, *notes, *events], [node]


CORSAIR = OpHandler(corsair_targets, corsair_perform)
SIEGE = OpHandler(siege_targets, siege_perform)
CAMPAIGN = OpHandler(campaign_targets, campaign_perform)
