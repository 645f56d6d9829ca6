"""BATTLE: each attacker kills one defender and dies; the attacker chooses the casualties when
the choice matters; survivors make the attack Victorious and move into the empire.

A fighter is {"token", "from", "at"}: from "agent" (a card's agent, not yet on the map),
"city"/"border" (on the map at `at`), "adjacent" (a knight in a neighbouring empire's city),
or "repressed" (on the target's square). Tokens never leave their empire after a battle.

Casualty lines name a token (`kill catholic knight`), and its place when identical tokens sit in
different places: a city, a border, or `agent` / `repressed` for fighters off the map
(`lose catholic rook repressed`).
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
    city_name,
    describe_token,
    empire_state,
    free_token,
    remove_from_border,
    repress,
    token_kind,
)
from engine.pax.notation import border_line_name, city_line_name
from engine.pax.places import cities_of
from engine.pax.regime import regime_change

Fighter = dict[str, Any]
RESOLVE = Choice("resolve", (), (), "resolve")


def spot_name(t: Table, fighter: Fighter) -> str:
    source, at = fighter["from"], str(fighter.get("at"))
    if source in ("city", "adjacent"):
        return city_line_name(t, at)
    if source == "border":
        return border_line_name(cat(t), at)
    return "repressed" if source == "repressed" else "agent"


def fighter_names(t: Table, fighters: list[Fighter]) -> list[str]:
    """Each fighter's display name: its token and where it fights from, named as in casualty
    lines ("catholic knight (florence)")."""
    return [f"{describe_token(f['token'])} ({spot_name(t, f)})" for f in fighters]


def _sides(attackers: list[Fighter], defenders: list[Fighter]) -> str:
    """The id part of a message naming both sides when one has nobody (its own words)."""
    return ("" if attackers else ".no_attackers") + ("" if defenders else ".no_defenders")


def _named(key: str, t: Table, fighters: list[Fighter]) -> dict[str, Any]:
    return {key: fighter_names(t, fighters)} if fighters else {}


def start_battle(t: Table, bank: str, *, target: str, kind: str, attackers: list[Fighter],
                 defenders: list[Fighter], victory: dict[str, Any]) -> tuple[list[Event], Node]:
    """Open the battle; the returned node asks for casualties, then resolves it."""
    n, m = len(attackers), len(defenders)
    exchange = min(n, m)
    name = cat(t).empires[target].name
    # the battle's kind (campaign, crusade...) has its own words
    events = [event(f"pax.battle.start.{kind}{_sides(attackers, defenders)}", kind="battle",
                    empire=name, attacker_count=n, defender_count=m,
                    **_named("attackers", t, attackers), **_named("defenders", t, defenders))]
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


def _place_arg(fighter: Fighter) -> tuple[str, str]:
    """How an option names a fighter's place: a city, a border, or `agent`/`repressed`."""
    source, at = fighter["from"], str(fighter.get("at"))
    if source in ("city", "adjacent"):
        return at, "city"
    if source == "border":
        return at, "border"
    return source, "side"


def _grouped(t: Table, verb: str, fighters: list[Fighter]) -> list[Choice]:
    """One option per distinct (token, place); the place is named only when it tells apart."""
    seen: dict[tuple[str, str], Choice] = {}
    for fighter in fighters:
        tok = fighter["token"]
        key = (tok, spot_name(t, fighter))
        if key in seen:
            continue
        line = f"{verb} {describe_token(tok)}"
        if len({spot_name(t, f) for f in fighters if f["token"] == tok}) > 1:
            place, kind = _place_arg(fighter)
            seen[key] = Choice(verb, (tok, place), ("token", kind), f"{line} {key[1]}")
        else:
            # orders.md section 4 lets the line name the place anyway: `kill rook bruges`
            place, kind = _place_arg(fighter)
            seen[key] = Choice(verb, (tok,), ("token",), line, extra=((kind, (place,)),))
    return list(seen.values())


def _pick(fighters: list[Fighter], choice: Choice) -> Fighter:
    return next(f for f in fighters if f["token"] == choice.args[0]
                and (len(choice.args) == 1 or _place_arg(f)[0] == choice.args[1]))


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
    elif source == "repressed":  # on the target's square, or Mamluk's (Circassian Mamluks)
        empire_state(t, str(at))["repressed"].remove(fighter["token"])


def resolve(t: Table, node: Node) -> list[Event]:
    args = node["args"]
    target = args["target"]
    for fighter in args["dead_defenders"] + args["dead_attackers"]:
        _remove(t, fighter, target)
    survivors = args["attackers"]
    dead_attackers, dead_defenders = args["dead_attackers"], args["dead_defenders"]
    if dead_defenders or dead_attackers:
        events = [event(f"pax.battle.killed{_sides(dead_attackers, dead_defenders)}", kind="battle",
                        **_named("attackers", t, dead_attackers),
                        **_named("defenders", t, dead_defenders))]
    else:
        events = [event("pax.battle.no_kills", kind="battle")]
    if not survivors:
        return events + [event("pax.battle.lost", kind="battle_lost")]
    movers = [f for f in survivors if f["from"] == "agent"
              or (f["from"] == "repressed" and f["at"] == target)]
    stay = [f for f in survivors if f not in movers]
    # survivors that move in, that stay on the map, or both: a sentence for each
    moving: dict[str, Any] = {"empire": cat(t).empires[target].name} if movers else {}
    events.append(event(f"pax.battle.won{'.move' if movers else ''}{'.stay' if stay else ''}",
                        kind="battle_won", survivors=fighter_names(t, survivors), **moving))
    for fighter in movers:
        if fighter["from"] == "repressed":
            empire_state(t, target)["repressed"].remove(fighter["token"])
    # BATTLE (3) and J2's note: the player chooses which survivors populate the free spaces,
    # agents and repressed attackers alike; only the excess is repressed (ruling R-416).
    settled, follow = settle_survivors(t, node["player"], target, [f["token"] for f in movers])
    follow.append(new_node(t.state, "battle_won", node["player"], target=target,
                           victory=args["victory"]))
    t.agenda[0:0] = follow
    return events + settled


def _room(t: Table, target: str, kind: str) -> list[tuple[str, str]]:
    """The free spaces of the conquered empire a survivor of `kind` may take: (id, line name)."""
    if kind in ("knight", "rook"):
        return [(c, city_line_name(t, c)) for c in cities_of(t, target)
                if c not in t.state["cities"] and c not in t.state["busted"]]
    return [(b, border_line_name(cat(t), b)) for b in cat(t).empires[target].borders
            if b not in t.state["borders"] and (kind == "pawn" or cat(t).borders[b].sea)]


def settle_survivors(t: Table, bank: str, target: str,
                     tokens: list[str]) -> tuple[list[Event], list[Node]]:
    """Survivors still to place: a decision while any of them has room, else the excess is
    repressed for free (a pirate is lost, R-409)."""
    if any(_room(t, target, token_kind(tok)) for tok in tokens):
        return [], [new_node(t.state, "survivor", bank, target=target, tokens=sorted(tokens))]
    events: list[Event] = []
    name = cat(t).empires[target].name
    for tok in sorted(tokens):
        if token_kind(tok) == "pirate":
            events.append(event("pax.battle.survivor.lost", token=describe_token(tok), empire=name))
            continue
        events += free_token(t, tok, into=target)  # an agent comes from the pool
        repress(t, tok, target)
        events.append(event("pax.battle.survivor.repressed", empire=name, token=describe_token(tok)))
    return events, []


def _pending(node: Node) -> list[str]:
    """The survivors still to place (a node saved before R-416 holds a single `token`)."""
    args = node["args"]
    return list(args["tokens"]) if "tokens" in args else [args["token"]]


class Survivor(Action):
    """BATTLE (3): the attacking player puts surviving agents and repressed attackers, one line
    each, into the empty cities (knights, rooks) or borders (pawns; pirates on sea borders) of
    the conquered empire, in any order, until no survivor has room; the rest are repressed."""

    name = "survivor"
    decision = "where a battle survivor goes"

    def options(self, t: Table, node: Node) -> list[Choice]:
        target = node["args"]["target"]
        pending = _pending(node)
        options: dict[str, Choice] = {}
        for tok in sorted(set(pending)):
            kind = token_kind(tok)
            # the colour is written only when survivors of this kind differ in it
            named = describe_token(tok) if len({p for p in pending if token_kind(p) == kind}) > 1 \
                else kind
            place_kind = "city" if kind in ("knight", "rook") else "border"
            for place, words in _room(t, target, kind):
                line = f"{named} {words}"
                # no verb: the token words open the line ("knight paris", "reformist rook bruges")
                options.setdefault(line, Choice("", (tok, place), ("token", place_kind), line))
        return list(options.values())

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        target, bank = node["args"]["target"], node["player"]
        tok, place = choice.args
        pending = _pending(node)
        pending.remove(tok)
        events = free_token(t, tok, into=place)
        if place in cat(t).borders:
            role = "pirate" if token_kind(tok) == "pirate" else "concession"
            t.state["borders"][place] = {role: tok}
            t.state["borders"] = dict(sorted(t.state["borders"].items()))
            where = cat(t).borders[place].name
        else:
            t.state["cities"][place] = tok
            t.state["cities"] = dict(sorted(t.state["cities"].items()))
            where = city_name(t, place)
        events.append(event("pax.battle.survivor.placed", token=describe_token(tok), place=where))
        settled, follow = settle_survivors(t, bank, target, pending) if pending else ([], [])
        t.agenda[0:0] = follow
        return events + settled


def shared_cities(t: Table, empire_id: str) -> list[list[str]]:
    """The cities of an empire made of several slots (Constantinople) holding some tokens and
    some room: under a new map card the attacker chooses which slots stay free (K2)."""
    groups: dict[str, list[str]] = {}
    for city_id in cities_of(t, empire_id):
        if city_id not in t.state["busted"]:
            groups.setdefault(cat(t).cities[city_id].name, []).append(city_id)
    return [slots for slots in groups.values() if len(slots) > 1
            and 0 < sum(s in t.state["cities"] for s in slots) < len(slots)]


class BattleWon(Action):
    """After the survivors are placed: K2's new theocracy, then the REGIME CHANGE."""

    name = "battle_won"
    decision = "resolve the victory"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [RESOLVE]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        target = node["args"]["target"]
        victory = node["args"]["victory"]
        bank = node["player"]
        events = []
        follow: list[Node] = []
        religion = victory.get("religion")
        name = cat(t).empires[target].name
        # one message per religion: its article differs ("an islamic theocracy")
        if religion and empire_state(t, target)["religion"] == religion:
            events.append(event(f"pax.battle.theocracy.remains.{religion}", kind="theocracy",
                                empire=name))
        elif religion:
            empire_state(t, target)["religion"] = religion
            events.append(event(f"pax.battle.theocracy.becomes.{religion}", kind="theocracy",
                                empire=name))
            follow += [new_node(t.state, "arrange", bank, slots=slots)
                       for slots in shared_cities(t, target)]
        changed, regime = regime_change(t, bank, target, cause=victory["cause"],
                                        conqueror=victory.get("conqueror"))
        t.agenda[0:0] = follow + regime
        return events + changed
