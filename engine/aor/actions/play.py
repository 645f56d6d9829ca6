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
from engine.aor.messages import counted, rows
from engine.aor.model import hand_size, opponents, player
from engine.aor.names import card_name, choice, province_name, region_name, simple
from engine.aor.standing import clear_options, is_standing, set_standing
from engine.aor.war import cedable, cedable_together, cede
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
        return found + clear_options(t.state, node["player"]) + [PASS]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return options[-1] if hand_size(t.state, node["player"]) == 0 else None

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        if not node["args"].get("final"):
            return options[-1]
        hand = player(t.state, node["player"])["hand"]
        return min(options, key=lambda c: hand.get(c.args[0], "") if c.args else "")

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        pid = node["player"]
        if is_standing(chosen):  # clearing a standing answer is free (R61)
            return Step(set_standing(t.state, pid, chosen), again=True)
        if chosen.verb in ("pass", "done"):
            return Step([event("aor.play.pass" if chosen.verb == "pass" else "aor.play.done",
                               kind="pass", player=pid)])
        played = play_from_hand(cat(t), t.state, pid, chosen.args[0])
        card, data = played.card, cat(t).cards[played.card]
        events = [event("aor.play.card", kind="play", player=pid, card=data.name)]
        if played.rebate:
            events.append(event("aor.play.rebate", kind="rebate", player=pid, rebate=played.rebate))
        for gone in ev.note_obsolete(cat(t), t.state, card):
            events.append(event("aor.play.obsolete", kind="obsolete", card=card_name(cat(t), gone)))
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
    players = sorted(paid)
    return [event(counted("aor.play.payout", players), kind="payout", commodity=commodity,
                  **rows(players=players, amounts=[paid[p] for p in players]))]


def start_event(t: Table, pid: str, card: str) -> tuple[list[Event], list[Node]]:
    """An event's immediate effect, or the node for the choice it asks."""
    catalog, state = cat(t), t.state
    data = catalog.cards[card]
    verb, params = data.verb, data.params
    if "choose" in params:
        if choice_options(t, pid, card):
            left = ev.reductions(catalog, state, card) if verb == "reduce_markers" else 1
            return [], [new_node(state, "choose", pid, card=card, left=left)]
        return [event("aor.play.no_effect", kind="no_effect", card=data.name)], []
    if verb == "misery_all":
        moved = ev.misery_all(catalog, state, card)
        players = sorted(moved)
        return [event(counted("aor.play.misery", players), kind="event", card=data.name,
                      **rows(players=players, steps=[moved[p] for p in players]))], []
    if verb == "gain_cash":
        return [event("aor.play.gain_cash", kind="event", player=pid,
                      amount=ev.gain_cash(catalog, state, card, pid), card=data.name)], []
    if verb == "protect":
        return [event("aor.play.protect", kind="event", player=pid)], []
    if verb == "military_advantage":
        return [event("aor.play.military_advantage", kind="event", player=pid, card=data.name)], []
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
            return Step([event("aor.play.levy_cash", kind="event", target=target, paid=paid,
                               card=data.name)])
        if verb == "civil_war":
            events = [event("aor.play.civil_war", kind="event", target=target)]
            if not ev.civil_war(catalog, state, card, target):
                return Step(events)
            return Step(events, [new_node(state, "lose", target, card=card)])
        if verb == ev.WAR:
            events, nodes = run_war(t, pid, target, chance)
            return Step([event("aor.war.declared", kind="war", player=pid, target=target)] + events,
                        nodes)
        if verb == "seize_province":
            ev.seize(catalog, state, card, pid, target)
            return Step([event("aor.play.seize", kind="event", player=pid,
                               province=province_name(catalog, target), card=data.name)])
        if verb == "reduce_markers":
            owner = marker_of(state, target)
            reduce_marker(state, target)
            events = [event("aor.play.reduce", kind="event", owner=owner,
                            province=province_name(catalog, target), card=data.name)]
            left = int(node["args"]["left"]) - 1
            if left > 0 and choice_options(t, pid, card):
                return Step(events, [new_node(state, "choose", pid, card=card, left=left)])
            return Step(events)
        if verb == "clear_region":
            removed, reduced = ev.clear_region(catalog, state, target)
            return Step([event("aor.play.black_death", kind="event", region=region_name(target),
                               removed=removed, reduced=reduced)])
        ev.bar_group(state, pid, target)
        return Step([event("aor.play.papal_decree", kind="event", group=target, player=pid)])


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
        msg = "aor.play.civil_war_cash" if what == "cash" else "aor.play.civil_war_tokens"
        return Step([event(msg, kind="event", player=node["player"], lost=lost)])


class Cede(AorAction):
    """A.2, R16: the War loser picks the provinces to cede, one a line."""

    name = "cede"
    decision = "cede a province to the winner of the War"

    def options(self, t: Table, node: Node) -> list[Choice]:
        winner = node["args"]["winner"]
        return [choice("cede", f"cede {province_name(cat(t), w)}", (w, "province"))
                for w in sorted(cedable(cat(t), t.state, node["player"], winner))]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        every = [c.args[0] for c in options]  # asked only when some must stay (A.2)
        if options and len(options) <= int(node["args"]["left"]) and \
                cedable_together(cat(t), t.state, node["args"]["winner"], every):
            return options[0]
        return None

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return min(options, key=lambda c: (cat(t).provinces[c.args[0]].market, c.args[0]))

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        loser, winner, where = node["player"], node["args"]["winner"], chosen.args[0]
        events = [event("aor.war.cede", kind="cede", loser=loser, province=province_name(cat(t), where),
                        winner=winner)]
        cede(cat(t), t.state, loser, winner, where)
        more, nodes = cession(t, loser, winner, int(node["args"]["left"]) - 1)
        return Step(events + more, nodes)
