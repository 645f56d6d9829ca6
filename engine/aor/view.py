"""What one player may see (architecture 7, aor-pbem 5): everything public, hand sizes for
every hand, the viewer's own hand with its labels, and of a sealed or parallel decision only who
has answered (the viewer also sees their own answer). Deck contents are never shown."""

from __future__ import annotations

from typing import Any

from engine.aor.catalog import Catalog
from engine.core import sealing
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.table import Table

PUBLIC_PLAYER = ("cash", "recorded_cash", "misery", "stock", "purchased", "fleet", "advances",
                 "new_advances", "capital", "eliminated")
PUBLIC_STATE = ("turn", "phase", "epoch", "players_at_start", "seats", "order",
                "capital_choosers", "provinces", "markets", "reusable", "removed", "obsolete",
                "wars", "round", "options", "over", "winners", "result")


def view_for(t: Table, viewer: str | None) -> dict[str, Any]:
    catalog: Catalog = t.catalog
    state = t.state
    view: dict[str, Any] = {key: state[key] for key in PUBLIC_STATE if key in state}
    view["viewer"] = viewer
    view["deck_size"] = len(state["deck"])
    view["epoch_piles"] = {epoch: len(cards) for epoch, cards in sorted(state["epochs"].items())}
    view["set_aside_size"] = len(state["set_aside"])
    if "capital_queue" in state:
        view["capital_queue"] = list(state["capital_queue"])
    players: dict[str, Any] = {}
    for pid, data in sorted(state["players"].items()):
        shown = {key: data[key] for key in PUBLIC_PLAYER}
        shown["hand_size"] = len(data["hand"])
        if pid == viewer:
            shown["hand"] = {label: {"card": card, "name": catalog.cards[card].name}
                             for label, card in sorted(data["hand"].items())}
        players[pid] = shown
    view["players"] = players
    view["pending"] = pending(t, viewer)
    return view


def pending(t: Table, viewer: str | None) -> dict[str, Any] | None:
    node = next_pending(t.agenda)
    if node is None:
        return None
    shown: dict[str, Any] = {"id": node["id"], "action": node["action"],
                             "waiting_for": waiting_for(t.agenda)}
    if is_parallel(node):
        answers = node.get("answers", {})
        shown.update(players=list(node["players"]), sealed=bool(node.get("sealed")),
                     answered=sorted(answers))
        if sealing.is_committing(node):  # commit and reveal: who has sealed, who has opened
            shown.update(commit=sealing.stage(node), opened=sorted(answers),
                         answered=sorted(set(node["seals"]) | set(answers)))
        if viewer in answers:
            shown["your_answer"] = answers[viewer]
    else:
        shown.update(player=node["player"], args=dict(node["args"]))
    return shown
