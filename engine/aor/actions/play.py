"""Playing cards (9.3, 11.1, A.1-A.3): a card at a time, then `pass`; commodity payouts, leaders,
and the events with their follow-up choices, some of them answered out of turn (the Civil War
victim, the War loser).

In the final card play (11.1) every playable card must go: `done` is offered only when none is
left. A play node is never answered automatically while the hand holds a card, since whether a
card is playable is hidden information (aor-pbem 4.3).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.aor import events as ev
from engine.aor.actions.common import AorAction, Step, cat
from engine.aor.actions.wars import cession, run_war
from engine.aor.board import marker_of, reduce_marker
from engine.aor.cards import play_from_hand
from engine.aor.market import payout, play_commodity
from engine.aor.model import hand_size, opponents, player
from engine.aor.names import card_name, choice, province_name, region_name, simple
from engine.aor.war import cedable, cede
from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.table import Event, Table, event

PASS, DONE = simple("pass"), simple("done")
CHOICE_VERB = {"opponent": "target", "province": "province", "region": "region", "group": "group"}


def play_options(t: Table, pid: str) -> list[Choice]:
    """One `play CARD` per distinct playable card in the hand (identical cards: the lower id)."""
    found: dict[str, Choice] = {}
    for label, card in sorted(player(t.state, pid)["hand"].items(), key=lambda kv: (kv[1], kv[0])):
        name = card_name(cat(t), card)
        if name not in found and ev.playable(cat(t), t.state, card):
            found[name] = choice("play", f"play {name}", (label, "card"))
    return sorted(found.values(), key=lambda c: c.line)


class PlayCards(AorAction):
    name = "play"
    decision = "play a card, or pass"

    def options(self, t: Table, node: Node) -> list[Choice]:
        found = play_options(t, node["player"])
        if node["args"].get("final"):
            return found or [DONE]
        return found + [PASS]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return options[-1] if hand_size(t.state, node["player"]) == 0 else None

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        if not node["args"].get("final"):
            return options[-1]
        hand = player(t.state, node["player"])["hand"]
        return min(options, key=lambda c: hand.get(c.args[0], "") if c.args else "")

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        pid = node["player"]
        if chosen.verb in ("pass", "done"):
            return Step([event(f"{pid} passes." if chosen.verb == "pass" else
                               f"{pid} has played every card they can.", kind="pass")])
        played = play_from_hand(cat(t), t.state, pid, chosen.args[0])
        card, data = played.card, cat(t).cards[played.card]
        events = [event(f"{pid} plays {data.name}.", kind="play")]
        if played.rebate:
            events.append(event(f"{pid} collects {played.rebate} (Printed Word).", kind="rebate"))
        for gone in ev.note_obsolete(cat(t), t.state, card):
            events.append(event(f"{card_name(cat(t), gone)} can no longer be played (7.2).",
                                kind="obsolete"))
        follow: list[Node] = []
        if data.kind == "commodity":
            if len(data.commodities) == 1:
                events += pay_out(t, card, data.commodities[0])
            else:
                follow.append(new_node(t.state, "commodity", pid, card=card))
        elif data.kind == "event":
            more, follow = start_event(t, pid, card)
            events += more
        return Step(events, follow, again=True)


def pay_out(t: Table, card: str, commodity: str) -> list[Event]:
    paid = play_commodity(cat(t), t.state, card, commodity)
    shown = ", ".join(f"{p} {n}" for p, n in sorted(paid.items())) or "nobody"
    return [event(f"{commodity.title()} pays (9.3.1): {shown}.", kind="payout")]


def start_event(t: Table, pid: str, card: str) -> tuple[list[Event], list[Node]]:
    """An event's immediate effect, or the node for the choice it asks."""
    catalog, state = cat(t), t.state
    data = catalog.cards[card]
    verb, params = data.verb, data.params
    if "choose" in params:
        if choice_options(t, pid, card):
            left = ev.reductions(catalog, state, card) if verb == "reduce_markers" else 1
            return [], [new_node(state, "choose", pid, card=card, left=left)]
        return [event(f"{data.name} has no effect: nothing it could pick.", kind="no_effect")], []
    if verb == "misery_all":
        moved = ev.misery_all(catalog, state, card)
        shown = ", ".join(f"{p} +{n}" for p, n in sorted(moved.items())) or "nobody moves"
        return [event(f"{data.name}: misery steps {shown}.", kind="event")], []
    if verb == "gain_cash":
        return [event(f"{pid} receives {ev.gain_cash(catalog, state, card, pid)} ducats "
                      f"({data.name}).", kind="event")], []
    if verb == "protect":
        return [event(f"{pid} is protected this turn (Enlightened Ruler).", kind="event")], []
    if verb == "military_advantage":
        return [event(f"{pid} has a military advantage this turn ({data.name}).", kind="event")], []
    raise AssertionError(f"event verb {verb} has no handler")  # pragma: no cover


def choice_options(t: Table, pid: str, card: str) -> list[Choice]:
    catalog, state = cat(t), t.state
    data = catalog.cards[card]
    kind = str(data.params["choose"])
    verb = CHOICE_VERB[kind]
    if kind == "opponent":
        pool = opponents(state, pid) if data.verb == ev.WAR else ev.target_players(catalog, state, pid, card)
        return [choice(verb, f"target {p}", (p, "player")) for p in pool]
    if kind == "province":
        pool = (ev.seizable(catalog, state, pid, card) if data.verb == "seize_province"
                else ev.reducible(catalog, state, pid, card))
        return [choice(verb, f"province {province_name(catalog, w)}", (w, "province")) for w in pool]
    if kind == "region":
        return [choice(verb, f"region {region_name(r)}", (r, "region"))
                for r in ev.stricken_regions(catalog, state)]
    return [choice(verb, f"group {g}", (g, "group")) for g in ev.groups_to_bar(catalog, card)]


class Choose(AorAction):
    """The choice an event asks of its player: an opponent, a province, a region or a group."""

    name = "choose"
    decision = "choose what the event you played affects"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return choice_options(t, node["player"], node["args"]["card"])

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return options[0]

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        catalog, state = cat(t), t.state
        pid, card = node["player"], node["args"]["card"]
        data, target = catalog.cards[card], chosen.args[0]
        verb = data.verb
        if verb == "levy_cash":
            paid = ev.levy_cash(catalog, state, card, target)
            return Step([event(f"{target} pays {paid} ducats to the bank ({data.name}).", kind="event")])
        if verb == "civil_war":
            events = [event(f"Civil War strikes {target}: one misery step, the capital's marker "
                            "becomes a token, and they expand last.", kind="event")]
            if not ev.civil_war(catalog, state, card, target):
                return Step(events)
            return Step(events, [new_node(state, "lose", target, card=card)])
        if verb == ev.WAR:
            events, nodes = run_war(t, pid, target, chance)
            return Step([event(f"{pid} declares War on {target}.", kind="war")] + events, nodes)
        if verb == "seize_province":
            ev.seize(catalog, state, card, pid, target)
            return Step([event(f"{pid} takes {province_name(catalog, target)} ({data.name}); "
                               "one misery step.", kind="event")])
        if verb == "reduce_markers":
            owner = marker_of(state, target)
            reduce_marker(state, target)
            events = [event(f"{owner}'s marker in {province_name(catalog, target)} becomes a token "
                            f"({data.name}).", kind="event")]
            left = int(node["args"]["left"]) - 1
            if left > 0 and choice_options(t, pid, card):
                return Step(events, [new_node(state, "choose", pid, card=card, left=left)])
            return Step(events)
        if verb == "clear_region":
            removed, reduced = ev.clear_region(catalog, state, target)
            return Step([event(f"Black Death in Region {region_name(target)}: {removed} tokens "
                               f"removed, {reduced} markers reduced.", kind="event")])
        ev.bar_group(state, pid, target)
        return Step([event(f"Papal Decree: {target} Advances are barred to all but {pid} this "
                           "turn.", kind="event")])


class Commodity(AorAction):
    """7.1, A.1: a two-commodity card pays one of them."""

    name = "commodity"
    decision = "choose which commodity the card pays"

    def options(self, t: Table, node: Node) -> list[Choice]:
        card = node["args"]["card"]
        return [choice("commodity", f"commodity {c}", (c, "commodity"))
                for c in cat(t).cards[card].commodities]

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        pid = node["player"]
        return max(options, key=lambda c: payout(cat(t), t.state, pid, c.args[0]))

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        return Step(pay_out(t, node["args"]["card"], chosen.args[0]))


class CivilWarLoss(AorAction):
    """A.2, R18: the victim loses half their recorded cash or half of this turn's tokens."""

    name = "lose"
    decision = "lose half your recorded cash or half of this turn's tokens (Civil War)"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [choice("lose", "lose cash", ("cash", "word")),
                choice("lose", "lose tokens", ("tokens", "word"))]

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        what = chosen.args[0]
        lost = ev.civil_war_loss(cat(t), t.state, node["args"]["card"], node["player"], what)
        unit = "ducats" if what == "cash" else "tokens"
        return Step([event(f"{node['player']} loses {lost} {unit} (Civil War).", kind="event")])


class Cede(AorAction):
    """A.2, R16: the War loser picks the provinces to cede, one a line."""

    name = "cede"
    decision = "cede a province to the winner of the War"

    def options(self, t: Table, node: Node) -> list[Choice]:
        winner = node["args"]["winner"]
        return [choice("cede", f"cede {province_name(cat(t), w)}", (w, "province"))
                for w in sorted(cedable(cat(t), t.state, node["player"], winner))]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return options[0] if options and len(options) <= int(node["args"]["left"]) else None

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return min(options, key=lambda c: (cat(t).provinces[c.args[0]].market, c.args[0]))

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        loser, winner, where = node["player"], node["args"]["winner"], chosen.args[0]
        events = [event(f"{loser} cedes {province_name(cat(t), where)} to {winner}.", kind="cede")]
        cede(cat(t), t.state, loser, winner, where)
        more, nodes = cession(t, loser, winner, int(node["args"]["left"]) - 1)
        return Step(events + more, nodes)
