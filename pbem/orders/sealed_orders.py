"""`pbem sign --seal LINE` and `pbem sign --open`: the player's half of commit and reveal in an
open game (engine.core.sealing).

Sealing checks the line against the game file, draws a 32-byte nonce and writes the opening
(line and nonce) beside the player's key, mode 0600; the block to send holds only `seal HEX`.
Opening reads it back once every seal is in. Lose the opening file and the seal cannot be
opened: the timeout then gives the default and puts the player last. Until every seal is in a
player may seal again; the newer seal replaces the earlier one, and its opening file too.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.core import sealing
from engine.core.adjudicate import asked, options_now
from engine.core.agenda import Node, next_pending, waiting_for
from engine.core.choice import match_line
from engine.core.errors import IllegalOrder, RuleError
from pbem.errors import OrdersRejected, UsageError
from pbem.orders.signatures import load_private_key, parse_public_key
from pbem.pipeline.game import table_of
from pbem.pipeline.seals import withdraw
from pbem.store import gamefile
from pbem.store.gamefile import GameFile


def _player_of(gf: GameFile, key_path: Path) -> str:
    raw = load_private_key(key_path).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    for entry in gf.roster["players"]:
        if parse_public_key(entry["key"]).raw == raw:
            return str(entry["id"])
    raise UsageError(f"{key_path.name} is not the key of any player in this game")


def _committing_node(gf: GameFile, player: str, stage: str) -> Node:
    node = next_pending(gf.agenda)
    if not sealing.is_committing(node):
        hint = (" (a moderated game: send the plain line to the moderator)"
                if gf.randomness.get("mode") == "moderated" else "")
        raise UsageError(f"no decision is waiting to be sealed by commit and reveal{hint}")
    assert node is not None
    if sealing.stage(node) != stage:
        now = ("every seal is in: open yours with pbem sign --open" if stage == sealing.SEAL
               else "seals are still awaited: nothing can be opened yet")
        raise UsageError(now)
    resealing = stage == sealing.SEAL and player in node["seals"]  # a newer seal replaces it
    if player not in waiting_for(gf.agenda) and not resealing:
        raise UsageError(f"{player} owes no {stage} now; waiting for "
                         f"{', '.join(waiting_for(gf.agenda))}")
    return node


def opening_path(key_path: Path, game_id: str, node_id: str) -> Path:
    return key_path.with_name(f"{key_path.stem}.{game_id}.{node_id}.opening")


def seal_orders(game_path: Path, key_path: Path, line: str) -> str:
    """The orders text `seal HEX` for a legal line; the opening is kept beside the key."""
    gf = gamefile.load(game_path)
    player = _player_of(gf, key_path)
    node = _committing_node(gf, player, sealing.SEAL)
    ruleset, table = table_of(gf)
    if player in node["seals"]:  # sealing again: the legal lines as if it had not sealed
        table = table.copy()
        pending = next_pending(table.agenda)
        assert pending is not None
        withdraw(pending, player)
    options = options_now(ruleset, table, player)
    try:
        choice = match_line(line, options, ruleset.namer(table), ruleset.verbs)
    except RuleError as error:
        # As for a block line: quote the line and say why, as the rules explain it.
        why = ruleset.actions[node["action"]].explain(table, asked(node, player), line)
        if isinstance(error, IllegalOrder) and why is not None:
            error = IllegalOrder(why, options=error.options)
        raise OrdersRejected.from_rule(error.located(line, None)) from None
    nonce = secrets.token_hex(32)
    seal = sealing.seal_of(node["id"], player, choice.line, nonce)
    opening = {"game": gf.game_id, "node": node["id"], "player": player, "line": choice.line,
               "nonce": nonce, "seal": seal}
    path = opening_path(key_path, gf.game_id, node["id"])
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(opening, handle, indent=1)
        handle.write("\n")
    return f"seal {seal}\n"


def open_orders(game_path: Path, key_path: Path) -> str:
    """The orders text `open LINE nonce HEX` from the opening kept when sealing."""
    gf = gamefile.load(game_path)
    player = _player_of(gf, key_path)
    node = _committing_node(gf, player, sealing.OPEN)
    path = opening_path(key_path, gf.game_id, node["id"])
    if not path.exists():
        raise UsageError(f"no opening {path.name} beside the key: it was written by "
                         "pbem sign --seal on the machine that sealed")
    opening: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if opening.get("seal") != node["seals"].get(player):
        raise UsageError(f"{path.name} does not hold the seal {player} sent")
    return f"open {opening['line']} nonce {opening['nonce']}\n"
