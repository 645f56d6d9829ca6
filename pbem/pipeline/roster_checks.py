"""verify's check of the roster against the log (issue 21 §1): the names, e-mail addresses,
deadlines and seats' own settings the roster holds are rebuilt from the log alone and must be
the roster's.

What the log fixes: the setup entry's settings (the deadlines and e-mails the game began with;
since format 4 each seat's name, its own settings (time zone, digest: clock.SEAT_SETTINGS) and
the moderator's name and e-mail), the settings entries (deadlines, the NMR policy, e-mails,
seats' own settings; an `adopted` snapshot starts a game begun before format 3),
and the replacement entries (a seat's new name or e-mail, as the moderator signed it, taken
over from the name and e-mail the seat had: the entry's `old` must be those). The setup entry's
settings seed the header's trail, which every state hash covers, so none of it can be edited.
A game whose setup fixed its seats' own settings holds no roster key pbem does not know: an
unknown key would be a setting nothing binds (docs/security.md).

Run in the public pass: it needs no state, so it holds before a moderated game's reveal too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.delivery.deadlines import FIELDS, policy_data, policy_from
from pbem.errors import CorruptGameError, PbemError
from pbem.pipeline.clock import (
    GAME_LANGUAGE,
    SEAT_SETTINGS,
    check_game_language,
    game_language_of,
)
from pbem.pipeline.replace import parse_replacement
from pbem.pipeline.replay_checks import one_block
from pbem.store.entries import Entry, Replacement, Settings, Setup
from pbem.store.gamefile import GameFile

Data = dict[str, Any]
DEFAULT_DEADLINES: Data = {"decisions": {}, "nmr": "wait"}  # what a roster without any holds
SEAT_KEYS = frozenset({"id", "name", "email", "key"})  # besides the seats' own settings
MODERATOR_KEYS = frozenset({"name", "email", "key"})
ROSTER_KEYS = frozenset({"players", "moderator", "deadlines", "life",  # life: issue 24
                         GAME_LANGUAGE})


@dataclass
class Rebuilt:
    """The roster as the log says it is; None where the log of an older game says nothing."""

    names: dict[str, str] | None = None  # before format 4: names are not bound
    moderator: Data | None = None  # {name, email}, or None: no moderator
    emails: dict[str, str] | None = None  # before format 3: until the adopted snapshot
    deadlines: Data | None = None
    written: bool = False  # a logged change wrote `roster.deadlines`: it must be there
    seats: dict[str, dict[str, Any]] | None = None  # setting -> player -> value ("": unset)
    language: str = ""  # the game's default language ("": never set, English)


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


def rebuild(entries: list[Entry]) -> Rebuilt:
    """The roster's names, e-mails and deadlines after `entries`."""
    out = Rebuilt()
    for entry in entries:
        if isinstance(entry, Setup) and entry.settings is not None:
            out.deadlines = dict(entry.settings["deadlines"])
            out.language = _checked_language(entry.seq, entry.settings.get(GAME_LANGUAGE, ""))
            out.emails = dict(entry.settings["emails"])
            if "names" in entry.settings:
                out.names = dict(entry.settings["names"])
                out.moderator = entry.settings.get("moderator")
            if "seats" in entry.settings:  # a setting added since the game began: unset
                out.seats = {key: dict.fromkeys(out.emails, "") for key in SEAT_SETTINGS}
                out.seats.update({k: dict(v) for k, v in entry.settings["seats"].items()})
        elif isinstance(entry, Settings):
            _set_seats(out, entry)
            if entry.language is not None:
                out.language = _checked_language(entry.seq, entry.language)
            if entry.deadlines is not None:
                out.deadlines = dict(entry.deadlines)
                out.written = out.written or not entry.adopted
            if entry.adopted:
                out.emails = dict(entry.emails or {})
            elif out.emails is not None:
                out.emails.update(entry.emails or {})
        elif isinstance(entry, Replacement):
            _hand_over(out, entry)
    return out


def _checked_language(seq: int, value: object) -> str:
    if value == "":
        return ""
    try:
        return check_game_language(str(value))
    except PbemError as error:  # a value pbem would not have written
        raise _bad(seq, f"settings: {error}") from None


def _set_seats(out: Rebuilt, entry: Settings) -> None:
    if out.seats is None:  # a game begun before format 4: not bound
        return
    for key, values in (entry.seats or {}).items():
        if key not in out.seats or key not in SEAT_SETTINGS:
            raise _bad(entry.seq, f"settings: unknown setting '{key}'")
        for player, value in values.items():
            if player not in out.seats[key]:
                raise _bad(entry.seq, f"settings: unknown player '{player}'")
            try:
                out.seats[key][player] = SEAT_SETTINGS[key](value)
            except PbemError as error:  # a value pbem would not have written
                raise _bad(entry.seq, f"settings: {error}") from None


def _hand_over(out: Rebuilt, entry: Replacement) -> None:
    """A replacement: the seat's name and e-mail (and time zone, since format 4) before it are
    the entry's `old` ones; after
    it, the ones the moderator signed, or else the ones before (its signature and key are
    checked by the public pass before this)."""
    try:
        change = parse_replacement(one_block(entry.seq, entry.block))
    except PbemError as error:
        raise _bad(entry.seq, f"replacement: {error}") from None
    seat = entry.player
    handed = [(key, (out.seats or {}).get(key)) for key in SEAT_SETTINGS if key in FIELDS]
    for key, known in [("name", out.names), ("email", out.emails), *handed]:
        signed = getattr(change, key)
        if known is None:
            continue
        if seat not in known:
            raise _bad(entry.seq, f"replacement: unknown player '{seat}'")
        if str(entry.old.get(key) or "") != known[seat]:
            raise _bad(entry.seq, f"replacement: its old {key} is not the seat's {key} then")
        now = known[seat] if signed is None else signed
        if str(entry.new.get(key) or "") != now:
            raise _bad(entry.seq, f"replacement: its new {key} is not the one the moderator "
                       "signed")
        known[seat] = now


def check_roster(gf: GameFile, entries: list[Entry]) -> None:
    """The roster's names, e-mails, deadlines and seats' own settings are the ones the log
    rebuilds."""
    log = rebuild(entries)
    players = gf.roster["players"]
    if log.seats is not None:
        _check_seats(gf.roster, log.seats)
    if log.names is not None:
        if [p["id"] for p in players] != list(gf.state.get("seats") or []):
            raise CorruptGameError("the roster's seats are not the game's, in its order")
        if {str(p["id"]): p.get("name") for p in players} != log.names:
            raise CorruptGameError("the roster's player names are not the ones the game began "
                                   "with, as changed by its logged roster changes")
        held = gf.roster.get("moderator")
        moderator = {k: held.get(k) for k in ("name", "email")} if isinstance(held, dict) \
            else held
        if moderator != log.moderator:
            raise CorruptGameError("the roster's moderator name or e-mail address is not the "
                                   "one the game began with")
    if log.emails is not None and \
            {str(p["id"]): str(p.get("email") or "") for p in players} != log.emails:
        raise CorruptGameError("the roster's e-mail addresses are not the ones its logged "
                               "settings and roster changes set")
    if game_language_of(gf) != log.language:
        raise CorruptGameError("the roster's game language is not the one the game began with, "
                               "as changed by its logged settings changes")
    if log.deadlines is not None and not _same_deadlines(gf.roster, log):
        raise CorruptGameError("the roster's deadlines or NMR policy are not the ones its "
                               "logged settings changes set")


def _check_seats(roster: Data, seats: dict[str, dict[str, Any]]) -> None:
    """Each seat's own settings as logged, and no key that nothing binds (docs/security.md)."""
    for place, held, known in [("roster", roster, ROSTER_KEYS),
                               ("roster's moderator", moderator if isinstance(
                                   moderator := roster.get("moderator"), dict) else {},
                                MODERATOR_KEYS),
                               *((f"roster's seat {p.get('id')}", p, SEAT_KEYS | set(seats))
                                 for p in roster["players"])]:
        unknown = sorted(str(key) for key in held if key not in known)
        if unknown:
            raise CorruptGameError(f"the {place} holds '{unknown[0][:40]}', which pbem does not "
                                   f"know; keys: {', '.join(sorted(known))}")
    for key, values in seats.items():
        if {str(p["id"]): p.get(key, "") for p in roster["players"]} != values:
            raise CorruptGameError(f"the roster's {key} settings are not the ones the game "
                                   "began with, as changed by its logged settings and roster "
                                   "changes")


def _same_deadlines(roster: Data, log: Rebuilt) -> bool:
    """`roster.deadlines` as pbem writes it: exactly the logged policy once a logged change has
    written it; before that (a game's first settings), absent only while the policy is the
    default, and otherwise read as pbem reads it (policy_of)."""
    held = roster.get("deadlines")
    if log.written or held is not None and not isinstance(held, dict):
        return held == log.deadlines
    if held is None:
        return log.deadlines == DEFAULT_DEADLINES
    return policy_data(policy_from(held)) == log.deadlines
