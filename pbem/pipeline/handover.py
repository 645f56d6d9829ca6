"""Roster and settings changes applied through the one commit point: `replace-player` (a
moderator-signed block hands a seat to someone new, a `replacement` entry; its checks:
pbem.pipeline.replace), and deadlines, the NMR policy, e-mail addresses and seats' own settings
(a `settings` entry, moderator-signed in a game with a moderator; pbem.pipeline.clock)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from pbem.delivery import deadlines
from pbem.delivery.deadlines import FIELDS
from pbem.errors import BlockError, DoesNotFitError, UsageError
from pbem.i18n import SOURCE
from pbem.orders.signatures import parse_public_key
from pbem.pipeline import clock, replace
from pbem.pipeline import opening as games
from pbem.pipeline.game import QUIET_KINDS, Game
from pbem.pipeline.replace import parse_replacement, replacement_event
from pbem.store.entries import Replacement as ReplacementEntry
from pbem.store.entries import Settings
from pbem.store.gamefile import GameFile, current_hash, fingerprint, state_hash


def apply_replacement(path: Path, text: str) -> GameFile:
    """Check the moderator's block and replace the player's roster entry; log it."""
    with games.locked(path):
        game = games.open_game(path)
        gf = game.gf
        # written against the state now: the same checks as any moderator's block
        block = clock.moderator_lines(gf, text, {gf.seq: fingerprint(current_hash(gf))})
        change = parse_replacement(block)
        entry = gf.roster_entry(change.player)
        if entry is None:
            raise BlockError(f"unknown player '{change.player}'; players: "
                             f"{', '.join(gf.player_ids())}")
        old = {k: entry[k] for k in FIELDS if k in entry}
        if change.key is not None:
            taken = [p["id"] for p in gf.roster["players"] if p["id"] != change.player and
                     parse_public_key(p["key"]).raw == parse_public_key(change.key).raw]
            if taken:
                raise UsageError(f"that key already belongs to {taken[0]}")
            entry["key"] = change.key
        entry.update({k: getattr(change, k) for k in FIELDS[:2] + FIELDS[3:]
                      if getattr(change, k) is not None})
        new: dict[str, Any] = {k: entry[k] for k in FIELDS if k in entry}
        game.advance(ReplacementEntry(
            seq=gf.seq + 1, prev_state=current_hash(gf), post_state=state_hash(gf.game, gf.seq + 1, gf.state,
                                                                   gf.agenda),
            events=[replacement_event(change.player, new)], player=change.player,
            block=block.text, payload_sha256=hashlib.sha256(block.payload()).hexdigest(),
            old=old, new=new), None)
        games.commit(game)
        return gf


def adopt(game: Game) -> None:
    """Start the trail of a game begun before format 3: an unsigned snapshot of the settings in
    force, logged before the first entry that the trail binds (a no-op once started)."""
    gf = game.gf
    if clock.TRAIL in gf.game:
        return
    now = clock.snapshot(gf)
    entry = Settings(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="",
                     events=[clock.settings_event(now["deadlines"], now["emails"])],
                     deadlines=now["deadlines"], emails=now["emails"], adopted=True)
    _advance(game, entry)


def quiet_window(game: Game) -> dict[int, str]:
    """seq -> state fingerprint a moderator's block may be written against: the current state,
    or one before the settings changes, absences and pauses just made (they alter no rule;
    verify agrees)."""
    window = {game.gf.seq: fingerprint(current_hash(game.gf))}
    for entry in reversed(game.recent()):
        if entry.get("kind") not in QUIET_KINDS:
            break
        window[int(entry["seq"]) - 1] = fingerprint(str(entry["prev_state"]))
    return window


def _advance(game: Game, entry: Settings) -> None:
    gf = game.gf
    header = clock.bound(gf.game, entry)
    entry.post_state = state_hash(header, gf.seq + 1, gf.state, gf.agenda)
    game.advance(entry, None, header)


def apply_settings(path: Path, *, changes: dict[str, str | None], nmr: str | None,
                   emails: dict[str, str], key: Path | None = None,
                   block_text: str | None = None, print_only: bool = False,
                   seats: clock.SeatValues | None = None,
                   absence: str | None = None, language: str | None = None) -> str | None:
    """Change deadlines, the NMR policy, e-mail addresses or seats' own settings (time zones,
    digests: clock.SEAT_SETTINGS): one `settings` entry. A game with a
    moderator needs the moderator's key (`key`) or block (`block_text`). With `print_only`, the
    signed block comes back and nothing is written."""
    with games.locked(path):
        game = games.open_game(path)
        gf = game.gf
        moderated = clock.has_moderator(gf)
        if not print_only:
            adopt(game)
        window = quiet_window(game)
        if block_text is not None:
            if not moderated:
                raise UsageError("this game has no moderator: change its settings without "
                                 "a block")
            block = clock.moderator_lines(gf, block_text, window)
            change = clock.parse_settings(block)
            _check_change(gf, change)
            digest = clock.payload_digest(block)
            signed: tuple[str, str] | None = (block.text, digest)
            if any(e.get("payload_sha256") == digest for e in game.recent()):
                raise DoesNotFitError("already applied: this block of the moderator's was "
                                      "applied before, so nothing changed")
        else:
            change = _change(gf, changes, nmr, emails, seats or {}, absence, language)
            _check_change(gf, change)  # every argument, before the moderator's key is asked
            lines = clock.settings_lines(change)
            if moderated and key is None:
                raise UsageError("this game has a moderator: give --key MODERATOR.key (or "
                                 "--block FILE, a block the moderator signed)")
            signed = None
            if moderated:
                assert key is not None
                text = clock.moderator_block(gf, lines, key)
                if print_only:
                    return text
                block = clock.moderator_lines(gf, text, {gf.seq: fingerprint(current_hash(gf))})
                signed = (block.text, clock.payload_digest(block))
            elif print_only:
                raise UsageError("this game has no moderator: there is no block to print")
        if _unchanged(gf, change):
            return None  # nothing to log
        entry = Settings(seq=gf.seq + 1, prev_state=current_hash(gf), post_state="",
                         events=[clock.settings_event(change.deadlines, change.emails,
                                                      change.seats, change.language)],
                         deadlines=change.deadlines, emails=change.emails, seats=change.seats,
                         language=change.language,
                         block=signed[0] if signed else None,
                         payload_sha256=signed[1] if signed else None)
        apply_change(gf, change)
        _advance(game, entry)
        games.commit(game)
        return None


def _change(gf: GameFile, changes: dict[str, str | None], nmr: str | None,
            emails: dict[str, str], seats: clock.SeatValues,
            absence: str | None = None, language: str | None = None) -> clock.Change:
    policy = None
    if changes or nmr or absence is not None:
        policy = clock.policy_data(deadlines.merged_policy(gf, changes, nmr, absence))
    for address in emails.values():
        replace.check_address(address)
    return clock.Change(policy, dict(sorted(emails.items())) or None,
                        clock.check_seats(seats) or None,
                        clock.check_game_language(language) if language is not None else None)


def _check_change(gf: GameFile, change: clock.Change) -> None:
    if change.deadlines is not None:
        deadlines.merged_policy(gf, dict(change.deadlines["decisions"]),
                                str(change.deadlines["nmr"]), change.deadlines.get("absence"))
    clock.check_seats(change.seats or {})
    for player in [*(change.emails or {}), *(p for v in (change.seats or {}).values() for p in v)]:
        if gf.roster_entry(player) is None:
            raise UsageError(f"unknown player '{player}'; players: {', '.join(gf.player_ids())}")
    if change.deadlines is None and not change.emails and not change.seats and \
            change.language is None:
        raise UsageError("nothing to change")


def _unchanged(gf: GameFile, change: clock.Change) -> bool:
    now, held = clock.snapshot(gf), clock.seat_settings(gf)
    return change.deadlines in (None, now["deadlines"]) and all(
        now["emails"].get(p) == a for p, a in (change.emails or {}).items()) and all(
        held[key].get(p) == v for key, values in (change.seats or {}).items()
        for p, v in values.items()) and \
        change.language in (None, clock.game_language_of(gf) or SOURCE)


def apply_change(gf: GameFile, change: clock.Change) -> None:
    """The roster after a settings change (verify rebuilds it the same way)."""
    if change.deadlines is not None:
        deadlines.store_policy(gf, deadlines.policy_from(change.deadlines))
    if change.language is not None:
        gf.roster[clock.GAME_LANGUAGE] = change.language
    for field, values in [("email", change.emails or {}), *(change.seats or {}).items()]:
        for player, value in values.items():
            entry = gf.roster_entry(player)
            assert entry is not None
            entry[field] = value
