"""True one-offs: behaviour printed on a single card that no rule site can ask about.

Keyed by (card id, aspect). Every Pax Renaissance ability, op and one-shot is served by a rule
site (`has_ability`) or a handler with parameters from the data, so the list is empty; a test
(tests/engine/test_overrides.py) pins it, so each addition is a reviewed decision
(architecture.md section 5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Override = Callable[..., Any]

OVERRIDES: dict[tuple[str, str], Override] = {}


def override(card_id: str, aspect: str) -> Override | None:
    """The one-off for a card's aspect, if it has one."""
    return OVERRIDES.get((card_id, aspect))
