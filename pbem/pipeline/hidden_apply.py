"""`apply` for a moderated Age of Renaissance game (pbem.store.hidden): the moderator's run, with the
whole state from the secrets file. The game file gets the public state; private draws are
logged masked; a sealed answer is logged as a commitment and its block kept in the secrets
file until the last one arrives, when an `unseal` entry publishes every block and salt and the
answers resolve together. The secrets file is written before the game file, so a crash between
the two loses nothing (a stale cache is rebuilt from the log)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from engine.core.adjudicate import adjudicate
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.chance import SeededChance
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Event, Table, event
from pbem.errors import OrdersRejected
from pbem.orders.orderblock import OrderBlock, find_blocks
from pbem.pipeline.hidden_replay import public_summary, split_sealed, timed_out, unseal_note
from pbem.pipeline.service import Applied, EngineBug, authenticate, check_turn, choose_block, resigns
from pbem.rulesets import table_of
from pbem.store import gamefile, hidden
from pbem.store.gamefile import GameFile, current_hash
from pbem.store.hidden import Secrets, commitment, mask_draws, public_hash, seal_salt


def apply_hidden(path: Path, gf: GameFile, text: str, *, dry_run: bool = False) -> Applied:
    """The pipeline of pbem.pipeline.service.apply_text on the whole state; writes both files unless
    `dry_run`. The caller holds the game's lock."""
    hidden.attach(path, gf, required=True)
    secrets = hidden.load_secrets(path, gf)
    assert secrets is not None  # attach succeeded
    block, note = choose_block(gf, find_blocks(text))
    player = authenticate(gf, block)
    ruleset, table = table_of(gf)
    check_turn(gf, table, player, resigning=resigns(block))
    node = next_pending(table.agenda)
    chance = SeededChance(secrets.seed, gf.game_id, int(table.state["draws"]))
    try:
        outcome = adjudicate(ruleset, table, player,
                             [(line.number, line.text) for line in block.lines], chance)
    except RuleError as error:
        raise OrdersRejected(error.message()) from None
    except InvariantViolation as error:
        raise EngineBug(f"internal error (a pbem bug; the game file is unchanged): "
                             f"{error}") from None
    work = outcome.table
    work.state["draws"] = int(table.state["draws"]) + len(chance.draws)
    events = outcome.events
    if node is not None and node.get("sealed"):
        note = _log_sealed(gf, secrets, table, work, node, player, block, outcome.events,
                           mask_draws(chance.draws))
        if note:
            events = [*split_first(events), event(note, kind="unseal"), *split_rest(events)]
    else:
        entry: dict[str, Any] = {
            "seq": gf.seq + 1, "kind": "orders", "player": player, "block": block.text,
            "payload_sha256": hashlib.sha256(block.payload()).hexdigest(),
            "draws": mask_draws(chance.draws), "prev_state": current_hash(gf),
            "post_state": public_hash(gf.game, gf.seq + 1, work.state, work.agenda),
            "summary": public_summary(outcome.events)}
        if node is not None and is_parallel(node):
            entry["node"] = node["id"]
        _advance(gf, entry, work)
    if not dry_run:
        secrets.cache = hidden.cache_of(gf)
        hidden.write_secrets(hidden.secrets_path(path, gf), secrets)
        gamefile.write_atomic(path, gamefile.dump_text(gf))
    return Applied(gf, player, events, note)


def split_first(events: list[Event]) -> list[Event]:
    return [e for e in events if e.get("kind") in ("sealed", "sealed_answer")]


def split_rest(events: list[Event]) -> list[Event]:
    return [e for e in events if e.get("kind") not in ("sealed", "sealed_answer")]


def _advance(gf: GameFile, entry: dict[str, Any], work: Table) -> None:
    gf.seq = int(entry["seq"])
    hidden.set_public(gf, work.state, work.agenda)
    if entry["post_state"] != current_hash(gf):
        raise EngineBug("internal error: the public state hash does not match")
    gf.log.append(entry)


def _log_sealed(gf: GameFile, secrets: Secrets, before: Table, work: Table,
                node: dict[str, Any], player: str, block: OrderBlock, events: list[Event],
                draws: list[dict[str, object]]) -> str:
    """A sealed answer: its commitment now; the last one also unseals every answer (and
    returns the public line that opens them)."""
    salt = seal_salt(secrets.seed, gf.game_id, node["id"], player)
    last = waiting_for(before.agenda) == [player]
    sealed = {"seq": gf.seq + 1, "kind": "orders", "sealed": True, "player": player,
              "node": node["id"], "commitment": commitment(salt, block.payload()),
              "draws": [], "prev_state": current_hash(gf)}
    stored = dict(secrets.sealed.get(node["id"], {}))
    stored[player] = block.text
    if not last:
        sealed.update(post_state=public_hash(gf.game, gf.seq + 1, work.state, work.agenda),
                      summary=public_summary(events))
        secrets.sealed[node["id"]] = stored
        _advance(gf, sealed, work)
        return ""
    middle = before.copy()
    waiting = middle.agenda[0]
    waiting["answers"] = dict(sorted({**waiting["answers"], player: hidden.RECEIVED}.items()))
    noted, resolved = split_sealed(events)
    sealed.update(post_state=public_hash(gf.game, gf.seq + 1, middle.state, middle.agenda),
                  summary=noted)
    _advance(gf, sealed, middle)
    unseal = {"seq": gf.seq + 1, "kind": "unseal", "node": node["id"], "last": player,
              "blocks": stored,
              "salts": {p: seal_salt(secrets.seed, gf.game_id, node["id"], p).hex()
                        for p in sorted(stored)},
              "draws": draws, "prev_state": current_hash(gf),
              "post_state": public_hash(gf.game, gf.seq + 1, work.state, work.agenda),
              "summary": [unseal_note(stored, timed_out(gf.log, node["id"])), *resolved]}
    secrets.sealed.pop(node["id"], None)
    _advance(gf, unseal, work)
    return str(unseal["summary"][0])


def timeout_hidden(path: Path, gf: GameFile, player: str, entry_base: dict[str, Any],
                   nmr: str) -> tuple[list[str], list[str]]:
    """`pbem timeout` in a moderated game: the player's defaults on the whole state, logged like
    a block (masked draws, the public state hash). A default that is the last answer to a
    sealed decision is followed by an `unseal` entry publishing the others' blocks, as a last
    sealed block would be. Writes both files; returns the lines applied and the summary."""
    from pbem.delivery.deadlines import apply_defaults, timeout_note

    hidden.attach(path, gf, required=True)
    secrets = hidden.load_secrets(path, gf)
    assert secrets is not None  # attach succeeded
    ruleset, table = table_of(gf)
    node = next_pending(table.agenda)
    chance = SeededChance(secrets.seed, gf.game_id, int(table.state["draws"]))
    sealed = node is not None and bool(node.get("sealed"))
    last = sealed and waiting_for(table.agenda) == [player]
    work, lines, events = apply_defaults(ruleset, table, player, chance, nmr=nmr,
                                         one=sealed)
    work.state["draws"] = int(table.state["draws"]) + len(chance.draws)
    entry: dict[str, Any] = {"seq": gf.seq + 1, "kind": "timeout", "player": player,
                             **entry_base, "lines": lines, "prev_state": current_hash(gf)}
    if node is not None and is_parallel(node):
        entry["node"] = node["id"]
    if not last:
        entry.update(draws=mask_draws(chance.draws),
                     post_state=public_hash(gf.game, gf.seq + 1, work.state, work.agenda),
                     summary=[timeout_note(player, lines), *public_summary(events)])
        _advance(gf, entry, work)
    else:
        assert node is not None
        middle = table.copy()
        middle.agenda[0]["answers"] = dict(sorted(
            {**middle.agenda[0]["answers"], player: hidden.RECEIVED}.items()))
        noted, resolved = split_sealed(events)
        entry.update(draws=[], summary=[timeout_note(player, lines), *noted],
                     post_state=public_hash(gf.game, gf.seq + 1, middle.state, middle.agenda))
        _advance(gf, entry, middle)
        stored = dict(secrets.sealed.get(node["id"], {}))
        unseal = {"seq": gf.seq + 1, "kind": "unseal", "node": node["id"], "last": player,
                  "last_default": lines[0], "blocks": stored,
                  "salts": {p: seal_salt(secrets.seed, gf.game_id, node["id"], p).hex()
                            for p in sorted(stored)},
                  "draws": mask_draws(chance.draws), "prev_state": current_hash(gf),
                  "post_state": public_hash(gf.game, gf.seq + 1, work.state, work.agenda),
                  "summary": [unseal_note(stored, timed_out(gf.log, node["id"])), *resolved]}
        secrets.sealed.pop(node["id"], None)
        _advance(gf, unseal, work)
    secrets.cache = hidden.cache_of(gf)
    hidden.write_secrets(hidden.secrets_path(path, gf), secrets)
    gamefile.write_atomic(path, gamefile.dump_text(gf))
    return lines, [text for e in gf.log[-2 if last else -1:] for text in e["summary"]]
