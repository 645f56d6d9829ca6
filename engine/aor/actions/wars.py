"""The War card on the agenda (A.2, 11.1; rulings R16, R49): a roll, then the loser's
cessions, asked out of turn when the loser has a real choice."""

from __future__ import annotations

from engine.aor.catalog import Catalog
from engine.aor.model import player
from engine.aor.names import province_name
from engine.aor.war import cannot_cede, cedable, cede, roll_war
from engine.core.agenda import Node, new_node
from engine.core.chance import Chance
from engine.core.table import Event, Table, event


def run_war(t: Table, declarer: str, target: str, chance: Chance) -> tuple[list[Event], list[Node]]:
    """One War roll (public dice): misery for both, and the cessions owed by the loser."""
    catalog: Catalog = t.catalog
    result = roll_war(catalog, t.state, declarer, target, chance)
    dice = ", ".join(f"{p} rolls {result.dice[p]} ({result.totals[p]} in all)" for p in (declarer, target))
    events = [event(f"War between {declarer} and {target}: {dice}.", kind="war")]
    if result.winner is None or result.loser is None:
        events.append(event("The War is tied: one misery step each; it goes on in the next Play "
                            "Cards phase (R16).", kind="war"))
        return events, []
    events.append(event(f"{result.winner} wins the War; {result.loser} owes {result.owed} "
                        "province(s).", kind="war"))
    if any(player(t.state, p)["eliminated"] for p in (declarer, target)):
        events.append(event("The War ends: a side is out of the game (R16).", kind="war"))
        return events, []
    more, nodes = cession(t, result.loser, result.winner, result.owed)
    return events + more, nodes


def cession(t: Table, loser: str, winner: str, owed: int) -> tuple[list[Event], list[Node]]:
    """Cede what must be ceded: a choice for the loser only when more provinces could go than
    are owed; each province that cannot be ceded costs one misery step (A.2)."""
    catalog: Catalog = t.catalog
    if owed <= 0:
        return [], []
    options = cedable(catalog, t.state, loser, winner)
    if len(options) > owed:
        return [], [new_node(t.state, "cede", loser, winner=winner, left=owed)]
    events = []
    for where in options:
        cede(catalog, t.state, loser, winner, where)
        events.append(event(f"{loser} cedes {province_name(catalog, where)} to {winner}.",
                            kind="cede"))
    missing = owed - len(options)
    if missing:
        cannot_cede(catalog, t.state, loser, missing)
        events.append(event(f"{loser} cannot cede {missing} province(s): {missing} misery "
                            "step(s).", kind="cede"))
    return events, []
