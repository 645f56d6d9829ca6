"""The Expansion Phase (9.5): placing tokens, attacks (each battle rolls dice and so ends the
block), Cathedral asked of a defender out of turn (R21), Written Record's trade (R22), a card
for tokens (9.5.1, R03) and converting a marker when none is left in stock (9.5.2)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.aor.actions.common import AorAction, Step, cat
from engine.aor.actions.flow import drew
from engine.aor.battle import (
    Battle,
    attack_problem,
    attacker_may_declare,
    defenders_who_may_declare,
    expansion_moves,
    fight,
    may_use_cathedral,
)
from engine.aor.board import convert_marker, markers_in_stock, markers_on_board
from engine.aor.deck import can_draw, chance_labeler, held_labels
from engine.aor.dice import Cathedral
from engine.aor.expansion import buy_card, can_buy_card, place, placement_limit
from engine.aor.model import add_to_hand, hand_size, owns, player, take_from_hand
from engine.aor.names import card_name, choice, counted_choices, named, province_name, simple
from engine.aor.reach import reach
from engine.aor.reasons import why
from engine.aor.standing import CATHEDRAL_USE, is_standing, set_standing, uses_cathedral
from engine.aor.strength import attack_terms
from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice, clean_line
from engine.core.errors import Reason
from engine.core.table import Event, Table, event

DONE, BUY_CARD, NO_TRADE = simple("done"), simple("buy card"), simple("no trade")
USE, DECLINE = simple("cathedral"), simple("no cathedral")
WRITTEN_RECORD = "written_record"


class Expand(AorAction):
    name = "expand"
    decision = "place tokens, attack, buy a card with tokens, then done"

    def options(self, t: Table, node: Node) -> list[Choice]:
        catalog, state, pid = cat(t), t.state, node["player"]
        found: list[Choice] = []
        # Placing and attacking both take tokens bought (R44): without any, skip the reach.
        routes = reach(catalog, state, pid) if player(state, pid)["purchased"] >= 1 else {}
        stock = markers_in_stock(catalog, state, pid)
        limits, attacks = expansion_moves(catalog, state, pid, routes, stock=stock) \
            if routes else ({}, [])
        for where, limit in limits.items():
            if limit:
                found += counted_choices("place", range(1, limit + 1), where,
                                         province_name(catalog, where))
        cathedral = may_use_cathedral(state, pid)
        for attack in attacks:
            name = province_name(catalog, attack.province)
            found.append(_attack_choice(attack.province, name, False))
            if cathedral and attacker_may_declare(state, attack):
                found.append(_attack_choice(attack.province, name, True))
        if can_buy_card(catalog, state, pid) and can_draw(state):
            found.append(BUY_CARD)
        if stock <= 0:
            found += [choice("convert", f"convert {province_name(catalog, w)}", (w, "province"))
                      for w in markers_on_board(state, pid)]
        return found + [DONE]

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        catalog, state, pid = cat(t), t.state, node["player"]
        words = clean_line(line).split()
        if words[:1] == ["attack"] and len(words) > 1:
            cathedral = words[-1] == "cathedral" and len(words) > 2
            where = named(t, "province", " ".join(words[1:-1] if cathedral else words[1:]))
            if where is None:
                return None
            name = province_name(catalog, where)
            problem = attack_problem(catalog, state, attack_terms(catalog, state, pid, where))
            if problem is None and cathedral:
                return why("cathedral_attack", province=name)
            if problem is None:
                return why("has_room", province=name)
            return problem
        if words[:1] == ["place"] and len(words) > 2 and words[1].isdigit():
            where = named(t, "province", " ".join(words[2:]))
            if where is None:
                return None
            name = province_name(catalog, where)
            if where not in reach(catalog, state, pid):
                return why("out_of_reach_rule", province=name, player=pid)
            limit = placement_limit(catalog, state, pid, where)
            if limit == 0:
                return why("no_placement", player=pid, province=name)
            return why("placement_limit", player=pid, limit=limit, province=name)
        return None

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        catalog, state, pid = cat(t), t.state, node["player"]
        if chosen.verb == "done":
            return Step([event("aor.expand.done", kind="pass", player=pid)])
        if chosen.verb == "place":
            count, where = int(chosen.args[0]), chosen.args[1]
            place(catalog, state, pid, where, count)
            return Step([event("aor.expand.place", kind="place", player=pid, count=count,
                               province=province_name(catalog, where))], again=True)
        if chosen.verb == "buy card":
            label = buy_card(catalog, state, pid, chance)
            return Step(drew(t, pid, label, "tokens"), again=True)
        if chosen.verb == "convert":
            convert_marker(state, pid, chosen.args[0])
            return Step([event("aor.expand.convert", kind="convert", player=pid,
                               province=province_name(catalog, chosen.args[0]))], again=True)
        where = chosen.args[0]
        attack = attack_terms(catalog, state, pid, where)
        if len(chosen.args) > 1:
            battle = fight(catalog, state, attack, chance, cathedral=Cathedral.ATTACKER)
            events, follow = after_battle(t, battle)
            return Step(events, follow, again=True)
        asked = defenders_who_may_declare(state, attack)
        if asked:
            return Step([event("aor.expand.cathedral_asked", kind="attack", player=pid,
                               province=province_name(catalog, where), defender=asked[0])],
                        [new_node(state, "cathedral", asked[0], attacker=pid, province=where,
                                  later=asked[1:])], again=True)
        battle = fight(catalog, state, attack, chance)
        events, follow = after_battle(t, battle)
        return Step(events, follow, again=True)


@lru_cache(maxsize=1024)
def _attack_choice(where: str, name: str, cathedral: bool) -> Choice:
    """`attack NAME` (with `cathedral`: `attack NAME cathedral`): option lists rebuild them by
    the thousand per game, and a Choice is immutable, so each is built once."""
    if cathedral:
        return choice("attack", f"attack {name} cathedral", (where, "province"),
                      ("cathedral", "word"))
    return choice("attack", f"attack {name}", (where, "province"))


def after_battle(t: Table, battle: Battle) -> tuple[list[Event], list[Node]]:
    """The battle's report, and Written Record's trade when it applies (R22)."""
    catalog, state = cat(t), t.state
    attack = battle.attack
    pid, where = attack.attacker, province_name(catalog, attack.province)
    terms: dict[str, Any] = {"attacker": pid, "province": where, "tokens": attack.new_tokens,
                             "defenders": list(attack.defenders),
                             "reason": str(battle.outcome.reason)}  # the Reason's id, as shown
    wins = battle.outcome.attacker_wins
    dice = battle.dice
    if dice is not None:
        events = [event("aor.battle.dice_wins" if wins else "aor.battle.dice_loses", kind="battle",
                        green=dice.green, black=dice.black, white=dice.white, **terms)]
    else:
        events = [event("aor.battle.cathedral_wins" if wins else "aor.battle.cathedral_loses",
                        kind="battle", **terms)]
    victim = battle.took_marker_from
    if (victim and victim != pid and owns(state, pid, WRITTEN_RECORD)
            and not owns(state, victim, WRITTEN_RECORD)
            and pid not in state["round"]["written_record"] and not player(state, victim)["eliminated"]
            and hand_size(state, pid) and hand_size(state, victim)):
        return events, [new_node(state, "trade", pid, victim=victim)]
    return events, []


class CathedralDefence(AorAction):
    """H, R21: a defender who may use Cathedral is asked before the dice; `standing cathedral
    use` (R61) uses it now and answers later defences the same way."""

    name = "cathedral"
    decision = "use Cathedral to win the battle against you, or not"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [USE, CATHEDRAL_USE, DECLINE]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return USE if uses_cathedral(t.state, node["player"]) else None

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return USE

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        catalog, state, pid = cat(t), t.state, node["player"]
        attacker, where, later = node["args"]["attacker"], node["args"]["province"], node["args"]["later"]
        attack = attack_terms(catalog, state, attacker, where)
        told: list[Event] = []
        if is_standing(chosen):
            told, chosen = set_standing(state, pid, chosen), USE
        elif chosen.verb == "cathedral" and uses_cathedral(state, pid):
            told = [event("aor.standing.cathedral", kind="standing", player=pid)]
        if chosen.verb == "cathedral":
            battle = fight(catalog, state, attack, chance, cathedral=Cathedral.DEFENDER,
                           defender_cathedral=pid)
        elif later:
            return Step([event("aor.expand.no_cathedral", kind="attack", player=pid)],
                        [new_node(state, "cathedral", later[0], attacker=attacker, province=where,
                                  later=later[1:])])
        else:
            battle = fight(catalog, state, attack, chance)
        events, follow = after_battle(t, battle)
        return Step(told + events, follow)


class Trade(AorAction):
    """N, R22: give a card of one's choice (by label: the answer stays secret), take one at
    random from the victim's hand (a private draw, so the line ends the block)."""

    name = "trade"
    decision = "trade a card with the player whose marker you took (Written Record), or not"

    def options(self, t: Table, node: Node) -> list[Choice]:
        hand = player(t.state, node["player"])["hand"]
        return [choice("trade", f"trade {label}", (label, "label")) for label in sorted(hand)] + [NO_TRADE]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return None  # the hand is secret

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        state, pid, victim = t.state, node["player"], node["args"]["victim"]
        if chosen.verb == "no trade":
            return Step([event("aor.trade.none", kind="trade", player=pid)])
        state["round"]["written_record"] = sorted(state["round"]["written_record"] + [pid])
        purpose = f"written record turn {state['turn']} {pid} from {victim}"
        taken = take_from_hand(state, victim, chance.pick(purpose, sorted(player(state, victim)["hand"])))
        given = take_from_hand(state, pid, chosen.args[0])
        labels = chance_labeler(state, chance)
        got = labels(f"{purpose} to {pid}", held_labels(state))
        add_to_hand(state, pid, taken, got)
        gave = labels(f"{purpose} to {victim}", held_labels(state))
        add_to_hand(state, victim, given, gave)
        c = cat(t)
        return Step([
            event("aor.trade.public", kind="trade", player=pid, victim=victim),
            event("aor.trade.yours", kind="trade", visible_to=[pid], given=card_name(c, given),
                  victim=victim, taken=card_name(c, taken), label=got),
            event("aor.trade.theirs", kind="trade", visible_to=[victim], player=pid,
                  given=card_name(c, given), label=gave, taken=card_name(c, taken)),
        ])
