"""BATTLE: each attacker kills one defender and dies; the attacker chooses the casualties when
the choice matters; survivors make the attack Victorious and move into the empire.

A fighter is {"token", "from", "at"}: from "agent" (a card's agent, not yet on the map),
"city"/"border" (on the map at `at`), "adjacent" (a knight in a neighbouring empire's city),
or "repressed" (on the target's square). Tokens never leave their empire after a battle.
"""

from __future__ import annotations

from typing import Any

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.model import (
    cat,
    describe_token,
    empire_state,
    free_token,
    remove_from_border,
    repress,
    token_kind,
)
from engine.pax.notation import border_line_name, city_line_name
from engine.pax.regime import regime_change

Fighter = dict[str, Any]
RESOLVE = Choice("resolve", (), (), "resolve")


def spot_name(t: Table, fighter: Fighter) -> str:
    source, at = fighter["from"], str(fighter.get("at"))
    if source in ("city", "adjacent"):
        return city_line_name(cat(t), at)
    if source == "border":
        return border_line_name(cat(t), at)
    return "repressed" if source == "repressed" else "agent"


def describe_fighters(t: Table, fighters: list[Fighter]) -> str:
    if not fighters:
        return "nobody"
    return ", ".join(f"{describe_token(f['token'])} ({spot_name(t, f)})" for f in fighters)


def start_battle(t: Table, bank: str, *, target: str, kind: str, attackers: list[Fighter],
                 defenders: list[Fighter], victory: dict[str, Any]) -> tuple[list[Event], Node]:
    """Open the battle; the returned node asks for casualties, then resolves it."""
    n, m = len(attackers), len(defenders)
    exchange = min(n, m)
    name = cat(t).empires[target].name
    events = [event(f"Battle in {name} ({kind.replace('_', ' ')}): {n} attacker(s) - "
                    f"{describe_fighters(t, attackers)} - against {m} defender(s) - "
                    f"{describe_fighters(t, defenders)}.", kind="battle")]
    node = new_node(
        t.state, "casualty", bank, target=target, kind=kind,
        attackers=attackers if exchange < n else [],
        defenders=defenders if exchange < m else [],
        dead_attackers=[] if exchange < n else attackers,
        dead_defenders=[] if exchange < m else defenders,
        kills_left=exchange if exchange < m else 0,
        losses_left=exchange if exchange < n else 0,
        victory=victory,
    )
    return events, node


def _grouped(t: Table, verb: str, fighters: list[Fighter]) -> list[Choice]:
    """One option per distinct (token, place); the place is named only when it tells apart."""
    seen: dict[tuple[str, str], Choice] = {}
    tokens = [f["token"] for f in fighters]
    for index, fighter in enumerate(fighters):
        key = (fighter["token"], spot_name(t, fighter))
        if key in seen:
            continue
        line = f"{verb} {describe_token(fighter['token'])}"
        if tokens.count(fighter["token"]) > 1 and len({spot_name(t, f) for f in fighters
                                                       if f["token"] == fighter["token"]}) > 1:
            line += f" {key[1]}"
            seen[key] = Choice(verb, (fighter["token"], str(index)), ("token", "index"), line)
        else:
            seen[key] = Choice(verb, (fighter["token"],), ("token",), line)
    return list(seen.values())


def _pick(fighters: list[Fighter], choice: Choice) -> Fighter:
    if len(choice.args) > 1:
        return fighters[int(choice.args[1])]
    return next(f for f in fighters if f["token"] == choice.args[0])


class Casualty(Action):
    """The attacking player chooses which defenders die, then which attackers die."""

    name = "casualty"
    decision = "choose the battle's casualties"

    def options(self, t: Table, node: Node) -> list[Choice]:
        args = node["args"]
        if args["kills_left"]:
            return _grouped(t, "kill", args["defenders"])
        if args["losses_left"]:
            return _grouped(t, "lose", args["attackers"])
        return [RESOLVE]

    def default(self, t: Table, node: Node, options: list[Choice]) -> Choice:  # type: ignore[override]
        return options[0]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        args = node["args"]
        if choice.verb == "kill":
            fighter = _pick(args["defenders"], choice)
            args["defenders"].remove(fighter)
            args["dead_defenders"].append(fighter)
            args["kills_left"] -= 1
        elif choice.verb == "lose":
            fighter = _pick(args["attackers"], choice)
            args["attackers"].remove(fighter)
            args["dead_attackers"].append(fighter)
            args["losses_left"] -= 1
        else:
            return resolve(t, node)
        t.agenda.insert(0, node)
        return []


def _remove(t: Table, fighter: Fighter, target: str) -> None:
    source, at = fighter["from"], str(fighter.get("at"))
    if source in ("city", "adjacent"):
        t.state["cities"].pop(at, None)
    elif source == "border":
        content = t.state["borders"].get(at, {})
        role = next((r for r, tok in content.items() if tok == fighter["token"]), None)
        if role:
            remove_from_border(t, at, role)
    elif source == "repressed":
        empire_state(t, target)["repressed"].remove(fighter["token"])


def resolve(t: Table, node: Node) -> list[Event]:
    args = node["args"]
    target = args["target"]
    for fighter in args["dead_defenders"] + args["dead_attackers"]:
        _remove(t, fighter, target)
    survivors = args["attackers"]
    events = [event(f"Killed: defenders {describe_fighters(t, args['dead_defenders'])}; "
                    f"attackers {describe_fighters(t, args['dead_attackers'])}.", kind="battle")]
    if not survivors:
        return events + [event("No attacker survives: the attack fails.", kind="battle_lost")]
    events.append(event(f"Victorious! Survivors: {describe_fighters(t, survivors)}.",
                        kind="battle_won"))
    movers = [f for f in survivors if f["from"] in ("agent", "repressed")]
    for fighter in movers:
        if fighter["from"] == "repressed":
            empire_state(t, target)["repressed"].remove(fighter["token"])
    follow = [new_node(t.state, "survivor", node["player"], target=target, token=f["token"])
              for f in movers]
    follow.append(new_node(t.state, "battle_won", node["player"], target=target,
                           victory=args["victory"]))
    t.agenda[0:0] = follow
    return events


class Survivor(Action):
    """BATTLE (3): a surviving agent or repressed attacker moves into an empty city or border
    of the conquered empire; with no room it is repressed there for free (a pirate is lost)."""

    name = "survivor"
    decision = "where a battle survivor goes"

    def options(self, t: Table, node: Node) -> list[Choice]:
        tok, target = node["args"]["token"], node["args"]["target"]
        kind = token_kind(tok)
        options: dict[str, Choice] = {}
        if kind in ("knight", "rook"):
            for city_id in cat(t).empires[target].cities:
                if city_id not in t.state["cities"] and city_id not in t.state["busted"]:
                    line = f"{kind} {city_line_name(cat(t), city_id)}"
                    options.setdefault(line, Choice(kind, (city_id,), ("city",), line))
        else:
            for border_id in cat(t).empires[target].borders:
                free = border_id not in t.state["borders"]
                if free and (kind == "pawn" or cat(t).borders[border_id].sea):
                    line = f"{kind} {border_line_name(cat(t), border_id)}"
                    options[line] = Choice(kind, (border_id,), ("border",), line)
        if options:
            return list(options.values())
        return [Choice("repress", (), (), "repress")]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        tok, target = node["args"]["token"], node["args"]["target"]
        name = cat(t).empires[target].name
        if choice.verb == "repress":
            if token_kind(tok) == "pirate":
                return [event(f"The surviving {describe_token(tok)} finds no free sea border "
                              f"in {name} and is lost.")]
            repress(t, tok, target)
            return [event(f"No room in {name}: the surviving {describe_token(tok)} is "
                          "repressed there for free.")]
        events = free_token(t, tok)
        place = choice.args[0]
        if place in cat(t).borders:
            role = "pirate" if token_kind(tok) == "pirate" else "concession"
            t.state["borders"][place] = {role: tok}
            t.state["borders"] = dict(sorted(t.state["borders"].items()))
            where = cat(t).borders[place].name
        else:
            t.state["cities"][place] = tok
            t.state["cities"] = dict(sorted(t.state["cities"].items()))
            where = cat(t).cities[place].name
        return events + [event(f"The surviving {describe_token(tok)} goes to {where}.")]


class BattleWon(Action):
    """After the survivors are placed: K2's new theocracy, then the REGIME CHANGE."""

    name = "battle_won"
    decision = "resolve the victory"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [RESOLVE]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        target = node["args"]["target"]
        victory = node["args"]["victory"]
        events = []
        religion = victory.get("religion")
        if religion:
            empire_state(t, target)["religion"] = religion
            events.append(event(f"{cat(t).empires[target].name} becomes a {religion} "
                                "theocracy.", kind="theocracy"))
        changed, follow = regime_change(t, node["player"], target, cause=victory["cause"],
                                        conqueror=victory.get("conqueror"))
        t.agenda[0:0] = follow
        return events + changed
