"""Deadlines, timeouts and replacing a player: the clock side of a game played by mail.

`roster.deadlines` holds a duration per decision (an action name, or `default`) and the NMR
policy for main turns (`wait` or `skip`); a player may have a `timezone`. Since format 3 every
change of the policy or of an e-mail address is also a log entry (pbem.pipeline.clock), which
verify replays: the roster must agree with it. When a decision
started is kept by the post book (pbem.delivery.mail), so no clock time enters the game's state.

`pbem timeout` (pbem.pipeline.timeout) applies the defaults of overdue players; a
moderator-signed block replaces a player (pbem.pipeline.replace).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.agenda import next_pending, waiting_for
from engine.core.records import dataclass_on_first_use  # start-up: made when first built
from pbem import i18n
from pbem.errors import UsageError
from pbem.rulesets import ruleset_of
from pbem.store import gamefile
from pbem.store.gamefile import GameFile
from pbem.words import decision_phrase

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

NMR_POLICIES = ("wait", "skip")
MAIN_TURN_ACTIONS = frozenset({"turn", "play", "acquire", "expand"})  # the NMR policy governs these
MODERATOR = "moderator"
# a roster entry's replaceable fields (a replacement's block lines)
FIELDS = ("name", "email", "key", "timezone", "language")
_DURATION = re.compile(r"(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?")
_MAX_STEPS = 200


# --- settings -------------------------------------------------------------------------------


def parse_duration(text: str) -> timedelta:
    """'72h', '3d', '90m', '1d12h'; a bare number means hours."""
    value = str(text).strip().lower().replace(" ", "")
    if value.isdigit():
        value += "h"
    match = _DURATION.fullmatch(value)
    if not value or match is None or not any(match.groups()):
        raise UsageError(f"'{text}' is not a duration; write e.g. 72h, 3d, 90m or 1d12h")
    days, hours, minutes = (int(group or 0) for group in match.groups())
    duration = timedelta(days=days, hours=hours, minutes=minutes)
    if duration > timedelta(days=3650):
        raise UsageError(f"'{text}' is longer than ten years; write e.g. 72h or 3d")
    return duration


@dataclass_on_first_use(frozen=True)
class Policy:
    decisions: dict[str, str]  # action name or "default" -> duration text
    nmr: str
    absence: str | None = None  # each player's absence allowance in this game (issue 24)

    def duration_for(self, action: str) -> timedelta | None:
        text = self.decisions.get(action, self.decisions.get("default"))
        return None if text is None else parse_duration(text)


def policy_from(data: dict[str, Any]) -> Policy:
    """A policy as the roster and the log hold it: {decisions, nmr[, absence]}."""
    absence = data.get("absence")
    return Policy(dict(data.get("decisions") or {}), str(data.get("nmr") or "wait"),
                  str(absence) if absence else None)


def policy_of(gf: GameFile) -> Policy:
    return policy_from(gf.roster.get("deadlines") or {})


def merged_policy(gf: GameFile, changes: dict[str, str | None], nmr: str | None,
                  absence: str | None = None) -> Policy:
    """The policy with `changes` made (None removes a decision's deadline), every name and
    duration checked; nothing is written (pbem.pipeline.handover logs the change)."""
    if absence is not None:
        parse_duration(absence)
    if nmr is not None and nmr not in NMR_POLICIES:
        raise UsageError(f"unknown NMR policy '{nmr}'; policies: {', '.join(NMR_POLICIES)}")
    known = sorted(ruleset_of(gf).actions)
    policy = policy_of(gf)
    decisions = dict(policy.decisions)
    for name, value in changes.items():
        if name != "default" and name not in known:
            raise UsageError(f"unknown decision '{name}'; decisions: default, "
                             f"{', '.join(known)}")
        if value is None:
            decisions.pop(name, None)
        else:
            parse_duration(value)
            decisions[name] = value.strip().lower()
    return Policy(dict(sorted(decisions.items())), nmr or policy.nmr,
                  absence.strip().lower() if absence is not None else policy.absence)


def policy_data(policy: Policy) -> dict[str, Any]:
    """The policy as stored and logged; `absence` only once an allowance is set, so a game
    without one stores what it always did."""
    data: dict[str, Any] = {"decisions": dict(sorted(policy.decisions.items())),
                            "nmr": policy.nmr}
    if policy.absence is not None:
        data["absence"] = policy.absence
    return data


def store_policy(gf: GameFile, policy: Policy) -> None:
    gf.roster["deadlines"] = policy_data(policy)


def check_zone(name: str) -> ZoneInfo:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # start-up: only a time zone's

    shown = name if len(name) <= 60 else name[:57] + "..."
    try:
        if len(name) > 60:
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # a tzdata folder is an OSError
        raise UsageError(f"unknown timezone '{shown}'; use an IANA name such as "
                         "Europe/Lisbon") from None


DIGESTS = ("each", "daily")


def set_roster_fields(path: Path, zones: dict[str, str], digests: dict[str, str],
                      languages: dict[str, str] | None = None) -> None:
    """Set players' time zones, digest choices and languages (checked by the caller): every
    pair is checked before anything is written."""
    for zone in zones.values():
        check_zone(zone)
    for choice in digests.values():
        if choice not in DIGESTS:
            raise UsageError(f"unknown digest '{choice}'; choose {' or '.join(DIGESTS)}")
    with gamefile.locked(path):
        gf = gamefile.load(path)
        for player in [*zones, *digests, *(languages or {})]:
            if gf.roster_entry(player) is None:
                raise UsageError(f"unknown player '{player}'; players: "
                                 f"{', '.join(gf.player_ids())}")
        for field, values in (("timezone", zones), ("digest", digests),
                              ("language", languages or {})):
            for player, value in values.items():
                entry = gf.roster_entry(player)
                assert entry is not None
                entry[field] = value
        gamefile.write_atomic(path, gamefile.dump_text(gf))


def zone_of(gf: GameFile, player: str | None) -> str | None:
    entry = gf.roster_entry(player) if player else None
    if entry is None and player == MODERATOR:
        entry = gf.roster.get("moderator")
    return str(entry["timezone"]) if entry and entry.get("timezone") else None


def local_time(moment: datetime, zone: str | None, lang: str = i18n.SOURCE) -> str:
    """'Fri 05 Mar 2027 18:00 WET (Europe/Lisbon)', or in UTC without a timezone; the date as
    the reader's language writes it (its catalog gives the pattern: Hungarian '2027. 03. 05.
    18:00', with no English day or month name)."""
    # TRANSLATORS: a strftime pattern; %a and %b would be English day and month names
    pattern = i18n.translations(lang).gettext("%a %d %b %Y %H:%M")
    if zone is None:
        return f"{moment.astimezone(UTC).strftime(pattern)} UTC"
    local = moment.astimezone(check_zone(zone))
    return f"{local.strftime(pattern)} {local.strftime('%Z')} ({zone})"


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)  # deadlines added to it stay within year 9999


def parse_time(text: str) -> datetime:
    """An ISO 8601 time, within years 2000 to 9000 (so every deadline can be computed)."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
        moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
        if not EARLIEST <= moment <= LATEST:
            raise ValueError(text)
    except (ValueError, OverflowError):
        raise UsageError(f"'{text}' is not a time between 2000 and 9000; write e.g. "
                         "2027-03-05T18:00:00Z") from None
    return moment


# --- what is due ----------------------------------------------------------------------------


@dataclass_on_first_use(frozen=True)
class Due:
    player: str
    action: str
    decision: str
    deadline: datetime | None
    started: datetime | None = None  # when this player's clock started (None: stopped)

    def is_late(self, now: datetime) -> bool:
        return self.deadline is not None and now >= self.deadline


def clock_key(gf: GameFile) -> str:
    """What a deadline clock belongs to: a player's whole turn (while the state's turn is
    theirs), else the pending decision itself (an out-of-turn answer, a simultaneous one)."""
    node = next_pending(gf.agenda)
    if node is None:
        return f"over:{gf.seq}"
    if "players" not in node:
        turn = gf.state.get("turn")
        if isinstance(turn, dict) and turn.get("player") == node.get("player"):
            return f"turn:{turn.get('number')}:{node['player']}"
    return f"node:{node['id']}"


def due_now(gf: GameFile, since: datetime) -> list[Due]:
    """Who owes the pending decision and by when (the clock started at `since`); the public
    agenda says who owes what in every mode."""
    node = next_pending(gf.agenda)
    if node is None or gf.state.get("over"):
        return []
    duration = policy_of(gf).duration_for(str(node["action"]))
    decision = decision_phrase(ruleset_of(gf).name, str(node["action"]), you=False)
    dues = []
    for player in waiting_for(gf.agenda):
        started = clock_start(gf, player, since)
        deadline = started + duration if duration is not None and started else None
        dues.append(Due(player, str(node["action"]), decision, deadline, started))
    return dues


def clock_start(gf: GameFile, player: str, since: datetime) -> datetime | None:
    """When a player's clock started (issue 24): at `since`, or later, from the full deadline,
    when their last absence or the last pause ended after it; None while the game is paused
    (pbem.pipeline.life keeps `roster.life`)."""
    life = gf.roster.get("life") or {}
    pause = life.get("pause") or {}
    if pause.get("state") == "paused":
        return None
    ends = [pause.get("resumed"), dict(life.get("away") or {}).get(player, {}).get("until")]
    return max([since, *(parse_time(str(end)) for end in ends if end)])
