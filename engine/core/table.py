"""A game in play: the ruleset's plain-data state, the agenda, and the static catalog."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

from engine.core.agenda import Node

Event = dict[str, Any]


def event(text: str, *, kind: str = "info", visible_to: list[str] | None = None) -> Event:
    """A thing that happened, in plain words; `visible_to` None means everyone may see it."""
    data: Event = {"kind": kind, "text": text}
    if visible_to is not None:
        data["visible_to"] = sorted(visible_to)
    return data


@dataclass
class Table:
    state: dict[str, Any]
    agenda: list[Node]
    catalog: Any

    def copy(self) -> Table:
        """A working copy: rules mutate it freely and it is thrown away on any rule error."""
        # A pickle round trip copies plain data about three times faster than deepcopy.
        state, agenda = pickle.loads(pickle.dumps((self.state, self.agenda), protocol=5))
        return Table(state, agenda, self.catalog)
