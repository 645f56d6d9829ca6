"""What a player who owns nothing may see of an Age of Renaissance state (aor-pbem 5): hands
and the deck as counts. A moderated game's file holds this projection; the whole state stays
with the moderator."""

from __future__ import annotations

import copy
from typing import Any

PLACEHOLDER = "?"


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """The state without hands, standing answers or the deck's contents (their sizes stay)."""
    public = copy.deepcopy(state)
    for data in public["players"].values():
        data["hand_size"] = len(data.pop("hand"))
        data.pop("standing", None)  # strategy (aor-pbem 4.4, 5.1)
    public["deck_size"] = len(public.pop("deck"))
    return public


def viewable(state: dict[str, Any]) -> dict[str, Any]:
    """A public state in the engine's shape, hidden cards as placeholders (for status and the
    public report, which read only sizes)."""
    shaped = copy.deepcopy(state)
    for data in shaped["players"].values():
        data["hand"] = {f"{PLACEHOLDER}{i}": PLACEHOLDER for i in range(data.pop("hand_size"))}
    shaped["deck"] = [PLACEHOLDER] * int(shaped.pop("deck_size"))
    return shaped
