"""The clock's settings bound into the chain (issue 21 §1): deadlines, the NMR policy, e-mail
addresses and timeouts are log entries, and the game header's `trail` (a running SHA-256 of
those entries) is covered by every state hash, so none of them can be edited afterwards.

In a game with a moderator a settings change, and a timeout forced before its deadline, carry
the moderator's signed block (`player: moderator`, written against the state before it). A game
without a moderator still logs every change (unsigned), and allows only overdue timeouts.

A game begun before format 3 has no trail: the first such entry pbem writes to it is an
`adopted` snapshot of the settings then in force (nothing before it can be checked).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core.records import dataclass_on_first_use  # start-up: made when first built
from engine.core.table import event
from pbem.delivery.deadlines import (
    DIGESTS,
    MODERATOR,
    NMR_POLICIES,
    Policy,
    check_zone,
    iso,
    parse_duration,
    parse_time,
    policy_of,
)
from pbem.delivery.deadlines import policy_data as stored_policy
from pbem.errors import BlockError, DoesNotFitError, SignatureError, UsageError
from pbem.i18n import check_language
from pbem.i18n.readers import GAME_LANGUAGE as GAME_LANGUAGE
from pbem.i18n.readers import game_language_of as game_language_of
from pbem.orders.orderblock import OrderBlock, canonical_payload, find_blocks, format_block
from pbem.orders.signatures import load_private_key, sign, verify
from pbem.pipeline.replace import check_address, moderator_key
from pbem.store.entries import Entry, Settings, Timeout
from pbem.store.gamefile import GameFile, canonical_json, current_hash, fingerprint

TRAIL = "trail"
Data = dict[str, Any]
SeatValues = dict[str, dict[str, str]]  # setting -> player -> value


def _zone(value: str) -> str:
    check_zone(value)
    return value


def _digest(value: str) -> str:
    if value.lower() not in DIGESTS:
        raise UsageError(f"unknown digest '{value[:60]}'; choose {' or '.join(DIGESTS)}")
    return value.lower()


def _language(value: str) -> str:
    return check_language(value.lower())  # one with a catalog (or English), else the list


# A seat's own settings, kept in its roster entry under the same key. Since format 4 the setup
# entry fixes them ("" = not set) and each change is a logged `settings` entry (`pbem roster
# --KEY PLAYER=VALUE`; the moderator's block line `KEY PLAYER VALUE`), which verify rebuilds.
# Adding one is one line here: its name and a check that returns the value as stored.
SEAT_SETTINGS: dict[str, Callable[[str], str]] = {"timezone": _zone, "digest": _digest,
                                                   "language": _language}




def check_game_language(value: str) -> str:
    return _language(value)


def has_moderator(gf: GameFile) -> bool:
    try:
        moderator_key(gf)
    except UsageError:
        return False
    return True


def policy_data(policy: Policy) -> Data:
    return stored_policy(policy)


def snapshot(gf: GameFile) -> Data:
    """The settings in force: the deadlines policy and each player's e-mail address."""
    return {"deadlines": policy_data(policy_of(gf)),
            "emails": {str(p["id"]): str(p.get("email") or "") for p in gf.roster["players"]}}


def identities(gf: GameFile) -> Data:
    """Who the roster names: each seat's name, and the moderator's name and address (None: no
    moderator). Since format 4 the setup entry's settings hold them, so the trail fixes them;
    a seat's name changes only by a replacement entry, the moderator's never."""
    moderator = gf.roster.get("moderator")
    return {"names": {str(p["id"]): str(p.get("name") or "") for p in gf.roster["players"]},
            "moderator": {"name": str(moderator.get("name") or ""),
                          "email": str(moderator.get("email") or "")} if moderator else None}


def seat_settings(gf: GameFile) -> SeatValues:
    """Each seat's own settings (SEAT_SETTINGS) as the roster holds them, "" where unset."""
    return {key: {str(p["id"]): p.get(key, "") for p in gf.roster["players"]}
            for key in SEAT_SETTINGS}


def binds_seats(gf: GameFile) -> bool:
    """Whether the game's setup fixed its seats' own settings (since format 4)."""
    settings = gf.log[0].get("settings") if gf.log else None
    return isinstance(settings, dict) and "seats" in settings


def check_seats(seats: SeatValues) -> SeatValues:
    """Each setting known and each value checked (UsageError), as stored."""
    checked: SeatValues = {}
    for key, values in seats.items():
        if key not in SEAT_SETTINGS:
            raise UsageError(f"unknown setting '{key[:40]}'; settings: "
                             f"{', '.join(SEAT_SETTINGS)}")
        checked[key] = {player: SEAT_SETTINGS[key](value) for player, value in values.items()}
    return {key: values for key, values in checked.items() if values}


def start(settings: Data) -> str:
    """The trail of a game begun with these settings (fixed by its setup entry)."""
    return hashlib.sha256(b"pbem-trail\n" + canonical_json(settings)).hexdigest()


def is_bound(entry: Entry) -> bool:
    return isinstance(entry, Settings) or isinstance(entry, Timeout) and not entry.legacy


def extend(trail: str, entry: Entry) -> str:
    body = {"seq": entry.seq, "kind": entry.kind, **entry.body()}
    return hashlib.sha256(f"{trail}\n".encode() + canonical_json(body)).hexdigest()


def bind(game_header: Data, entry: Entry) -> None:
    """Fold `entry` into the header's trail, in place (verify's replay)."""
    game_header[TRAIL] = extend(str(game_header.get(TRAIL) or ""), entry)


def bound(game_header: Data, entry: Entry) -> Data:
    """The header after `entry`: its trail grown by it (the entry's post_state covers it)."""
    header = dict(game_header)
    bind(header, entry)
    return header


def settings_event(policy: Data | None, emails: dict[str, str] | None,
                   seats: SeatValues | None = None, language: str | None = None) -> Data:
    args: Data = {}
    if language is not None:
        args["language"] = language
    if policy is not None:
        args.update(decisions=dict(policy["decisions"]), nmr=policy["nmr"])
        if policy.get("absence"):
            args["absence"] = policy["absence"]
    if emails is not None:
        args["emails"] = sorted(emails)
    if seats:  # who changed what, not the values (as for e-mails)
        args["seats"] = {key: sorted(values) for key, values in sorted(seats.items())}
    return event("pbem.settings", kind="settings", **args)


# --- the moderator's blocks -----------------------------------------------------------------


def settings_lines(change: Change) -> list[str]:
    lines = []
    if change.deadlines is not None:
        lines.append(f"nmr {change.deadlines['nmr']}")
        lines += [f"deadline {k} {v}" for k, v in sorted(change.deadlines["decisions"].items())]
        if change.deadlines.get("absence"):
            lines.append(f"absence {change.deadlines['absence']}")
    lines += [f"email {p} {a}" for p, a in sorted((change.emails or {}).items())]
    if change.language is not None:
        lines.append(f"{GAME_LANGUAGE} {change.language}")
    lines += [f"{key} {p} {v}" for key, values in sorted((change.seats or {}).items())
              for p, v in sorted(values.items())]
    return lines


@dataclass_on_first_use(frozen=True)
class Change:
    deadlines: Data | None
    emails: dict[str, str] | None
    seats: SeatValues | None = None  # SEAT_SETTINGS changed: setting -> player -> value
    language: str | None = None  # the game's default language


def parse_settings(block: OrderBlock) -> Change:
    """A moderator's settings block: `nmr POLICY` then `deadline DECISION DURATION` lines (the
    whole policy now in force), and/or `email PLAYER ADDRESS` lines, and/or a seat's own
    setting, `KEY PLAYER VALUE` (SEAT_SETTINGS), and/or the game's language, `language LANG`."""
    deadlines: Data | None = None
    language: str | None = None
    emails: dict[str, str] = {}
    seats: SeatValues = {}
    for line in block.lines:
        words = line.text.split()
        key = words[0] if words else ""
        if words[:1] == ["nmr"] and len(words) == 2 and words[1] in NMR_POLICIES \
                and deadlines is None:
            deadlines = {"decisions": {}, "nmr": words[1]}
        elif words[:1] == ["deadline"] and len(words) == 3 and deadlines is not None:
            parse_duration(words[2])
            deadlines["decisions"][words[1]] = words[2]
        elif words[:1] == ["absence"] and len(words) == 2 and deadlines is not None \
                and "absence" not in deadlines:
            parse_duration(words[1])
            deadlines["absence"] = words[1]
        elif words[:1] == ["email"] and len(words) == 3 and words[1] not in emails:
            emails[words[1]] = check_address(words[2])
        elif key == GAME_LANGUAGE and len(words) == 2 and language is None:
            language = check_game_language(words[1])
        elif key in SEAT_SETTINGS and len(words) == 3 and words[1] not in seats.get(key, {}):
            seats.setdefault(key, {})[words[1]] = SEAT_SETTINGS[key](words[2])
        else:
            raise BlockError(f"line {line.number}: expected 'nmr wait|skip', 'deadline DECISION "
                             "DURATION', 'absence DURATION', 'email PLAYER ADDRESS' or "
                             f"'{'|'.join(SEAT_SETTINGS)} PLAYER VALUE' or 'language LANG'")
    return Change(deadlines, emails or None, seats or None, language)


def moderator_private(gf: GameFile, key_path: Path) -> Any:
    """The moderator's private key from `key_path`, checked against the game's anchor."""
    private = load_private_key(key_path)
    if moderator_key(gf).raw != private.public_key().public_bytes_raw():
        raise UsageError(f"{key_path.name} is not the moderator's key in this game")
    return private


def moderator_block(gf: GameFile, lines: list[str], key_path: Path) -> str:
    """The moderator's signed block of `lines`, against the game's current state."""
    private = moderator_private(gf, key_path)
    state = fingerprint(current_hash(gf))
    payload = canonical_payload(gf.game_id, MODERATOR, gf.seq, state, lines)
    return format_block(gf.game_id, MODERATOR, gf.seq, state, lines, sign(private, payload))


def moderator_lines(gf: GameFile, text: str, window: dict[int, str]) -> OrderBlock:
    """The moderator's block in `text`, checked: this game, a state in `window` (seq ->
    fingerprint), the moderator's signature. Errors name what is wrong."""
    blocks = [b for b in find_blocks(text) if (b.player or "").lower() == MODERATOR]
    if not blocks:
        raise BlockError("no moderator block found ('player: moderator')")
    block = blocks[-1]
    if (block.game or "").lower() != gf.game_id.lower():
        raise DoesNotFitError(f"the block is for game '{block.game}', not '{gf.game_id}'")
    if block.seq is None or window.get(block.seq) != (block.state or "").lower():
        raise DoesNotFitError(f"stale block: written against seq {block.seq}, but the game is "
                              f"at seq {gf.seq}; sign a new one")
    verify(moderator_key(gf), block.payload(), block.signature or "")
    return block


def payload_digest(block: OrderBlock) -> str:
    return hashlib.sha256(block.payload()).hexdigest()


def check_signed(gf: GameFile, text: str | None, digest: str | None,
                 window: dict[int, str]) -> OrderBlock:
    """For verify: a logged moderator block, its payload hash and signature. ValueError."""
    if text is None:
        raise ValueError("it carries no moderator's block")
    found = find_blocks(text)
    if len(found) != 1:
        raise ValueError("the stored block cannot be read")
    try:
        block = moderator_lines(gf, text, window)
    except (BlockError, DoesNotFitError, SignatureError, UsageError) as error:
        raise ValueError(f"moderator's block: {error}") from None
    if payload_digest(block) != digest:
        raise ValueError("payload hash does not match the block")
    return block


def forced_players(block: OrderBlock) -> list[str]:
    """The players a moderator's `timeout PLAYER` block forces."""
    players = []
    for line in block.lines:
        words = line.text.lower().split()
        if len(words) != 2 or words[0] != "timeout":
            raise BlockError(f"line {line.number}: expected 'timeout PLAYER'")
        players.append(words[1])
    return players


# --- verify's checks ------------------------------------------------------------------------


def check_timeout(gf: GameFile, entry: Timeout, policy: Policy, action: str | None) -> None:
    """A timeout against the policy in force: forced only by the moderator's block naming the
    player; otherwise an overdue deadline that the policy gives (clock start + duration), and
    the timeout ran after it. ValueError names the problem."""
    if entry.forced:
        if not has_moderator(gf):
            raise ValueError("a forced timeout in a game without a moderator")
        return  # the block's signature and its players: check_forced (the public pass)
    if entry.block is not None:
        raise ValueError("an overdue timeout carries a moderator's block")
    duration = policy.duration_for(action) if action is not None else None
    if duration is None or entry.deadline is None or entry.started is None or entry.at is None:
        raise ValueError(f"no deadline of the policy in force governs {action or 'it'}")
    try:
        started, at = parse_time(entry.started), parse_time(entry.at)
        deadline = parse_time(entry.deadline)
    except UsageError as error:  # a time pbem did not write: a damaged entry, not bad input
        raise ValueError(f"its clock: {error}") from None
    if entry.deadline != iso(started + duration):
        raise ValueError(f"its deadline is not {entry.started} + {duration} (the policy then)")
    if at < deadline:
        raise ValueError(f"it ran at {entry.at}, before its deadline {entry.deadline}")


def check_forced(gf: GameFile, entry: Timeout, window: dict[int, str]) -> None:
    """The moderator's block of a forced timeout: signed against the state before the run of
    timeouts it forced, naming this entry's player."""
    block = check_signed(gf, entry.block, entry.payload_sha256, window)
    try:
        players = forced_players(block)
    except BlockError as error:
        raise ValueError(f"moderator's block: {error}") from None
    if entry.player not in players:
        raise ValueError(f"the moderator's block does not force a timeout of {entry.player}")


def check_settings(gf: GameFile, entry: Settings, window: dict[int, str]) -> None:
    """A settings entry: the moderator's block says exactly this change (a game with a
    moderator), or there is no block (a game without one, or the adopted snapshot)."""
    if entry.adopted or not has_moderator(gf):
        if entry.block is not None:
            raise ValueError("an unsigned settings change carries a block")
        return
    block = check_signed(gf, entry.block, entry.payload_sha256, window)
    try:
        change = parse_settings(block)
    except (BlockError, UsageError) as error:
        raise ValueError(f"moderator's block: {error}") from None
    if change != Change(entry.deadlines, entry.emails, entry.seats, entry.language):
        raise ValueError("the change is not the one the moderator signed")
