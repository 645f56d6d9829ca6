"""The Acquisition Phase (9.4): the fleet, Advances one at a time, Master Art's discard (R07),
stabilization, then misery relief (R08)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.aor.actions.common import AorAction, Step, cat, find
from engine.aor.actions.phase_start import discard, discard_options
from engine.aor.advances import (
    buy_advance,
    can_raise_fleet,
    purchase_options,
    purchase_problem,
    raise_fleet,
)
from engine.aor.economy import apply_relief, stabilization_cost, stabilization_options, stabilize
from engine.aor.model import hand_size, player
from engine.aor.names import advance_name, candidates, card_name, choice, named, simple
from engine.aor.reasons import why
from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice, clean_line
from engine.core.errors import Reason, Verbatim
from engine.core.table import Event, Table, event

FLEET, DONE, KEEP = simple("fleet"), simple("done"), simple("keep")
MASTER_ART = "master_art"


def buy_options(t: Table, pid: str) -> list[Choice]:
    catalog = cat(t)
    return [_buy_choice(p.advance, advance_name(catalog, p.advance), p.leader,
                        card_name(catalog, p.leader) if p.leader else "")
            for p in purchase_options(catalog, t.state, pid)]


@lru_cache(maxsize=1024)
def _buy_choice(advance: str, name: str, leader: str | None, leader_name: str) -> Choice:
    """`buy NAME` or `buy NAME with LEADER`, built once (a Choice is immutable)."""
    if leader:
        return choice("buy", f"buy {name} with {leader_name}", (advance, "advance"),
                      (leader, "with_leader"))
    return choice("buy", f"buy {name}", (advance, "advance"))


class Acquire(AorAction):
    """9.4.1-9.4.2: raise the fleet one box (before any Advance), buy Advances, then `done`."""

    name = "acquire"
    decision = "raise your fleet, buy Advances, then done"

    def options(self, t: Table, node: Node) -> list[Choice]:
        pid = node["player"]
        found = []
        if can_raise_fleet(cat(t), t.state, pid) and not player(t.state, pid)["new_advances"]:
            found.append(FLEET)
        return found + buy_options(t, pid) + [DONE]

    def explain(self, t: Table, node: Node, line: str) -> Reason | None:
        pid, words = node["player"], clean_line(line)
        if words == "fleet":
            return why("fleet_once", cost=cat(t).numbers["fleet"]["box_cost"])
        if not words.startswith("buy "):
            return None
        wanted, _, leader_words = words[4:].partition(" with ")
        found = candidates(t, "advance", wanted)
        if len(found) != 1:
            names = [advance_name(cat(t), a) for a in found]
            return why("advance_could_be", wanted=Verbatim(wanted), names=names) if found else \
                why("no_advance", wanted=Verbatim(wanted))
        advance = found[0]
        leader = named(t, "leader", leader_words) if leader_words else None
        if leader_words and leader is None:
            return why("no_leader", wanted=Verbatim(leader_words))
        return purchase_problem(cat(t), t.state, pid, advance, leader)

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        pid = node["player"]
        if chosen.verb == "done":
            if stabilization_options(cat(t), t.state, pid):
                return Step([], [new_node(t.state, "stabilize", pid)])
            return Step(relieve(t, pid))
        if chosen.verb == "fleet":
            raise_fleet(cat(t), t.state, pid)
            fleet = player(t.state, pid)["fleet"]
            return Step([event("aor.acquire.fleet", kind="fleet", player=pid, stage=fleet["stage"],
                               box=fleet["box"])], again=True)
        leader = chosen.args[1] if len(chosen.args) > 1 else None
        bought = buy_advance(cat(t), t.state, pid, chosen.args[0], leader)
        name = advance_name(cat(t), bought.advance)
        events = [event("aor.acquire.advance_leader", kind="advance", player=pid, advance=name,
                        leader=card_name(cat(t), leader), price=bought.price) if leader else
                  event("aor.acquire.advance", kind="advance", player=pid, advance=name,
                        price=bought.price)]
        follow = []
        alive = not player(t.state, pid)["eliminated"]
        if bought.advance == MASTER_ART and hand_size(t.state, pid) and alive:
            follow.append(new_node(t.state, "master_art", pid))
        return Step(events, follow, again=True)


class MasterArtDiscard(AorAction):
    """P, R07: on buying Master Art, one card may be discarded at once."""

    name = "master_art"
    decision = "discard a card (Master Art) or keep your hand"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return discard_options(t, node["player"]) + [KEEP]

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        return options[-1] if hand_size(t.state, node["player"]) == 0 else None

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        if chosen.verb == "keep":
            return Step([])
        return Step(discard(t, node["player"], chosen.args[0]))


class Stabilize(AorAction):
    """9.4.3: pay 1 + 2 + ... + n ducats for n cards in hand, or take misery steps instead."""

    name = "stabilize"
    decision = "pay for stability or take misery steps"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [choice("stabilize", f"stabilize {how}", (how, "word"))
                for how in stabilization_options(cat(t), t.state, node["player"])]

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        return find(options, "stabilize pay") or options[-1]

    def act(self, t: Table, node: Node, chosen: Choice, chance: Chance) -> Step:
        pid, how = node["player"], chosen.args[0]
        cost = stabilization_cost(cat(t), t.state, pid)
        amount = stabilize(cat(t), t.state, pid, how)
        said = (event("aor.acquire.stabilize_pay", kind="stabilize", player=pid, amount=amount)
                if how == "pay" else
                event("aor.acquire.stabilize_misery", kind="stabilize", player=pid, steps=amount,
                      cost=cost))
        return Step([said] + relieve(t, pid))


def relieve(t: Table, pid: str) -> list[Event]:
    if player(t.state, pid)["eliminated"]:
        return []
    steps = apply_relief(cat(t), t.state, pid)
    if not steps:
        return []
    return [event("aor.acquire.relief", kind="relief", player=pid, steps=steps)]
