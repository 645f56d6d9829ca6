"""What the game file may hold: the whole state, or in a moderated game with hidden
information its public projection (pbem.store.secrets keeps the rest).

A `Projection` turns the whole state into what the file holds and masks draws a reader may not
see. Open games, and games whose rules hide nothing (Pax Renaissance: cards come from the open
market, only the seed is secret), keep everything: `WHOLE`. A moderated game whose ruleset has
`hidden_information` keeps hands and the deck as counts, sealed answers as "received", and
private draws as `{n, purpose, to, outcome: hidden}`: `HIDDEN`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from engine.core.chance import Draw
from engine.core.records import dataclass_on_first_use
from engine.core.ruleset import Ruleset
from pbem.store.gamefile import GameFile, state_hash

RECEIVED = "received"
HIDDEN = "hidden"


def public_agenda(agenda: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sealed answers show only that they were received."""
    nodes = copy.deepcopy(list(agenda))
    for node in nodes:
        if node.get("sealed"):
            node["answers"] = {p: RECEIVED for p in node.get("answers", {})}
    return nodes


@dataclass_on_first_use(frozen=True)  # start-up: no dataclass is made to read a game
class Projection:
    hidden: bool  # the file holds a projection; the whole state is the moderator's

    def state(self, ruleset: Ruleset, state: dict[str, Any]) -> dict[str, Any]:
        return ruleset.public_state(state) if self.hidden else state

    def agenda(self, agenda: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return public_agenda(agenda) if self.hidden else agenda

    def hash(self, ruleset: Ruleset, game: dict[str, Any], seq: int, state: dict[str, Any],
             agenda: list[dict[str, Any]]) -> str:
        """The state hash of what the file will hold for this whole state."""
        if not self.hidden:
            return state_hash(game, seq, state, agenda)
        return state_hash(game, seq, self.state(ruleset, state), self.agenda(agenda))

    def draws(self, ruleset: Ruleset, draws: Sequence[Draw]) -> list[dict[str, object]]:
        """Draws as logged: in full, or private ones masked to whom they went."""
        shown: list[dict[str, object]] = []
        for draw in draws:
            seen = ruleset.draw_audience(draw.purpose) if self.hidden else None
            if seen is None:
                shown.append(draw.to_data())
            else:
                shown.append({"n": draw.n, "purpose": draw.purpose, "to": seen,
                              "outcome": HIDDEN})
        return shown


WHOLE = Projection(hidden=False)
HIDDEN_PROJECTION = Projection(hidden=True)


def projection_for(ruleset: Ruleset, gf: GameFile) -> Projection:
    hidden = ruleset.hidden_information and gf.randomness.get("mode") == "moderated"
    return HIDDEN_PROJECTION if hidden else WHOLE
