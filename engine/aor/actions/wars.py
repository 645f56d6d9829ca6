"""The War card on the agenda (A.2, 11.1; rulings R16, R49): a roll, then the loser's
cessions, asked out of turn when the loser has a real choice."""

from __future__ import annotations

from engine.aor.catalog import Catalog
from engine.aor.model import player
from engine.aor.names import province_name
from engine.aor.war import cannot_cede, cedable, cedable_together, cede, roll_war
from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.table import Event, Table, event


def run_war(t: Table, declarer: str, target: str, chance: Chance) -> tuple[list[Event], list[Node]]:
    """One War roll (public dice): misery for both, and the cessions owed by the loser."""
    catalog: Catalog = t.catalog
    result = roll_war(catalog, t.state, declarer, target, chance)
    events = [event("aor.war.roll", kind="war", declarer=declarer, target=target,
                    declarer_roll=result.dice[declarer], declarer_total=result.totals[declarer],
                    target_roll=result.dice[target], target_total=result.totals[target])]
    if result.winner is None or result.loser is None:
        events.append(tied(t))
        return events, []
    events.append(event("aor.war.won", kind="war", winner=result.winner, loser=result.loser,
                        owed=result.owed))
    if any(player(t.state, p)["eliminated"] for p in (declarer, target)):
        events.append(event("aor.war.ended", kind="war"))
        return events, []
    more, nodes = cession(t, result.loser, result.winner, result.owed)
    return events + more, nodes


def tied(t: Table) -> Event:
    """A tie goes on in the next Play Cards phase (R16), but in the final card play (11.1) there
    is no following turn: it is rolled again once per player still due to play, then drawn."""
    state = t.state
    if state["phase"] != "final_play":
        return event("aor.war.tied", kind="war")
    played, order = state["flow"].get("played", []), state["order"]
    # the players after the one whose cards were last played (or are being played)
    left = order[order.index(played[-1]) + 1:] if played and played[-1] in order else []
    if not left:
        return event("aor.war.tied_drawn", kind="war")
    return event("aor.war.tied_final", kind="war", next=left[0], rolls=len(left))


def cession(t: Table, loser: str, winner: str, owed: int) -> tuple[list[Event], list[Node]]:
    """Cede what must be ceded: a choice for the loser only when more provinces could go than
    are owed; each province that cannot be ceded costs one misery step (A.2)."""
    catalog: Catalog = t.catalog
    if owed <= 0:
        return [], []
    options = cedable(catalog, t.state, loser, winner)
    if len(options) > owed or not cedable_together(catalog, t.state, winner, options):
        return [], [new_node(t.state, "cede", loser, winner=winner, left=owed)]
    events = []
    for where in options:
        cede(catalog, t.state, loser, winner, where)
        events.append(event("aor.war.cede", kind="cede", loser=loser,
                            province=province_name(catalog, where), winner=winner))
    missing = owed - len(options)
    if missing:
        cannot_cede(catalog, t.state, loser, missing)
        events.append(event("aor.war.cannot_cede", kind="cede", loser=loser, missing=missing))
    return events, []
