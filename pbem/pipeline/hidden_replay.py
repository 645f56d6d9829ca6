"""Checking and replaying a moderated Age of Renaissance game (pbem.store.hidden).

`verify_public` needs only the game file: the hash chain, every signature and payload hash, the
envelope of each block, and every opened sealed block against its commitment. `replay_full`
needs the seed (the moderator's secrets file, or the reveal): it rebuilds the whole state from
the setup, checking each entry's public state hash, summary and (masked) draws.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.adjudicate import adjudicate, answer, asked, run_automatic
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import SeededChance
from engine.core.errors import InvariantViolation, RuleError
from engine.core.table import Event, Table
from pbem import words
from pbem.errors import CorruptGameError, PbemError, UsageError
from pbem.orders.orderblock import OrderBlock, find_blocks
from pbem.orders.signatures import parse_public_key, verify
from pbem.rulesets import catalog_for, ruleset_for, setup_seats
from pbem.store import gamefile
from pbem.store.gamefile import GameFile
from pbem.store.hidden import RECEIVED, commitment, mask_draws, public_hash, seal_salt


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


def one_block(seq: object, text: str) -> OrderBlock:
    blocks = find_blocks(text)
    if len(blocks) != 1:
        raise _bad(seq, "the stored block cannot be read")
    return blocks[0]


def public_summary(events: list[Event]) -> list[str]:
    return words.public_texts(events)


def split_sealed(events: list[Event]) -> tuple[list[str], list[str]]:
    """The last sealed answer's events: its own "answer is in" note, then the resolution."""
    public = [e for e in events if "visible_to" not in e]
    return ([words.say(e) for e in public if e.get("kind") == "sealed"],
            [words.say(e) for e in public if e.get("kind") != "sealed"])


def unseal_note(blocks: Mapping[str, str], defaults: Mapping[str, str] | None = None) -> str:
    """The public line of an `unseal` entry: every sealed answer, by player; answers a timeout
    gave are marked as defaults."""
    shown = {}
    for player, text in blocks.items():
        found = find_blocks(text)
        shown[player] = ", ".join(x.text for x in found[0].lines) if found else "?"
    for player, line in (defaults or {}).items():
        shown[player] = f"{line} (default, timed out)"
    return f"The sealed answers are opened: {'; '.join(f'{p}: {a}' for p, a in sorted(shown.items()))}."


def timed_out(log: Sequence[Mapping[str, Any]], node: str) -> dict[str, str]:
    """The default answers timeouts gave to a sealed node, by player."""
    return {str(e["player"]): str(e["lines"][0]) for e in log
            if e.get("kind") == "timeout" and e.get("node") == node and e.get("lines")}


# --- public checks ---------------------------------------------------------------------------


def _check_signed(gf: GameFile, seq: int, player: str, block: OrderBlock,
                  keys: Mapping[str, str], window: Mapping[int, str]) -> None:
    if player not in keys or (block.player or "").lower() != player:
        raise _bad(seq, f"player '{player}' does not match the roster or the block")
    if (block.game or "").lower() != gf.game_id.lower():
        raise _bad(seq, "the block is for another game")
    if block.seq is None or window.get(block.seq) != (block.state or "").lower():
        raise _bad(seq, "the block was not written against a state it may answer")
    try:
        verify(parse_public_key(keys[player]), block.payload(), block.signature or "")
    except PbemError as error:
        raise _bad(seq, f"bad signature: {error}") from None


def verify_public(gf: GameFile, keys: Mapping[str, str]) -> None:
    """Everything that can be checked without the seed; raises naming the first bad entry.
    A block answering a parallel node may be written against any state since the node opened
    where every entry since answered that node."""
    posts = [str(gf.log[0].get("post_state"))]
    run_node, run_start = "", 0
    commitments: dict[tuple[str, str], str] = {}
    for seq, entry in enumerate(gf.log[1:], start=1):
        if entry.get("seq") != seq:
            raise _bad(entry.get("seq"), f"expected seq {seq}")
        if entry.get("prev_state") != posts[-1]:
            raise _bad(seq, "prev_state does not chain to the entry before")
        kind, node = entry.get("kind"), str(entry.get("node") or "")
        if kind == "orders" and node != run_node:
            run_node, run_start = node, seq - 1
        if not node:
            run_node, run_start = "", seq - 1
        upto = seq - 1 if kind == "unseal" else seq
        window = {s: posts[s][:16] for s in range(run_start, upto)}
        player = str(entry.get("player"))
        if kind == "orders" and entry.get("sealed"):
            commitments[(node, player)] = str(entry.get("commitment"))
        elif kind == "orders":
            block = one_block(seq, str(entry.get("block", "")))
            if hashlib.sha256(block.payload()).hexdigest() != entry.get("payload_sha256"):
                raise _bad(seq, "payload hash does not match the block")
            _check_signed(gf, seq, player, block, keys, window)
        elif kind == "unseal":
            if node != run_node:
                raise _bad(seq, "the unseal does not follow the sealed answers")
            _check_unseal(gf, seq, entry, commitments, keys, window)
            run_node = ""
        elif kind not in ("reveal", "correction", "timeout"):
            raise _bad(seq, f"kind '{kind}' cannot be checked in a moderated Age of "
                            "Renaissance game")
        posts.append(str(entry.get("post_state")))
    if len(gf.log) - 1 != gf.seq or posts[-1] != gamefile.current_hash(gf):
        raise CorruptGameError("the state in the file does not match the end of the log")


def _check_unseal(gf: GameFile, seq: int, entry: dict[str, Any],
                  commitments: dict[tuple[str, str], str], keys: Mapping[str, str],
                  window: Mapping[int, str]) -> None:
    node = str(entry.get("node"))
    blocks = dict(entry.get("blocks") or {})
    salts = dict(entry.get("salts") or {})
    owed = sorted(p for n, p in commitments if n == node)
    if sorted(blocks) != owed or sorted(salts) != owed or not owed:
        raise _bad(seq, "the unsealed blocks do not match the sealed answers")
    for player, text in sorted(blocks.items()):
        block = one_block(seq, str(text))
        if commitment(bytes.fromhex(str(salts[player])), block.payload()) != \
                commitments[(node, player)]:
            raise _bad(seq, f"{player}'s block does not match its commitment")
        _check_signed(gf, seq, player, block, keys, window)


# --- the full replay ---------------------------------------------------------------------------


def replay_full(gf: GameFile, seed: bytes,
                pending: Mapping[str, Mapping[str, str]] | None = None) -> Table:
    """The whole state rebuilt from the seed, the log and the sealed blocks not yet opened."""
    ruleset, catalog = ruleset_for("aor"), catalog_for("aor")
    setup = gf.log[0]
    chance = SeededChance(seed, gf.game_id, 0)
    try:
        table, _ = ruleset.setup(catalog, gf.game_id, setup_seats(gf), dict(gf.game["options"]),
                                 chance)
        run_automatic(ruleset, table, chance)
    except ValueError as error:
        raise _bad(0, f"setup does not replay: {error}") from None
    table.state["draws"] = len(chance.draws)
    if mask_draws(chance.draws) != setup.get("draws") or \
            public_hash(gf.game, 0, table.state, table.agenda) != setup.get("post_state"):
        raise _bad(0, "the setup does not produce the recorded state")
    blocks: dict[tuple[str, str], str] = {}
    for entry in gf.log:
        if entry.get("kind") == "unseal":
            for player, text in dict(entry.get("blocks") or {}).items():
                blocks[(str(entry.get("node")), player)] = str(text)
    for node, answers in (pending or {}).items():
        for player, text in answers.items():
            blocks[(node, player)] = text
    last_note: list[str] = []
    for seq, entry in enumerate(gf.log[1:], start=1):
        kind = entry.get("kind")
        chance = SeededChance(seed, gf.game_id, int(table.state["draws"]))
        if kind == "orders" and entry.get("sealed"):
            last_note = _replay_sealed(gf, table, entry, seq, seed, blocks, chance)
        elif kind == "unseal":
            _replay_unseal(gf, table, entry, seq, blocks, chance, last_note)
        elif kind == "timeout":
            last_note = _replay_timeout(gf, table, entry, seq, chance)
        elif kind == "orders":
            events = _adjudicate(table, seq, str(entry.get("player")),
                                 one_block(seq, str(entry.get("block"))), chance)
            if public_summary(events) != entry.get("summary"):
                raise _bad(seq, "the summary does not match what the orders did")
        elif kind not in ("reveal", "correction"):
            raise _bad(seq, f"kind '{kind}' does not replay in a moderated Age of Renaissance game")
        if mask_draws(chance.draws) != list(entry.get("draws") or []):
            raise _bad(seq, "the draws do not match the log")
        table.state["draws"] = int(table.state["draws"]) + len(chance.draws)
        if public_hash(gf.game, seq, table.state, table.agenda) != entry.get("post_state"):
            raise _bad(seq, "the replay does not produce the recorded post_state")
    return table


def _default(table: Table, seq: int, player: str, line: str, chance: SeededChance) -> list[Event]:
    """Apply, in place, the one default a timeout gave (it must be the default)."""
    ruleset = ruleset_for("aor")
    node = next_pending(table.agenda)
    if node is None or player not in waiting_for(table.agenda):
        raise _bad(seq, f"a timeout for {player}, who owes nothing")
    action = ruleset.actions[node["action"]]
    here = asked(node, player)
    choice = action.default(table, here, action.options(table, here))
    if choice.line != line:
        raise _bad(seq, f"'{line}' is not the default '{choice.line}'")
    try:
        events = answer(ruleset, table, choice, chance, player)
        return events + run_automatic(ruleset, table, chance)
    except (RuleError, InvariantViolation) as error:
        raise _bad(seq, f"the default does not replay: {error}") from None


def _replay_timeout(gf: GameFile, table: Table, entry: dict[str, Any], seq: int,
                    chance: SeededChance) -> list[str]:
    """A timeout's defaults; the last answer to a sealed node waits for its `unseal` entry."""
    player, lines = str(entry.get("player")), [str(x) for x in entry.get("lines") or []]
    pending = next_pending(table.agenda)
    summary = list(entry.get("summary") or [])
    if pending is not None and pending.get("sealed") and waiting_for(table.agenda) == [player]:
        pending["answers"] = dict(sorted({**pending["answers"], player: RECEIVED}.items()))
        return summary[1:]
    events: list[Event] = []
    for line in lines:
        events += _default(table, seq, player, line, chance)
    if summary[1:] != public_summary(events):
        raise _bad(seq, "the summary does not match what the defaults did")
    return []


def _adjudicate(table: Table, seq: int, player: str, block: OrderBlock,
                chance: SeededChance) -> list[Event]:
    try:
        outcome = adjudicate(ruleset_for("aor"), table, player,
                             [(line.number, line.text) for line in block.lines], chance,
                             in_place=True)
    except (RuleError, InvariantViolation) as error:
        raise _bad(seq, f"the orders do not replay: {error}") from None
    return outcome.events


def _replay_sealed(gf: GameFile, table: Table, entry: dict[str, Any], seq: int, seed: bytes,
                   blocks: Mapping[tuple[str, str], str], chance: SeededChance) -> list[str]:
    node, player = str(entry.get("node")), str(entry.get("player"))
    pending = next_pending(table.agenda)
    if pending is None or pending["id"] != node or not pending.get("sealed"):
        raise _bad(seq, "a sealed answer to a decision that is not pending")
    text = blocks.get((node, player))
    if text is None:
        raise UsageError(f"the sealed block of {player} (log entry seq {seq}) is not in the "
                         "secrets file; ask the player to send it again")
    block = one_block(seq, text)
    if commitment(seal_salt(seed, gf.game_id, node, player), block.payload()) != \
            entry.get("commitment"):
        raise _bad(seq, f"{player}'s sealed block does not match its commitment")
    if waiting_for(table.agenda) == [player]:  # the last answer: the unseal entry resolves it
        pending["answers"] = dict(sorted({**pending["answers"], player: RECEIVED}.items()))
        return list(entry.get("summary") or [])
    events = _adjudicate(table, seq, player, block, chance)
    if public_summary(events) != entry.get("summary"):
        raise _bad(seq, "the summary does not match the sealed answer")
    return []


def _replay_unseal(gf: GameFile, table: Table, entry: dict[str, Any], seq: int,
                   blocks: Mapping[tuple[str, str], str], chance: SeededChance,
                   last_note: list[str]) -> None:
    node, last = str(entry.get("node")), str(entry.get("last"))
    pending = next_pending(table.agenda)
    if pending is None or pending["id"] != node or pending["answers"].get(last) != RECEIVED:
        raise _bad(seq, "the unseal does not follow the last sealed answer")
    del pending["answers"][last]
    if "last_default" in entry:  # a timeout gave the last answer
        events = _default(table, seq, last, str(entry["last_default"]), chance)
    else:
        events = _adjudicate(table, seq, last, one_block(seq, blocks[(node, last)]), chance)
    noted, resolved = split_sealed(events)
    stored = dict(entry.get("blocks") or {})
    note = unseal_note(stored, timed_out(gf.log[:seq], node))
    if noted != last_note or [note, *resolved] != entry.get("summary"):
        raise _bad(seq, "the summary does not match what the sealed answers did")
