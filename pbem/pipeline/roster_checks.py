"""verify's check of the roster against the log (issue 21 §1): the names, e-mail addresses and
deadlines the roster holds are rebuilt from the log alone and must be the roster's.

What the log fixes: the setup entry's settings (the deadlines and e-mails the game began with;
since format 4 each seat's name and the moderator's name and e-mail), the settings entries
(deadlines, the NMR policy, e-mails; an `adopted` snapshot starts a game begun before format 3),
and the replacement entries (a seat's new name or e-mail, as the moderator signed it, taken
over from the name and e-mail the seat had: the entry's `old` must be those). The setup entry's
settings seed the header's trail, which every state hash covers, so none of it can be edited.

Run in the public pass: it needs no state, so it holds before a moderated game's reveal too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.errors import CorruptGameError, PbemError
from pbem.pipeline.replace import parse_replacement
from pbem.pipeline.replay_checks import one_block
from pbem.store.entries import Entry, Replacement, Settings, Setup
from pbem.store.gamefile import GameFile

Data = dict[str, Any]
DEFAULT_DEADLINES: Data = {"decisions": {}, "nmr": "wait"}  # what a roster without any holds


@dataclass
class Rebuilt:
    """The roster as the log says it is; None where the log of an older game says nothing."""

    names: dict[str, str] | None = None  # before format 4: names are not bound
    moderator: Data | None = None  # {name, email}, or None: no moderator
    emails: dict[str, str] | None = None  # before format 3: until the adopted snapshot
    deadlines: Data | None = None
    written: bool = False  # a logged change wrote `roster.deadlines`: it must be there


def _bad(seq: object, problem: str) -> CorruptGameError:
    return CorruptGameError(f"log entry seq {seq}: {problem}")


def rebuild(entries: list[Entry]) -> Rebuilt:
    """The roster's names, e-mails and deadlines after `entries`."""
    out = Rebuilt()
    for entry in entries:
        if isinstance(entry, Setup) and entry.settings is not None:
            out.deadlines = dict(entry.settings["deadlines"])
            out.emails = dict(entry.settings["emails"])
            if "names" in entry.settings:
                out.names = dict(entry.settings["names"])
                out.moderator = entry.settings.get("moderator")
        elif isinstance(entry, Settings):
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


def _hand_over(out: Rebuilt, entry: Replacement) -> None:
    """A replacement: the seat's name and e-mail before it are the entry's `old` ones; after
    it, the ones the moderator signed, or else the ones before (its signature and key are
    checked by the public pass before this)."""
    try:
        change = parse_replacement(one_block(entry.seq, entry.block))
    except PbemError as error:
        raise _bad(entry.seq, f"replacement: {error}") from None
    seat = entry.player
    for key, known, signed in (("name", out.names, change.name),
                               ("email", out.emails, change.email)):
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
    """The roster's names, e-mails and deadlines are the ones the log rebuilds."""
    log = rebuild(entries)
    players = gf.roster["players"]
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
    if log.deadlines is not None and not _same_deadlines(gf.roster, log):
        raise CorruptGameError("the roster's deadlines or NMR policy are not the ones its "
                               "logged settings changes set")


def _same_deadlines(roster: Data, log: Rebuilt) -> bool:
    """`roster.deadlines` as pbem writes it: exactly the logged policy once a logged change has
    written it; before that (a game's first settings), absent only while the policy is the
    default, and otherwise read as pbem reads it (policy_of)."""
    held = roster.get("deadlines")
    if log.written or held is not None and not isinstance(held, dict):
        return held == log.deadlines
    if held is None:
        return log.deadlines == DEFAULT_DEADLINES
    return {"decisions": dict(sorted(dict(held.get("decisions") or {}).items())),
            "nmr": str(held.get("nmr") or "wait")} == log.deadlines
