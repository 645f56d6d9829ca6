"""Ops (E4, F1-F9), the out-of-turn tax response, and victory declarations (E6, L3-L6).

`ACTIONS` lists the decision handlers this package adds; `VERBS` the order words they read.
"""

from __future__ import annotations

from engine.core.ruleset import Action

ACTIONS: list[Action] = []
VERBS: tuple[str, ...] = ()
