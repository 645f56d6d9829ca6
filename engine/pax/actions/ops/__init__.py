"""Ops (E4, F1-F9), the out-of-turn tax response, and victory declarations (E6, L3-L6).

`ACTIONS` lists the decision handlers this package adds; `VERBS` the order words they read.
One module per op family: religious (inquisitor), political (commerce, behead, repress, vote),
tax (the tax op, the owner's answer and standing answers), military (corsair, siege,
campaign); `node` holds the `ops` action and its decision.
"""

from __future__ import annotations

from engine.core.ruleset import Action
from engine.pax.actions.ops.borrow import Borrow
from engine.pax.actions.ops.node import Ops
from engine.pax.actions.ops.tax import TaxLevy, TaxResponse

ACTIONS: list[Action] = [Ops(), TaxResponse(), TaxLevy(), Borrow()]
VERBS: tuple[str, ...] = ("standing",)
