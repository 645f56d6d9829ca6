"""Replacing a player (issue 7): a moderator-signed block gives a seat a new key, e-mail, name,
time zone or language; it is recorded as a `replacement` entry that `verify` checks."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from engine.core.records import dataclass_on_first_use  # start-up: made when first built
from engine.core.table import Event, event
from pbem.delivery.deadlines import FIELDS, MODERATOR, check_zone
from pbem.errors import BlockError, SignatureError, UsageError
from pbem.i18n import check_language
from pbem.orders.orderblock import OrderBlock, canonical_payload, find_blocks, format_block
from pbem.orders.signatures import PublicKey, load_private_key, parse_public_key, sign, verify
from pbem.store.entries import Replacement as ReplacementEntry
from pbem.store.gamefile import GameFile, current_hash, fingerprint

# --- replacing a player ---------------------------------------------------------------------


@dataclass_on_first_use(frozen=True)
class Replacement:
    player: str
    key: str | None  # roster form "ed25519 BASE64", None to keep the key
    email: str | None
    name: str | None
    timezone: str | None
    language: str | None = None  # the new player's reading language (their .pub's `lang=`)


_ADDRESS = re.compile(r"[^@\s,;<>()\[\]\\\"]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}")


def check_address(text: str) -> str:
    """One plain e-mail address (no name, no second address)."""
    if not _ADDRESS.fullmatch(text.strip()):
        raise UsageError(f"'{text[:80]}' is not one e-mail address; write e.g. dora@example.org")
    return text.strip()


def replacement_lines(change: Replacement) -> list[str]:
    if change.email is not None:
        check_address(change.email)
    lines = [f"replace {change.player}"]
    for field in FIELDS:
        value = getattr(change, field)
        if value is not None:
            lines.append(f"key {parse_public_key(value).raw.hex()}" if field == "key" else
                         f"{field} {value}")
    return lines


def parse_replacement(block: OrderBlock) -> Replacement:
    if not block.lines or block.lines[0].canonical.split()[:1] != ["replace"]:
        raise BlockError("a moderator block must start with 'replace PLAYER'")
    words = block.lines[0].canonical.split()
    fields: dict[str, str] = {}
    for line in block.lines[1:]:
        field, _, value = line.text.strip().partition(" ")
        field = field.lower()
        if field not in FIELDS or not value.strip() or field in fields:
            raise BlockError(f"line {line.number}: expected one of key HEX, email ADDRESS, "
                             f"name TEXT, timezone ZONE or language LANG, each once")
        fields[field] = value.strip()
    key = None
    if "key" in fields:
        try:
            key = PublicKey("ed25519", bytes.fromhex(fields["key"])).roster_text()
        except ValueError:
            raise BlockError("the new key must be 64 hex digits (pbem prints it)") from None
    if "timezone" in fields:
        check_zone(fields["timezone"])
    if "email" in fields:
        check_address(fields["email"])
    if "language" in fields:
        check_language(fields["language"])
    return Replacement(words[1] if len(words) == 2 else "", key, fields.get("email"),
                       fields.get("name"), fields.get("timezone"), fields.get("language"))


def moderator_key(gf: GameFile) -> PublicKey:
    """The moderator's key as the game started with it: games since format 2 fix every key in
    the header, which every state hash covers, so editing the roster cannot change it."""
    anchors = gf.game.get("anchors")
    if isinstance(anchors, dict):
        key = anchors.get("moderator")
    else:  # a format-1 game: the roster's
        key = (gf.roster.get("moderator") or {}).get("key")
    if not key:
        raise UsageError("this game has no moderator, so no one may replace a player")
    return parse_public_key(str(key))


def replacement_block(gf: GameFile, change: Replacement, key_path: Path) -> str:
    """The moderator's signed block for `change`, against the game's current state."""
    private = load_private_key(key_path)
    if moderator_key(gf).raw != private.public_key().public_bytes_raw():
        raise UsageError(f"{key_path.name} is not the moderator's key in this game")
    lines = replacement_lines(change)
    state = fingerprint(current_hash(gf))
    payload = canonical_payload(gf.game_id, MODERATOR, gf.seq, state, lines)
    return format_block(gf.game_id, MODERATOR, gf.seq, state, lines, sign(private, payload))


def replacement_event(player: str, new: dict[str, Any]) -> Event:
    key = parse_public_key(str(new["key"])).fingerprint()
    return event("pbem.replacement", kind="replacement", player=player,
                 name=str(new.get("name") or player), key=key)


def check_replacement(gf: GameFile, entry: ReplacementEntry, keys: dict[str, str], seq: int,
                      prev: str) -> None:
    """For verify: the moderator signed this change against the state before it; `keys` (the
    players' keys so far) is updated. ValueError names the problem."""
    blocks = find_blocks(str(entry.block))
    if len(blocks) != 1:
        raise ValueError("the stored block cannot be read")
    block = blocks[0]
    if block.seq != seq - 1 or (block.state or "") != prev[:16]:
        raise ValueError("the block was not written against the state before it")
    if hashlib.sha256(block.payload()).hexdigest() != entry.payload_sha256:
        raise ValueError("payload hash does not match the block")
    try:
        verify(moderator_key(gf), block.payload(), block.signature or "")
    except (SignatureError, UsageError) as error:
        raise ValueError(f"bad moderator signature: {error}") from None
    change = parse_replacement(block)
    new, old = entry.new, entry.old
    if change.player != entry.player or keys.get(change.player) != old.get("key"):
        raise ValueError("the change does not match the roster before it")
    signed = {k: v for k in FIELDS if (v := getattr(change, k)) is not None}
    signed.setdefault("key", str(old.get("key")))
    if parse_public_key(str(new.get("key"))).raw != parse_public_key(signed.pop("key")).raw or \
            any(str(new.get(k, "")).lower() != v.lower() for k, v in signed.items()):
        raise ValueError("the new roster entry is not the one the moderator signed")
    if entry.events is not None and entry.events != [replacement_event(change.player, new)]:
        raise ValueError("the events do not match the change")
    keys[change.player] = str(new.get("key"))
