"""verify's public pass: what can be checked from the game file alone, for every mode."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import partial

from engine.core.table import event
from pbem.errors import CorruptGameError, PbemError
from pbem.orders.life_lines import LifeLine
from pbem.orders.orderblock import OrderBlock, find_blocks
from pbem.orders.signatures import parse_public_key, verify
from pbem.pipeline import clock
from pbem.pipeline.game import QUIET_KINDS
from pbem.pipeline.life_checks import LifeCheck, check_signed
from pbem.pipeline.replace import check_replacement
from pbem.pipeline.seals import commitment
from pbem.pipeline.takeback_checks import TakebackCheck
from pbem.store import seeds
from pbem.store.entries import (
    Absence,
    Bot,
    Entry,
    Orders,
    Pause,
    Replacement,
    Reveal,
    Sealed,
    Settings,
    Timeout,
    Unseal,
)
from pbem.store.gamefile import GameFile, current_hash


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


def one_block(seq: object, text: str) -> OrderBlock:
    """The one block of a stored block text (parsed once: `find_blocks` keeps short texts)."""
    blocks = find_blocks(text)
    if len(blocks) != 1:
        raise _bad(seq, "the stored block cannot be read")
    return blocks[0]


def first_keys(gf: GameFile, entries: list[Entry]) -> dict[str, str]:
    """Each player's key at the start: fixed in the game header since format 2 (the roster's,
    with logged roster changes undone, for older games). The header's keys must agree with the
    roster and the logged changes, and the moderator's key must be the one the game began with."""
    keys = {str(p["id"]): str(p["key"]) for p in gf.roster["players"]}
    for entry in reversed(entries):
        if isinstance(entry, Replacement):
            keys[entry.player] = str(entry.old.get("key"))
    anchors = gf.game.get("anchors")
    if not isinstance(anchors, dict):
        return keys
    fixed = {str(p): str(k) for p, k in dict(anchors.get("players") or {}).items()}
    if fixed != keys:
        raise CorruptGameError("the roster's keys are not the keys the game began with, as "
                               "changed by the logged roster changes")
    moderator = (gf.roster.get("moderator") or {}).get("key")
    if (moderator or None) != (anchors.get("moderator") or None):
        raise CorruptGameError("the roster's moderator key is not the one the game began with")
    return fixed


def check_head(gf: GameFile, entries: list[Entry]) -> None:
    """What the file says beside its log must agree with the log, before anything is replayed:
    the setup is seq 0, the head is the last entry's state, and the randomness is that of its
    mode (an open game keeps its seed; a moderated one its commitment, and its seed only once
    a reveal entry published that seed). Found by the tamper table (tests/security)."""
    if entries[0].seq != 0:
        raise _bad(entries[0].seq, "the setup must be seq 0")
    if entries[-1].seq != gf.seq or entries[-1].post_state != current_hash(gf):
        raise _bad(entries[-1].seq, "the last entry: the state in the file does not match its "
                   "post_state")
    if gf.format == 1 and any(e.events is not None for e in entries):
        raise CorruptGameError("game file: format 1, but its log has format-2 entries")
    randomness, reveals = gf.randomness, [e for e in entries if isinstance(e, Reveal)]
    mode, seed = randomness.get("mode"), randomness.get("seed")
    if mode == "open" and (not seed or reveals or randomness.get("commitment")):
        raise CorruptGameError("randomness: an open game keeps its seed, and only its seed")
    if mode == "moderated" and (not randomness.get("commitment") or
                                (seed or None) != (reveals[-1].seed if reveals else None)):
        raise CorruptGameError("randomness: a moderated game keeps its seed's commitment, and "
                               "the seed only as its reveal entry published it")
    if mode not in ("open", "moderated"):
        raise CorruptGameError("randomness: 'mode' must be open or moderated")


def roster_step(gf: GameFile, entry: Entry, keys: dict[str, str]) -> None:
    """A replacement (the moderator's signature, the old and new keys) or a reveal (the seed
    against the commitment); `keys` follows the roster changes."""
    if isinstance(entry, Replacement):
        try:
            check_replacement(gf, entry, keys, entry.seq, entry.prev_state)
        except (ValueError, PbemError) as error:
            raise _bad(entry.seq, f"roster change: {error}") from None
    elif isinstance(entry, Reveal):
        try:
            seed = bytes.fromhex(entry.seed)
        except ValueError:
            raise _bad(entry.seq, "the revealed seed is not hex") from None
        if seeds.commitment(seed) != gf.randomness.get("commitment"):
            raise _bad(entry.seq, "the revealed seed does not match the commitment")
        if entry.events is not None and entry.events != [event("pbem.reveal", kind="reveal")]:
            raise _bad(entry.seq, "the events do not match the reveal")


def _check_signed(gf: GameFile, seq: int, player: str, block: OrderBlock,
                  keys: Mapping[str, str], window: Mapping[int, str]) -> None:
    if player not in keys or (block.player or "").lower() != player:
        raise _bad(seq, f"player '{player}' does not match the roster or the block")
    if (block.game or "").lower() != gf.game_id.lower():
        raise _bad(seq, "the block is for another game")
    if block.seq is None or window.get(block.seq) != (block.state or "").lower():
        raise _bad(seq, "the block was not written against the state before it")
    try:
        verify(parse_public_key(keys[player]), block.payload(), block.signature or "")
    except PbemError as error:
        raise _bad(seq, f"bad signature: {error}") from None


def check_public(gf: GameFile, entries: list[Entry], keys: dict[str, str]) -> None:
    """The chain, every signature and payload hash, each block's state, every opened sealed
    block against its commitment. A block answering a simultaneous decision may be written
    against any state since that decision opened where every entry since answered it."""
    if entries[0].seq != 0:
        raise _bad(entries[0].seq, "the setup must be seq 0")
    if entries[0].events is not None and entries[0].summary is not None:
        raise _bad(0, "it has both events and a summary (pbem writes one or the other)")
    posts = [entries[0].post_state]
    run_node, run_start = "", 0
    life = LifeCheck(gf)  # absences and pauses, re-run in order (issue 24)
    life.see(entries[0], None)
    digests: set[str] = set()  # the blocks of life applied: each once
    # Each sealed answer with the key and the window in force when it was logged: a roster
    # change before the unseal neither restarts its window nor re-keys it.
    commitments: dict[tuple[str, str], tuple[str, str, dict[int, str]]] = {}
    sealed_at: dict[tuple[str, str], int] = {}  # the seq of each player's last sealed answer
    # ... and of their last block to a simultaneous decision: one after it (an open game's
    # newer seal, or the opening of a seal) is written against a state at or after it
    answered_at: dict[tuple[str, str], int] = {}
    used: set[tuple[str, str]] = set()  # moderator's blocks: (payload hash, timed-out player)
    takebacks = TakebackCheck(gf, entries)  # requests, consent and undos (issue 24 §4)
    for seq, entry in enumerate(entries[1:], start=1):
        if entry.seq != seq:
            raise _bad(entry.seq, f"expected seq {seq}")
        if entry.prev_state != posts[-1]:
            raise _bad(seq, "prev_state does not chain to the entry before")
        takebacks.see(entry, keys, partial(_quiet_window, entries, posts, seq), life.policy)
        if entry.events is not None and entry.summary is not None:
            raise _bad(seq, "it has both events and a summary (pbem writes one or the other)")
        _check_moderator(gf, entries, posts, entry)
        if isinstance(entry, Settings | Timeout) and entry.payload_sha256 is not None:
            once = (entry.payload_sha256, entry.player if isinstance(entry, Timeout) else "")
            if once in used:  # a signed block replayed to undo a later change
                raise _bad(seq, f"{entry.kind}: the moderator's block was used before")
            used.add(once)
        node = entry.node if isinstance(entry, Orders | Sealed | Timeout) else None
        if isinstance(entry, Unseal):
            if entry.node != run_node:
                raise _bad(seq, "the unseal does not follow the sealed answers")
            _check_unseal(gf, entry, commitments)
            run_node = ""
        elif entry.kind in QUIET_KINDS:  # changes no rule: a block before it still holds
            life.see(entry, _life_line(gf, entries, posts, entry, keys, digests))
            posts.append(entry.post_state)
            continue
        elif node != run_node or not node:  # an answer to the same node continues its run
            run_node, run_start = node or "", seq - 1
            while run_start > 0 and entries[run_start].kind in QUIET_KINDS:
                run_start -= 1
        window = {s: posts[s][:16] for s in range(run_start, seq)}
        if isinstance(entry, Orders):
            if entry.node and (entry.node, entry.player) in answered_at:  # a seal, then newer
                window = {s: f for s, f in window.items()
                          if s >= answered_at[(entry.node, entry.player)]}
            if entry.node:
                answered_at[(entry.node, entry.player)] = seq
            block = one_block(seq, entry.block)
            if hashlib.sha256(block.payload()).hexdigest() != entry.payload_sha256:
                raise _bad(seq, "payload hash does not match the block")
            bot = life.bot_key(entry)  # a bot the seat was handed to (issue 24)
            _check_signed(gf, seq, entry.player, block,
                          keys if bot is None else {entry.player: bot}, window)
        elif isinstance(entry, Sealed):  # signed by the seat's key, or its bot's (issue 24)
            key = life.bot_key(entry) or keys.get(entry.player, "")
            earlier = commitments.get((entry.node, entry.player))
            if (earlier[0] if earlier else None) != entry.replaces:  # only the last one counts
                raise _bad(seq, "the sealed answer does not replace its player's earlier one"
                           if entry.replaces else "a second sealed answer replaces nothing")
            if earlier:  # a newer answer is written after the one it replaces
                window = {s: f for s, f in window.items() if s >= sealed_at[(entry.node,
                                                                              entry.player)]}
            sealed_at[(entry.node, entry.player)] = seq
            commitments[(entry.node, entry.player)] = (entry.commitment, key, window)
        elif isinstance(entry, Replacement | Reveal):
            roster_step(gf, entry, keys)
            run_node, run_start = "", seq
        life.see(entry, None)
        posts.append(entry.post_state)
    if entries[-1].seq != gf.seq:
        raise CorruptGameError("the state in the file does not match the end of the log")
    life.finish()
    takebacks.finish()


def _quiet_window(entries: list[Entry], posts: list[str], seq: int) -> dict[int, str]:
    """The states a block may be written against: the one before it, or one before the run
    of entries that change no rule just before it."""
    start = seq - 1
    while start > 0 and entries[start].kind in QUIET_KINDS:
        start -= 1
    return {s: posts[s][:16] for s in range(start, seq)}


def _life_line(gf: GameFile, entries: list[Entry], posts: list[str], entry: Entry,
               keys: dict[str, str], digests: set[str]) -> LifeLine | None:
    """An absence's or pause's block checked (signature, state, once only); its line."""
    if not isinstance(entry, Absence | Pause | Bot):
        return None
    if entry.payload_sha256:
        if entry.payload_sha256 in digests:
            raise _bad(entry.seq, f"{entry.kind}: its block was applied before")
        digests.add(entry.payload_sha256)
    return check_signed(gf, entry, keys, _quiet_window(entries, posts, entry.seq))


def _check_moderator(gf: GameFile, entries: list[Entry], posts: list[str], entry: Entry) -> None:
    """A settings change's or a forced timeout's moderator's block (pbem.pipeline.clock),
    signed against the state before it, before the settings changes just before it, or (a
    forced timeout) before the run of timeouts it forced."""
    if not isinstance(entry, Settings) and not (isinstance(entry, Timeout) and entry.forced
                                                and not entry.legacy):
        return  # no moderator's block (the window below is built only for one)
    seq = entry.seq
    start = seq - 1  # settings changes alter no rule: a block written before them holds
    while start > 0 and ((before := entries[start]).kind in QUIET_KINDS or isinstance(
            entry, Timeout) and isinstance(before, Timeout) and before.block == entry.block):
        start -= 1
    window = {s: posts[s][:16] for s in range(start, seq)}
    try:
        if isinstance(entry, Settings):
            clock.check_settings(gf, entry, window)
        elif isinstance(entry, Timeout) and entry.forced and not entry.legacy:
            clock.check_forced(gf, entry, window)
    except (ValueError, PbemError) as error:
        raise _bad(seq, f"{entry.kind}: {error}") from None


def _check_unseal(gf: GameFile, entry: Unseal,
                  commitments: dict[tuple[str, str], tuple[str, str, dict[int, str]]]) -> None:
    owed = sorted(p for n, p in commitments if n == entry.node)
    if sorted(entry.blocks) != owed or sorted(entry.salts) != owed:
        raise _bad(entry.seq, "the unsealed blocks do not match the sealed answers")
    for player, text in sorted(entry.blocks.items()):
        block = one_block(entry.seq, text)
        try:
            salt = bytes.fromhex(entry.salts[player])
        except ValueError:
            raise _bad(entry.seq, f"{player}'s salt is not hex") from None
        committed, key, window = commitments[(entry.node, player)]
        if commitment(salt, block.payload()) != committed:
            raise _bad(entry.seq, f"{player}'s block does not match its commitment")
        _check_signed(gf, entry.seq, player, block, {player: key} if key else {}, window)
