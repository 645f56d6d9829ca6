"""The commerce op (F2) and the political ops behead (F3), repress (F5) and vote (F6).

Tax (F4), whose answer belongs to the concession's owner, is in `tax.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from engine.core.choice import Choice
from engine.core.table import Table
from engine.pax.abilities import Ability, ability_event, active_abilities, has_ability
from engine.pax.actions.ops.base import (
    Done,
    OpHandler,
    acting_empires,
    in_words,
    label,
    op_choice,
    op_event,
    op_param,
    place_label,
    shares_location,
    split_card_op,
)
from engine.pax.model import (
    banks,
    card_location,
    card_name,
    cat,
    city_name,
    concession_owner,
    describe_token,
    discard,
    empire_state,
    is_square,
    player,
    plural,
    prestige,
    remove_from_border,
    remove_from_tableau,
    repress,
    return_to_throne,
    tableau,
    token_kind,
)
from engine.pax.notation import short_empire
from engine.pax.places import city_slots
from engine.pax.regime import regime_change

# --- commerce (F2) ----------------------------------------------------------------------------


def commerce_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    region = str(op_param(t, op_id, "region"))
    for column, slot in enumerate(t.state["market"][region]):
        if slot["card"] is not None and slot["florins"] > 0:
            name = f"{region} {column}"
            yield op_choice(t, card_id, op_id, (name,), ("slot",), (name,))


def commerce_perform(t: Table, bank: str, choice: Choice) -> Done:
    region, column = choice.args[1].split()
    slot = t.state["market"][region][int(column)]
    slot["florins"] -= 1
    player(t, bank)["florins"] += 1
    if int(column):
        return [op_event(t, bank, choice, "pax.op.commerce", source=card_name(t, slot["card"]),
                         region=region, column=int(column))], []
    # the first column's card lies face down (D2): it is not named
    return [op_event(t, bank, choice, "pax.op.commerce.face_down", region=region,
                     column=int(column))], []


# --- behead (F3) ------------------------------------------------------------------------------


BEHEAD_BISHOPS = {
    Ability.BEHEAD_EAST_CARD_WITH_BISHOP_ONLY: ("catholic", "islamic", "reformist"),
    Ability.BEHEAD_EAST_CARD_WITH_ISLAMIC_OR_REFORMIST_BISHOP_ONLY: ("islamic", "reformist"),
    Ability.BEHEAD_WEST_CARD_WITH_CATHOLIC_OR_REFORMIST_BISHOP_ONLY: ("catholic", "reformist"),
}


def behead_rules(t: Table, card_id: str) -> list[Ability]:
    """The beheading card's own restrictions (its Location already keeps it to its region)."""
    return [Ability(a) for a in active_abilities(t, card_id) if a in BEHEAD_BISHOPS]


def behead_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    location = card_location(t, card_id)
    rules = behead_rules(t, card_id)
    for owner in banks(t):
        for target in tableau(t, owner):
            if target == card_id or not shares_location(t, card_location(t, target), location):
                continue
            bishop = t.state["bishops"].get(target)
            if any(bishop not in BEHEAD_BISHOPS[rule] for rule in rules):
                continue
            yield op_choice(t, card_id, op_id, (target,), ("card",), (label(t, target),))


def behead_perform(t: Table, bank: str, choice: Choice) -> Done:
    card_id, _ = split_card_op(choice)
    target = choice.args[1]
    name = card_name(t, target)
    # one message per number of religions allowed ("a catholic or reformist bishop")
    notes = [ability_event(rule, f"pax.op.behead.only.{len(BEHEAD_BISHOPS[rule])}",
                           card=card_name(t, card_id), religions=list(BEHEAD_BISHOPS[rule]))
             for rule in behead_rules(t, card_id)]
    if not is_square(target):
        remove_from_tableau(t, target)
        discard(t, target)
        return [op_event(t, bank, choice, "pax.op.behead.card", target=name), *notes], []
    empire_id = cat(t).empire_of_square(target)
    queen = empire_state(t, empire_id).get("queen")
    return_to_throne(t, empire_id, keep_queen=False)
    args = {"target": name, "empire": cat(t).empires[empire_id].name}
    if queen:
        args["queen"] = card_name(t, queen)
    assassin = card_id not in t.state["discard"]  # the op's own card dies beheading a square
    if assassin:
        remove_from_tableau(t, card_id)
        discard(t, card_id)
    msg = f"pax.op.behead.square{'.queen' if queen else ''}{'.assassin' if assassin else ''}"
    return [op_event(t, bank, choice, msg, **args), *notes], []


# --- repress (F5) -----------------------------------------------------------------------------


def repress_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    kinds = set(op_param(t, op_id, "targets") or ())
    empires = acting_empires(t, card_id)
    seen: set[str] = set()  # a line once, at its first place (a region card's empires overlap)
    for empire_id in empires:
        for city_id in city_slots(t, empire_id):
            tok = t.state["cities"].get(city_id)
            if tok is None or token_kind(tok) not in kinds:
                continue
            choice = op_choice(t, card_id, op_id, (tok, city_id), ("token", "city"),
                               (describe_token(tok), place_label(t, city_id)))
            if choice.line not in seen:
                seen.add(choice.line)
                yield choice
    if "pawn" not in kinds:
        return
    for border_id in sorted({b for e in empires for b in cat(t).empires[e].borders}):
        tok = t.state["borders"].get(border_id, {}).get("concession")
        if tok is None:
            continue
        into = [e for e in cat(t).borders[border_id].empires if e in empires]
        for empire_id in sorted(into):
            words = [describe_token(tok), place_label(t, border_id)]
            targets = [tok, border_id]
            kinds_ = ["token", "border"]
            if len(into) > 1:  # a region card chooses which square gets the serf
                words.append(in_words(t, empire_id))
                targets.append(empire_id)
                kinds_.append("in")
            choice = op_choice(t, card_id, op_id, targets, kinds_, words)
            if choice.line not in seen:
                seen.add(choice.line)
                yield choice


def repress_perform(t: Table, bank: str, choice: Choice) -> Done:
    tok, place = choice.args[1], choice.args[2]
    if place in cat(t).borders:
        card_id, _ = split_card_op(choice)
        if len(choice.args) > 3:
            empire_id = choice.args[3]
        else:
            empire_id = next(e for e in sorted(cat(t).borders[place].empires)
                             if e in acting_empires(t, card_id))
        remove_from_border(t, place, "concession")
        msg, where = "pax.op.repress.border", {"border": cat(t).borders[place].name}
    else:
        empire_id = cat(t).cities[place].empire
        del t.state["cities"][place]
        msg, where = "pax.op.repress.city", {"city": city_name(t, place)}
    repress(t, tok, empire_id)
    player(t, bank)["florins"] += 1
    return [op_event(t, bank, choice, msg, token=describe_token(tok),
                     empire=cat(t).empires[empire_id].name, **where)], []


# --- vote (F6) --------------------------------------------------------------------------------


def has_majority(t: Table, bank: str, empire_id: str, *, doubled: bool = True) -> bool:
    """F6b: strictly more concessions on the empire's borders than any other player; with
    Michelangelo an owner's concessions count double (`doubled` False ignores it)."""
    counts: Counter[str] = Counter()
    for border_id in cat(t).empires[empire_id].borders:
        owner = concession_owner(t, border_id)
        if owner is not None:
            double = doubled and has_ability(
                t, owner, Ability.CONCESSIONS_DOUBLE_IN_TRADE_FAIRS_AND_VOTES)
            counts[owner] += 2 if double else 1
    mine = counts.pop(bank, 0)
    return mine > 0 and all(mine > other for other in counts.values())


def vote_cost(t: Table, bank: str, empire_id: str) -> tuple[int, int]:
    """F6a: a florin per repressed token, less one per Patron prestige under the Bank of St.
    George (never below 0); returns the cost and the discount given."""
    full = len(empire_state(t, empire_id)["repressed"])
    if not has_ability(t, bank, Ability.PATRON_DISCOUNTS_VOTE_OPS):
        return full, 0
    cost = max(0, full - prestige(t, bank, "patron", for_victory=False))
    return cost, full - cost


def vote_targets(t: Table, bank: str, card_id: str, op_id: str) -> Iterator[Choice]:
    region = str(op_param(t, op_id, "region"))
    florins = player(t, bank)["florins"]
    for owner in banks(t):
        for entry in player(t, owner)[region]:
            if not is_square(entry):
                continue
            empire_id = cat(t).empire_of_square(entry)
            data = empire_state(t, empire_id)
            if data.get("suzerain") or vote_cost(t, bank, empire_id)[0] > florins:
                continue
            if has_majority(t, bank, empire_id):
                yield op_choice(t, card_id, op_id, (empire_id,), ("empire",),
                                (short_empire(cat(t), empire_id),))


def vote_perform(t: Table, bank: str, choice: Choice) -> Done:
    empire_id = choice.args[1]
    cost, discount = vote_cost(t, bank, empire_id)
    player(t, bank)["florins"] -= cost
    empire = cat(t).empires[empire_id].name
    if cost:
        voted = op_event(t, bank, choice, f"pax.op.vote.paying.{plural(cost)}", empire=empire,
                         florins=cost)
    else:
        voted = op_event(t, bank, choice, "pax.op.vote", empire=empire)
    notes = []
    if discount:
        notes.append(ability_event(Ability.PATRON_DISCOUNTS_VOTE_OPS, "pax.op.vote.discount",
                                   florins=discount))
    if has_majority(t, bank, empire_id) != has_majority(t, bank, empire_id, doubled=False):
        notes.append(ability_event(Ability.CONCESSIONS_DOUBLE_IN_TRADE_FAIRS_AND_VOTES,
                                   "pax.op.vote.double"))
    events, follow = regime_change(t, bank, empire_id, cause="vote")
    return [voted, *notes, *events], follow


COMMERCE = OpHandler(commerce_targets, commerce_perform)
BEHEAD = OpHandler(behead_targets, behead_perform)
REPRESS = OpHandler(repress_targets, repress_perform)
VOTE = OpHandler(vote_targets, vote_perform)
