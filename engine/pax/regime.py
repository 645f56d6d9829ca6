"""REGIME CHANGE: the empire square changes hands (or sides), then the optional emancipation
of the repressed, the optional concession, and golden liberty after a vote in a theocracy."""

from __future__ import annotations

from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.abilities import Ability, ability_event
from engine.pax.model import (
    cat,
    city_name,
    describe_token,
    discard,
    empire_state,
    free_token,
    player,
    remove_from_border,
    remove_from_tableau,
    repress,
    return_to_throne,
    square_of,
    token,
    token_kind,
    vassals_of,
)
from engine.pax.notation import border_line_name, city_line_name
from engine.pax.places import cities_of

STRAWMAN_CAUSES = ("vote", "conspiracy", "peasant_revolt", "religious_war")


def top_suzerain(t: Table, empire_id: str) -> str:
    suzerain = empire_state(t, empire_id).get("suzerain")
    return str(suzerain) if suzerain else empire_id


def _lose_court(t: Table, empire_id: str) -> list[Event]:
    """Taken from an enemy or flipped: bishops and queens are discarded, vassals go home."""
    data = empire_state(t, empire_id)
    events = []
    name = cat(t).empires[empire_id].name
    if t.state["bishops"].pop(square_of(empire_id), None):
        events.append(event("pax.regime.bishop_discarded", empire=name))
    if data.get("queen"):
        queen = data["queen"]
        discard(t, queen)
        events.append(event("pax.regime.queen_killed", empire=name))
    for vassal in vassals_of(t, empire_id):
        return_to_throne(t, vassal, keep_queen=True)
        events.append(event("pax.regime.vassal_freed", empire=cat(t).empires[vassal].name))
    return events


def regime_change(t: Table, bank: str, empire_id: str, *, cause: str,
                  conqueror: str | None = None) -> tuple[list[Event], list[Node]]:
    """Move or flip the square; return events and the follow-up decisions."""
    data = empire_state(t, empire_id)
    name = cat(t).empires[empire_id].name
    region = cat(t).empires[empire_id].region
    events: list[Event] = []
    if data["ruler"] == bank and cause == "coronation":
        events.append(event("pax.regime.stays", empire=name, bank=bank))
    elif data["ruler"] == bank and cause in STRAWMAN_CAUSES:
        events += _lose_court(t, empire_id)
        if data.get("suzerain"):
            data["suzerain"] = None  # a flipped vassal leaves vassalage (Vassals are Kings)
            player(t, bank)[region].append(square_of(empire_id))
        data["side"] = "republic" if data["side"] == "king" else "king"
        events.append(event("pax.regime.strawman", bank=bank, empire=name, side=data["side"]))
    else:
        if data["ruler"] is not None:
            events.append(event("pax.regime.taken", empire=name, ruler=str(data["ruler"])))
            events += _lose_court(t, empire_id)
            remove_from_tableau(t, square_of(empire_id))
        data.update({"ruler": bank, "side": "king", "suzerain": None})
        if cause == "campaign" and conqueror is not None:
            data["suzerain"] = top_suzerain(t, conqueror)
            suzerain = cat(t).empires[data["suzerain"]].name
            events.append(event("pax.regime.vassal", empire=name, suzerain=suzerain, bank=bank))
        else:
            player(t, bank)[region].append(square_of(empire_id))
            events.append(event("pax.regime.king", empire=name, bank=bank))
    # BATTLE "Order of Battle" (4): emancipation, then the concession, so a concession
    # repressed by this regime change can never be emancipated by it. No emancipation is
    # asked when no repressed token has room (R-012: no decision without a choice).
    follow = [new_node(t.state, "emancipate", bank, empire=empire_id)
              ] if emancipation_options(t, empire_id) else []
    follow.append(new_node(t.state, "regime_concession", bank, empire=empire_id))
    if cause == "vote" and data["religion"] != "medieval":
        follow.append(new_node(t.state, "golden_liberty", bank, empire=empire_id))
    return events, follow


class RegimeConcession(Action):
    """REGIME CHANGE: an optional concession on a border of the empire (1 florin to repress)."""

    name = "regime_concession"
    decision = "place the regime change concession or not"

    def options(self, t: Table, node: Node) -> list[Choice]:
        empire_id = node["args"]["empire"]
        florins = player(t, node["player"])["florins"]
        options = []
        for border_id in cat(t).empires[empire_id].borders:
            content = t.state["borders"].get(border_id, {})
            if "pirate" in content or ("concession" in content and florins < 1):
                continue
            line = f"concession {border_line_name(cat(t), border_id)}"
            options.append(Choice("concession", (border_id,), ("border",), line))
        return options + [Choice("no concession", (), (), "no concession")]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        if not choice.args:
            return []
        bank = node["player"]
        border_id = choice.args[0]
        border = cat(t).borders[border_id]
        tok = token("pawn", bank)
        events = free_token(t, tok, into=border_id)
        old = t.state["borders"].get(border_id, {}).get("concession")
        if old:
            player(t, bank)["florins"] -= 1
            remove_from_border(t, border_id, "concession")
            repress(t, old, node["args"]["empire"])
            events.append(event("pax.regime.concession.repress", bank=bank,
                                token=describe_token(old), border=border.name))
        t.state["borders"][border_id] = {"concession": tok}
        t.state["borders"] = dict(sorted(t.state["borders"].items()))
        return events + [event("pax.regime.concession", bank=bank, border=border.name)]


def emancipation_options(t: Table, empire_id: str) -> list[Choice]:
    data = empire_state(t, empire_id)
    options: dict[str, Choice] = {}
    for tok in sorted(set(data["repressed"])):
        if token_kind(tok) == "pawn":
            for border_id in cat(t).empires[empire_id].borders:
                if border_id not in t.state["borders"]:
                    line = f"emancipate {describe_token(tok)} {border_line_name(cat(t), border_id)}"
                    options[line] = Choice("emancipate", (tok, border_id), ("token", "border"), line)
        else:
            for city_id in cities_of(t, empire_id):
                if city_id not in t.state["cities"] and city_id not in t.state["busted"]:
                    line = f"emancipate {describe_token(tok)} {city_line_name(t, city_id)}"
                    options.setdefault(line, Choice("emancipate", (tok, city_id),
                                                    ("token", "city"), line))
    return list(options.values())


def _empires(node: Node) -> list[str]:
    """The empires whose repressed tokens may go free: the regime change's, or every Western
    empire when Enclosure is sold (sell_to_emancipate_west)."""
    return list(node["args"].get("empires") or [node["args"]["empire"]])


def _home(t: Table, node: Node, tok: str, place: str) -> str:
    for empire_id in _empires(node):
        if tok in empire_state(t, empire_id)["repressed"] and any(
                c.args == (tok, place) for c in emancipation_options(t, empire_id)):
            return empire_id
    raise AssertionError(f"no empire of {_empires(node)} frees {tok} into {place}")


class Emancipate(Action):
    """REGIME CHANGE: any or all repressed tokens may go back onto empty cities and borders."""

    name = "emancipate"
    decision = "emancipate repressed tokens, then done"

    def options(self, t: Table, node: Node) -> list[Choice]:
        options: dict[str, Choice] = {}
        for empire_id in _empires(node):
            for choice in emancipation_options(t, empire_id):
                options.setdefault(choice.line, choice)
        return [*options.values(), Choice("done", (), (), "done")]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        if choice.verb == "done":
            return []
        tok, place = choice.args
        empire_state(t, _home(t, node, tok, place))["repressed"].remove(tok)
        if place in cat(t).borders:
            t.state["borders"][place] = {"concession": tok}
            t.state["borders"] = dict(sorted(t.state["borders"].items()))
            where = cat(t).borders[place].name
        else:
            t.state["cities"][place] = tok
            t.state["cities"] = dict(sorted(t.state["cities"].items()))
            where = city_name(t, place)
        t.agenda.insert(0, node)  # more may follow until `done`
        notes = [ability_event(Ability(node["args"]["ability"]), "pax.regime.enclosure")
                 ] if node["args"].get("ability") else []
        return notes + [event("pax.regime.emancipate", bank=node["player"],
                              token=describe_token(tok), place=where)]


class GoldenLiberty(Action):
    """F6d: after a vote in a theocracy, the voter may make the empire medieval."""

    name = "golden_liberty"
    decision = "golden liberty: make the empire medieval or keep its theocracy"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [Choice("medieval", (), (), "medieval"), Choice("keep", (), (), "keep")]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        empire_id = node["args"]["empire"]
        if choice.verb == "keep":
            return []
        empire_state(t, empire_id)["religion"] = "medieval"
        return [event("pax.regime.golden_liberty", empire=cat(t).empires[empire_id].name)]
