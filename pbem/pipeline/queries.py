"""What a game asks now: who must act, on what, and with which legal lines (read-only)."""

from __future__ import annotations

from typing import Any

from engine.core import sealing
from engine.core.adjudicate import options_now
from engine.core.agenda import is_parallel, next_pending, waiting_for
from pbem.errors import UsageError
from pbem.pipeline.game import Game
from pbem.store.gamefile import current_hash, fingerprint


def decision_of(game: Game) -> tuple[list[str], str]:
    """Who owes the pending decision and what they are asked (the public agenda says so)."""
    node = next_pending(game.gf.agenda)
    if node is None:
        return [], ""
    return waiting_for(game.gf.agenda), game.ruleset.actions[node["action"]].decision


def legal_lines(game: Game, player: str | None = None) -> dict[str, Any]:
    """The legal lines of `player` (default: the first player owed) for the next decision."""
    game.require_whole("list options")
    gf = game.gf
    table = game.table()
    owed, decision = decision_of(game)
    if player is not None and player not in gf.player_ids():
        raise UsageError(f"unknown player '{player}'; players: {', '.join(gf.player_ids())}")
    who = player if player is not None else (owed[0] if owed else None)
    data: dict[str, Any] = {
        "seq": gf.seq, "state": fingerprint(current_hash(gf)),
        "player": who, "decision": decision if who in owed else "",
        "lines": [c.line for c in options_now(game.ruleset, table, who)] if who in owed else [],
    }
    node = next_pending(table.agenda)
    if sealing.is_committing(node) and who in owed:
        # Commit and reveal: no plain line applies; these are the lines one may seal.
        assert node is not None
        data["sealing"] = sealing.stage(node)
        data["seal_lines"], data["lines"] = data["lines"], []
    return data


def status(game: Game) -> dict[str, Any]:
    gf = game.gf
    owed, decision = decision_of(game)
    turn = gf.state.get("turn")
    data = {
        "game": gf.game_id, "ruleset": gf.game["ruleset"], "seq": gf.seq,
        "state": fingerprint(current_hash(gf)), "over": bool(gf.state.get("over")),
        "winners": list(gf.state.get("winners", [])), "result": gf.state.get("result"),
        "waiting_for": owed, "decision": decision,
        "turn": turn.get("number") if isinstance(turn, dict) else turn,
    }
    node = next_pending(gf.agenda)
    if node is not None and is_parallel(node):
        data["sealed"] = bool(node.get("sealed"))
        data["received"] = sorted(node.get("answers", {}))
        if sealing.is_committing(node):
            data["sealing"] = sealing.stage(node)
            data["received"] = sorted(set(node["seals"]) | set(node.get("answers", {})))
            data["opened"] = sorted(node.get("answers", {}))
    return data
