"""A game in play: the ruleset's plain-data state, the agenda, and the static catalog."""

from __future__ import annotations

import marshal
import pickle
import re
from typing import Any

from engine.core.agenda import Node
from engine.core.records import dataclass_on_first_use

Event = dict[str, Any]

# A message id: dotted lower-case words ("pax.buy.card").
_MESSAGE_ID = re.compile(r"^[a-z0-9_]+(?:\.[a-z0-9_]+)+$")


def event(msg: str, *, kind: str = "info", visible_to: list[str] | None = None,
          **args: Any) -> Event:
    """A thing that happened, as data: a message id of the ruleset's catalog (engine.core.words)
    and its arguments (strings, numbers, booleans and lists of them). `kind` groups events for
    counting (oneshot:x, op:x, ability:x, battle...). `visible_to` None means everyone may see it.
    Words never enter an event: a catalog renders it at the edge."""
    if not _MESSAGE_ID.match(msg):
        raise ValueError(f"an event names a message id, not words: {msg!r}")
    data: Event = {"kind": kind, "msg": msg}
    if args:
        data["args"] = args
    if visible_to is not None:
        data["visible_to"] = sorted(visible_to)
    return data


@dataclass_on_first_use()
class Table:
    state: dict[str, Any]
    agenda: list[Node]
    catalog: Any

    def copy(self) -> Table:
        """A working copy: rules mutate it freely and it is thrown away on any rule error."""
        # A marshal round trip copies plain data a third faster than pickle (which is three
        # times faster than deepcopy); marshal refuses anything but exact built-in types.
        both = (self.state, self.agenda)
        try:
            state, agenda = marshal.loads(marshal.dumps(both))
        except ValueError:
            state, agenda = pickle.loads(pickle.dumps(both, protocol=5))
        return Table(state, agenda, self.catalog)
