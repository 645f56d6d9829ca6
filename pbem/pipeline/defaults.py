"""The defaults a timeout applies, and their check in verify: what a player owes now, each
answered by the ruleset's `Action.default`, applied as a choice (a pure step on a copy)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import sealing
from engine.core.adjudicate import answer, asked, run_automatic
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.chance import Chance
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table, event
from pbem.delivery import deadlines

_MAX_STEPS = 200


def timeout_event(player: str, lines: Sequence[str]) -> Event:
    return event("pbem.timeout", kind="timeout", player=player, lines=list(lines))


def governed(node: dict[str, object] | None, player: str, nmr: str, table: Table) -> bool:
    """Whether a timeout of `player` answers this node."""
    if node is None or player not in waiting_for(table.agenda):
        return False
    return not (node["action"] in deadlines.MAIN_TURN_ACTIONS and nmr == "wait")


def nmr_pass(node: dict[str, object], nmr: str) -> bool:
    """Whether a main turn times out under the NMR policy `skip`: its default passes the turn
    with no action, which is the moderator's sanction and not a line a player could write (D1
    binds players; ruling R-701). Every other default must be one of the legal answers."""
    return node["action"] in deadlines.MAIN_TURN_ACTIONS and nmr == "skip"


def apply_defaults(ruleset: Ruleset, table: Table, player: str, chance: Chance, *,
                   nmr: str = "skip", logged: Sequence[str] | None = None,
                   ) -> tuple[Table, list[str], list[Event]]:
    """Answer the player's pending decisions with their defaults, on a working copy. With
    `logged` (verify), each logged line must be the default of the decision it answered."""
    work, lines, events = table.copy(), list[str](), list[Event]()
    while len(lines) < (_MAX_STEPS if logged is None else len(logged)):
        node = next_pending(work.agenda)
        if not governed(node, player, nmr, work):
            if logged is None:
                break
            raise ValueError(f"'{logged[len(lines)]}' answers no decision of {player}")
        assert node is not None
        action = ruleset.actions[node["action"]]
        here = asked(node, player)
        options = action.options(work, here)
        default = action.default(work, here, options)
        if default not in options and not nmr_pass(node, nmr):
            legal = ", ".join(o.line for o in options)
            raise ValueError(f"the default '{default.line}' is not a legal answer to "
                             f"{node['action']} (legal: {legal})")
        if logged is not None and logged[len(lines)] != default.line:
            raise ValueError(f"'{logged[len(lines)]}' is not the default '{default.line}'")
        if sealing.is_committing(node) and player in node["seals"]:
            node["forfeit"] = sorted({*node.get("forfeit", []), player})  # sealed, never opened
        # The default is applied as a choice, not parsed as a line: an NMR "skip" passes the
        # turn with no action, which D1 does not let a player choose (ruling R-701).
        events += answer(ruleset, work, default, chance, player)
        events += run_automatic(ruleset, work, chance)
        ruleset.check_invariants(work)
        lines.append(default.line)
        if is_parallel(node) and logged is None:
            break  # one answer to a simultaneous decision; what follows has its own clock
    return work, lines, events


