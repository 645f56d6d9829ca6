"""One-shots (E2.1, H-K): trade shift, coronation, civil wars, religious wars, apostasy.

`ACTIONS` lists the decision handlers this package adds; `VERBS` the order words they read.
"""

from __future__ import annotations

from engine.core.ruleset import Action

ACTIONS: list[Action] = []
VERBS: tuple[str, ...] = ()
