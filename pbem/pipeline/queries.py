"""What a game asks now: who must act, on what, and with which legal lines (read-only)."""

from __future__ import annotations

from typing import Any

from engine.core import sealing
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.chance import NoChance, SeedNeeded
from engine.core.errors import InvariantViolation, RuleError
from pbem.errors import OrdersRejected, UsageError
from pbem.pipeline.game import Game
from pbem.store.gamefile import current_hash, fingerprint
from pbem.words import decision_phrase


def decision_of(game: Game) -> tuple[list[str], str]:
    """Who owes the pending decision and what they are asked (the public agenda says so)."""
    node = next_pending(game.gf.agenda)
    if node is None:
        return [], ""
    return waiting_for(game.gf.agenda), decision_phrase(game.ruleset.name, node["action"],
                                                        you=False)


def legal_lines(game: Game, player: str | None = None) -> dict[str, Any]:
    """The legal lines of `player` (default: the first player owed) for the next decision."""
    from engine.core.adjudicate import options_now  # start-up: `status` lists no lines

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


def check_lines(game: Game, player: str, lines: list[str]) -> str | None:
    """Refuse, before signing, lines the rules would reject now; None when they are legal (or
    when this run cannot tell: the hidden cards are the moderator's). A line that leads to a
    draw ends the check there, as the draw needs the seed."""
    from engine.core.adjudicate import adjudicate  # start-up: `status` checks no lines
    from pbem.orders.life_lines import is_life
    from pbem.orders.takeback_lines import is_takeback

    if not game.whole or not lines or any(is_life(line) or is_takeback(line) for line in lines):
        return None  # a line of life or a takeback answers no decision: apply checks it
    table = game.table()
    try:
        adjudicate(game.ruleset, table, player, list(enumerate(lines, start=1)), NoChance())
    except SeedNeeded:
        return None
    except RuleError as error:
        raise OrdersRejected.from_rule(error, " (to sign it anyway: --force)") from None
    except InvariantViolation:
        return None  # the engine's to explain at apply, not the signer's
    return None


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
    recent = game.recent()
    if any(entry.get("kind") == "takeback" for entry in recent):  # issue 24
        from pbem.pipeline.takeback_rules import open_request  # start-up: only when asked

        asked = open_request(recent)  # a takeback waiting for acceptances
        if asked is not None:
            data["takeback"] = asked
    return data
