"""Standing answers (aor-pbem 4.4): an owner of Renaissance or Cathedral answers the out-of-turn
decisions those Advances raise once, and later ones answer themselves.

`players.<id>.standing` (absent when nothing stands) holds `renaissance`: the turn number for
"no swap for the rest of this turn" (`standing renaissance no`) or `"never"` for the rest of the
game (`standing renaissance never`); and `cathedral: "use"` (`standing cathedral use`: every
defence Cathedral may win is won with it). `standing renaissance ask` and `standing cathedral
ask` clear them. They are strategy, so the public projection leaves them out (aor-pbem 5.1).
"""

from __future__ import annotations

from engine.aor.model import State, player
from engine.aor.names import simple
from engine.core.choice import Choice
from engine.core.table import Event, event

RENAISSANCE_NO, RENAISSANCE_NEVER, RENAISSANCE_ASK = (
    simple("standing renaissance no"), simple("standing renaissance never"),
    simple("standing renaissance ask"))
CATHEDRAL_USE, CATHEDRAL_ASK = simple("standing cathedral use"), simple("standing cathedral ask")
LINES = tuple(c.line for c in (RENAISSANCE_NO, RENAISSANCE_NEVER, RENAISSANCE_ASK, CATHEDRAL_USE,
                               CATHEDRAL_ASK))
MESSAGES = {  # the line -> its event, told to the player alone
    RENAISSANCE_NO.line: "aor.standing.renaissance_no",
    RENAISSANCE_NEVER.line: "aor.standing.renaissance_never",
    RENAISSANCE_ASK.line: "aor.standing.renaissance_ask",
    CATHEDRAL_USE.line: "aor.standing.cathedral_use",
    CATHEDRAL_ASK.line: "aor.standing.cathedral_ask",
}


def _standing(state: State, pid: str) -> dict[str, object]:
    found: dict[str, object] = player(state, pid).get("standing", {})
    return found


def declines_swap(state: State, pid: str) -> bool:
    """Whether a standing answer declines the Renaissance swap now."""
    answer = _standing(state, pid).get("renaissance")
    return answer == "never" or answer == state["turn"]


def uses_cathedral(state: State, pid: str) -> bool:
    return _standing(state, pid).get("cathedral") == "use"


def clear_options(state: State, pid: str) -> list[Choice]:
    """The `ask` lines for the standing answers a player has (offered in their Play Cards turn)."""
    standing = _standing(state, pid)
    found = []
    if "renaissance" in standing:
        found.append(RENAISSANCE_ASK)
    if "cathedral" in standing:
        found.append(CATHEDRAL_ASK)
    return found


def is_standing(choice: Choice) -> bool:
    return choice.line in LINES


def set_standing(state: State, pid: str, choice: Choice) -> list[Event]:
    """Record (or clear) the standing answer a line names; its event is the player's own."""
    data = player(state, pid)
    standing = data.setdefault("standing", {})
    topic, answer = choice.line.split()[1:]
    if answer == "ask":
        standing.pop(topic, None)
    else:
        standing[topic] = {"no": state["turn"], "never": "never", "use": "use"}[answer]
    if not standing:
        del data["standing"]
    return [event(MESSAGES[choice.line], kind="standing", visible_to=[pid], player=pid)]
