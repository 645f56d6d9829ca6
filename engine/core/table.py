"""A game in play: the ruleset's plain-data state, the agenda, and the static catalog."""

from __future__ import annotations

import pickle
import re
from dataclasses import dataclass
from typing import Any

from engine.core.agenda import Node

Event = dict[str, Any]

# A message id: dotted lower-case words ("buy.card"); anything else is legacy prose.
_MESSAGE_ID = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+)+$")


def event(msg: str, *, kind: str = "info", visible_to: list[str] | None = None,
          **args: Any) -> Event:
    """A thing that happened, as data: a message id of the ruleset's catalog (engine.core.words)
    and its arguments (strings, numbers, booleans and lists of them). `kind` groups events for
    counting (oneshot:x, op:x, ability:x, battle...). `visible_to` None means everyone may see it.

    Until every call site names a message id, plain prose is kept as `text` (rendered as is)."""
    data: Event = {"kind": kind}
    if _MESSAGE_ID.match(msg):
        data["msg"] = msg
        if args:
            data["args"] = args
    else:
        if args:
            raise TypeError(f"prose events take no arguments: {msg!r}")
        data["text"] = msg
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
