"""Helpers for driving Age of Renaissance through the core: blocks sent with `adjudicate` as
pbem would send them (a fresh Chance per block, continuing the draw count), setup answered
line by line, and jumps to a phase with a chosen player to act."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.aor.actions.flow import PHASES, TURN_ACTION, reset_flow
from engine.aor.model import add_to_hand, player
from engine.aor.ruleset import AOR
from engine.core.adjudicate import Outcome, adjudicate, options_now
from engine.core.agenda import new_node, waiting_for
from engine.core.chance import SeededChance
from engine.core.table import Table
from tests.aor.helpers import aor

NAMES = ("ada", "ben", "cy", "dee", "eve", "fay")
SEED = b"aor-agenda"


def new_table(n: int = 3, seed: bytes = SEED, **options: object) -> Table:
    chance = SeededChance(seed, "g", 0)
    table, _ = AOR.setup(aor(), "g", NAMES[:n], dict(options), chance)
    table.state["draws"] = len(chance.draws)
    return table


def send(t: Table, who: str, *lines: str, seed: bytes = SEED) -> tuple[Outcome, SeededChance]:
    """One block through the core; the returned table's draw count moves on like pbem's."""
    chance = SeededChance(seed, "g", int(t.state["draws"]))
    out = adjudicate(AOR, t, who, list(enumerate(lines, start=1)), chance)
    out.table.state["draws"] = int(t.state["draws"]) + len(chance.draws)
    return out, chance


def play(t: Table, who: str, *lines: str) -> Table:
    return send(t, who, *lines)[0].table


def through_setup(n: int = 3, *, bids: Mapping[str, int] | None = None,
                  tokens: Mapping[str, int] | None = None) -> Table:
    """Setup answered plainly: each returns their first label, bids (default 0, 1, 2 ...),
    capitals in table order, token purchases (default 10 each)."""
    t = new_table(n)
    for pid in NAMES[:n]:
        t = play(t, pid, f"return {sorted(player(t.state, pid)['hand'])[0]}")
    for index, pid in enumerate(NAMES[:n]):
        t = play(t, pid, f"bid {(bids or {}).get(pid, index)}")
    while t.agenda[0]["action"] == "capital":
        who = t.agenda[0]["player"]
        t = play(t, who, options_now(AOR, t)[0].line)
    for pid in waiting_for(t.agenda):
        t = play(t, pid, f"tokens {(tokens or {}).get(pid, 10)}")
    return t


def at_phase(t: Table, phase: str, pid: str, rest: Sequence[str] = ()) -> Table:
    """Jump to `pid`'s turn in a per-player phase; `rest` are the players still to follow."""
    reset_flow(t, phase)
    t.state["flow"].update(index=PHASES[phase].index("players"), queue=list(rest))
    t.agenda[:] = [new_node(t.state, TURN_ACTION[phase], pid, final=phase == "final_play")]
    return t


def give(t: Table, pid: str, card: str) -> str:
    """Move a card from wherever it is into a hand; returns its new label."""
    state = t.state
    for zone in ("deck", "set_aside", "reusable", "removed"):
        if card in state[zone]:
            state[zone].remove(card)
    for cards in state["epochs"].values():
        if card in cards:
            cards.remove(card)
    for data in state["players"].values():
        for label, held in list(data["hand"].items()):
            if held == card:
                del data["hand"][label]
    state["next_label"] += 1
    label = f"h{state['next_label']}"
    add_to_hand(state, pid, card, label)
    return label
