"""What a player who owns nothing may see of an Age of Renaissance state (aor-pbem 5): hands
and the deck as counts. A moderated game's file holds this projection; the whole state stays
with the moderator."""

from __future__ import annotations

import copy
from typing import Any

from engine.aor.deck import chance_labeler, held_labels
from engine.aor.model import add_to_hand
from engine.core.chance import Chance

PLACEHOLDER = "?"


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """The state without hands, standing answers or the deck's contents (their sizes stay)."""
    public: dict[str, Any] = {}
    for key, value in state.items():  # a fresh copy, in the state's key order
        if key == "players":
            public[key] = {pid: _public_player(data) for pid, data in value.items()}
        elif key != "deck":
            public[key] = plain_copy(value)
    public["deck_size"] = len(state["deck"])
    return public


def _public_player(data: dict[str, Any]) -> dict[str, Any]:
    """A player's record without the hand or standing answers (strategy, aor-pbem 4.4, 5.1)."""
    shown = {key: plain_copy(value) for key, value in data.items()
             if key != "hand" and key != "standing"}
    shown["hand_size"] = len(data["hand"])
    return shown


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (what a state is: dicts, lists and scalars), several times
    faster than copy.deepcopy, which also keeps track of shared and cyclic objects."""
    kind = type(value)
    if kind is dict:
        return {key: plain_copy(item) for key, item in value.items()}
    if kind is list:
        return [plain_copy(item) for item in value]
    if kind in (str, int, bool, float, type(None)):
        return value
    return copy.deepcopy(value)


def viewable(state: dict[str, Any]) -> dict[str, Any]:
    """A public state in the engine's shape, hidden cards as placeholders (for status and the
    public report, which read only sizes)."""
    shaped: dict[str, Any] = plain_copy(state)
    for data in shaped["players"].values():
        data["hand"] = {f"{PLACEHOLDER}{i}": PLACEHOLDER for i in range(data.pop("hand_size"))}
    shaped["deck"] = [PLACEHOLDER] * int(shaped.pop("deck_size"))
    return shaped


def redeal(state: dict[str, Any], viewer: str, chance: Chance) -> dict[str, Any]:
    """A whole state holding only what `viewer` may know (a sandbox fork, issue 24): their own
    hand and standing answers as they are; the cards they cannot see, the deck and every other
    hand (a pool each player can count from the public piles, aor-pbem 5), shuffled by `chance`
    and dealt back in the same sizes under new labels from `chance`; other players' standing
    answers dropped (they are strategy, 5.1)."""
    whole = copy.deepcopy(state)
    others = [pid for pid in sorted(whole["players"]) if pid != viewer]
    pool = sorted([*whole["deck"], *(card for pid in others
                                      for card in whole["players"][pid]["hand"].values())])
    sizes = {pid: len(whole["players"][pid]["hand"]) for pid in others}
    for pid in others:
        whole["players"][pid]["hand"] = {}
        whole["players"][pid].pop("standing", None)
    whole["deck"] = pool
    for pid in others:
        for index in range(sizes[pid]):
            purpose = f"redeal {pid} {index + 1}"
            card = chance.pick(purpose, whole["deck"])
            whole["deck"].remove(card)
            label = chance_labeler(whole, chance)(purpose, held_labels(whole))  # after the pick
            add_to_hand(whole, pid, card, label)
    return whole


def seat_view(state: dict[str, Any], seat: str) -> dict[str, Any]:
    """What `seat` may see, in the engine's shape: the public state with hidden cards as
    placeholders (`viewable`), but the seat's own hand and standing answers as they are (the
    position a bot reasons on, pbem.play.bot)."""
    shaped = viewable(public_state(state))
    own = state["players"][seat]
    shaped["players"][seat]["hand"] = copy.deepcopy(own["hand"])
    if "standing" in own:
        shaped["players"][seat]["standing"] = copy.deepcopy(own["standing"])
    return shaped
