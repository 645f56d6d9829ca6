"""Report models: what each reader may see, assembled for the templates (pbem.views.report)."""

from __future__ import annotations

from typing import Any

from engine.core import sealing
from engine.core.adjudicate import options_now
from engine.core.agenda import next_pending
from engine.core.table import Table
from pbem.orders.orderblock import BEGIN, END
from pbem.pipeline.service import decision_of
from pbem.rulesets import table_of
from pbem.store import hidden
from pbem.store.gamefile import GameFile, current_hash, fingerprint
from pbem.views import aor_views


def skeleton(gf: GameFile, player: str) -> str:
    """A ready-to-sign block with the header filled in. It has no signature section, so a
    reply that quotes it never looks like a damaged signed block."""
    return "\n".join([
        BEGIN,
        f"game: {gf.game_id}",
        f"player: {player}",
        f"seq: {gf.seq}",
        f"state: {fingerprint(current_hash(gf))}",
        "",
        "# your orders here, one per line; then: pbem sign ORDERS --key KEY --game GAME.yaml",
        END,
    ]) + "\n"


def history_for(gf: GameFile, viewer: str | None) -> list[dict[str, Any]]:
    """What happened since the viewer's last block (the last entry only, for the public)."""
    entries = gf.log
    start = len(entries) - 1
    if viewer is not None:
        for index in range(len(entries) - 1, -1, -1):
            if entries[index].get("player") == viewer:
                start = index
                break
        else:
            start = 0
    return [
        {"seq": e["seq"], "player": e.get("player") or e["kind"], "texts": list(e["summary"])}
        for e in entries[start:]
    ]


def report_model(gf: GameFile, viewer: str | None) -> dict[str, Any]:
    if viewer is not None:
        hidden.require_whole(gf, "render a player's report")
    ruleset, table = table_of(gf)
    owed, decision = decision_of(gf)
    menu = None
    if viewer is not None and viewer in owed:
        lines = [c.line for c in options_now(ruleset, table, viewer)]
        node = next_pending(table.agenda)
        if sealing.is_committing(node) and node is not None and sealing.stage(node) == "open":
            lines = []  # only the opening made by `pbem sign --open` applies now
        menu = {"player": viewer, "decision": decision, "lines": lines,
                "skeleton": skeleton(gf, viewer)}
    view = ruleset.view_for(table, viewer)
    extra: dict[str, Any] = {}
    if gf.game["ruleset"] == "aor":
        extra["aor"] = aor_model(gf, table, view, viewer)
    return {
        "header": {
            "game": gf.game_id, "ruleset": gf.game["ruleset"], "seq": gf.seq,
            "state": fingerprint(current_hash(gf)), "options": dict(gf.game["options"]),
            "players": [{"id": p["id"], "name": p["name"]} for p in gf.roster["players"]],
        },
        "viewer": viewer,
        "view": view,
        "history": history_for(gf, viewer),
        "waiting_for": owed,
        "decision": decision,
        "menu": menu,
        **extra,
    }


def aor_model(gf: GameFile, table: Table, view: dict[str, Any],
              viewer: str | None) -> dict[str, Any]:
    """Age of Renaissance rows for templates/aor: the viewer's hand, or every hand in an open
    game (anyone can compute them from the seed there)."""
    open_game = gf.randomness.get("mode") == "open"
    players = table.state["players"]
    shown = [p for p in players if open_game or p == viewer]
    hands = {p: dict(players[p]["hand"]) for p in shown if isinstance(players[p].get("hand"), dict)}
    return aor_views.display(table.catalog, view, hands, open_game)
