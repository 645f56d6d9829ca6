"""The end of the game (11, 11.2; ruling R30): scores and winners."""

from __future__ import annotations

from engine.aor.advances import advance_value
from engine.aor.catalog import Catalog
from engine.aor.model import State, player


def score(catalog: Catalog, state: State, pid: str) -> int:
    """11.2: the value (printed cost) of the Advances owned, plus cash, less the misery space."""
    data = player(state, pid)
    return advance_value(catalog, state, pid) + int(data["cash"]) - int(data["misery"])


def standings(catalog: Catalog, state: State) -> list[tuple[str, int]]:
    """Players still in the game, best score first (ties by id, for a stable listing)."""
    scored = [(pid, score(catalog, state, pid)) for pid in state["players"]
              if not player(state, pid)["eliminated"]]
    return sorted(scored, key=lambda entry: (-entry[1], entry[0]))


def winners(catalog: Catalog, state: State) -> list[str]:
    """The best score wins; tied scores share the win (R30)."""
    table = standings(catalog, state)
    return [pid for pid, points in table if points == table[0][1]] if table else []


def all_advances_owned(catalog: Catalog, state: State) -> list[str]:
    """11: players who own all 26 Advances (the game ends at the end of this turn)."""
    return sorted(p for p, data in state["players"].items() if not data["eliminated"]
                  and len(data["advances"]) + len(data["new_advances"]) == len(catalog.advances))
