"""Deadlines, timeouts and replacing a player: the clock side of a game played by mail.

Settings live in the roster, outside the state hash, so changing them never makes a block
stale: `roster.deadlines` holds a duration per decision (an action name, or `default`) and the
NMR policy for main turns (`wait` or `skip`); a player may have a `timezone`. When a decision
started is kept by the post book (pbem.delivery.mail), so no clock time enters the game's state.

`pbem timeout` applies the ruleset's default (`Action.default`) to overdue decisions in a
`timeout` entry marked `automatic`; verify re-derives every line. A moderator-signed block
(`player: moderator`; `replace BANK`, `key HEX`, `email ADDR`, `name TEXT`, `timezone ZONE`)
replaces a player in a `correction` entry holding the old and new roster entries, so verify
checks older blocks against the key that signed them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.core import sealing
from engine.core.adjudicate import answer, asked, run_automatic
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import Chance, SeedNeeded
from engine.core.errors import InvariantViolation, RuleError
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table
from pbem.errors import UsageError
from pbem.pipeline.service import EngineBug, draws_data, public_texts
from pbem.rulesets import ruleset_for, table_of
from pbem.store import gamefile, hidden, seeds
from pbem.store.gamefile import GameFile, current_hash

NMR_POLICIES = ("wait", "skip")
MAIN_TURN_ACTIONS = frozenset({"turn", "play", "acquire", "expand"})  # the NMR policy governs these
MODERATOR = "moderator"
FIELDS = ("name", "email", "key", "timezone")  # a roster entry's replaceable fields
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
    return timedelta(days=days, hours=hours, minutes=minutes)


@dataclass(frozen=True)
class Policy:
    decisions: dict[str, str]  # action name or "default" -> duration text
    nmr: str

    def duration_for(self, action: str) -> timedelta | None:
        text = self.decisions.get(action, self.decisions.get("default"))
        return None if text is None else parse_duration(text)


def policy_of(gf: GameFile) -> Policy:
    data = gf.roster.get("deadlines") or {}
    return Policy(dict(data.get("decisions") or {}), str(data.get("nmr") or "wait"))


def set_policy(path: Path, changes: dict[str, str | None], nmr: str | None) -> Policy:
    """Set (or with None, remove) decision deadlines and the NMR policy; no log entry."""
    if nmr is not None and nmr not in NMR_POLICIES:
        raise UsageError(f"unknown NMR policy '{nmr}'; policies: {', '.join(NMR_POLICIES)}")
    with gamefile.locked(path):
        gf = gamefile.load(path)
        known = sorted(ruleset_for(str(gf.game["ruleset"])).actions)
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
        data: dict[str, Any] = {"decisions": dict(sorted(decisions.items())),
                                "nmr": nmr or policy.nmr}
        gf.roster["deadlines"] = data
        gamefile.write_atomic(path, gamefile.dump_text(gf))
        return policy_of(gf)


def check_zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"unknown timezone '{name}'; use an IANA name such as Europe/Lisbon") \
            from None


def set_timezone(path: Path, player: str, zone: str) -> None:
    check_zone(zone)
    with gamefile.locked(path):
        gf = gamefile.load(path)
        entry = gf.roster_entry(player)
        if entry is None:
            raise UsageError(f"unknown player '{player}'; players: {', '.join(gf.player_ids())}")
        entry["timezone"] = zone
        gamefile.write_atomic(path, gamefile.dump_text(gf))


def zone_of(gf: GameFile, player: str | None) -> str | None:
    entry = gf.roster_entry(player) if player else None
    if entry is None and player == MODERATOR:
        entry = gf.roster.get("moderator")
    return str(entry["timezone"]) if entry and entry.get("timezone") else None


def local_time(moment: datetime, zone: str | None) -> str:
    """'Fri 05 Mar 2027 18:00 WET (Europe/Lisbon)', or in UTC without a timezone."""
    if zone is None:
        return moment.astimezone(UTC).strftime("%a %d %b %Y %H:%M UTC")
    local = moment.astimezone(check_zone(zone))
    return f"{local.strftime('%a %d %b %Y %H:%M %Z')} ({zone})"


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"'{text}' is not a time; write e.g. 2027-03-05T18:00:00Z") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


# --- what is due ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Due:
    player: str
    action: str
    decision: str
    deadline: datetime | None

    def is_late(self, now: datetime) -> bool:
        return self.deadline is not None and now >= self.deadline


def due_now(gf: GameFile, since: datetime) -> list[Due]:
    """Who owes the pending decision and by when (the clock started at `since`)."""
    ruleset, table = table_of(gf)
    node = next_pending(table.agenda)
    if node is None or gf.state.get("over"):
        return []
    duration = policy_of(gf).duration_for(str(node["action"]))
    deadline = since + duration if duration is not None else None
    decision = ruleset.actions[node["action"]].decision
    return [Due(p, str(node["action"]), decision, deadline) for p in waiting_for(table.agenda)]


# --- timeouts -------------------------------------------------------------------------------


@dataclass
class TimedOut:
    player: str
    lines: list[str]
    summary: list[str]
    note: str  # why nothing was applied, when `lines` is empty


def timeout_note(player: str, lines: Sequence[str]) -> str:
    return f"{player.title()} did not answer in time; the defaults apply: {'; '.join(lines)}."


def _governed(node: dict[str, Any] | None, player: str, nmr: str, table: Table) -> bool:
    """Whether a timeout of `player` answers this node."""
    if node is None or player not in waiting_for(table.agenda):
        return False
    return not (node["action"] in MAIN_TURN_ACTIONS and nmr == "wait")


def apply_defaults(ruleset: Ruleset, table: Table, player: str, chance: Chance, *,
                   nmr: str = "skip", logged: Sequence[str] | None = None, one: bool = False,
                   ) -> tuple[Table, list[str], list[Event]]:
    """Answer the player's pending decisions with their defaults, on a working copy (with
    `one`, only the first). With `logged` (verify), each logged line must be the default of
    the decision it answered."""
    work, lines, events = table.copy(), list[str](), list[Event]()
    limit = 1 if one else _MAX_STEPS
    while len(lines) < (limit if logged is None else len(logged)):
        node = next_pending(work.agenda)
        if not _governed(node, player, nmr, work):
            if logged is None:
                break
            raise ValueError(f"'{logged[len(lines)]}' answers no decision of {player}")
        assert node is not None
        action = ruleset.actions[node["action"]]
        here = asked(node, player)
        default = action.default(work, here, action.options(work, here))
        if logged is not None and logged[len(lines)] != default.line:
            raise ValueError(f"'{logged[len(lines)]}' is not the default '{default.line}'")
        if sealing.is_committing(node) and player in node["seals"]:
            node["forfeit"] = sorted({*node.get("forfeit", []), player})  # sealed, never opened
        # The default is applied as a choice, not parsed as a line: an NMR "skip" passes the
        # turn with no action, which D1 does not let a player choose (ruling R-701).
        events += answer(ruleset, work, default, chance, player)
        line = default.line
        events += run_automatic(ruleset, work, chance)
        ruleset.check_invariants(work)
        lines.append(line)
    return work, lines, events


def run_timeout(path: Path, since: datetime, now: datetime, *, force: bool = False,
                only: Sequence[str] = ()) -> tuple[GameFile, list[TimedOut]]:
    """Apply the defaults of every overdue player (with `force`, of every owing player)."""
    with gamefile.locked(path):
        gf = gamefile.load(path)
        ruleset, table = table_of(gf)
        nmr = policy_of(gf).nmr
        results: list[TimedOut] = []
        for due in due_now(gf, since):
            if only and due.player not in only:
                continue
            if not (force or due.is_late(now)):
                when = "no deadline" if due.deadline is None else f"due {iso(due.deadline)}"
                results.append(TimedOut(due.player, [], [], f"not overdue ({when})"))
                continue
            _, table = table_of(gf)
            if not _governed(next_pending(table.agenda), due.player, nmr, table):
                results.append(TimedOut(due.player, [], [], "waiting: the NMR policy is 'wait'"))
                continue
            base = {"automatic": True, "deadline": iso(due.deadline) if due.deadline else None,
                    "forced": force}
            if hidden.is_hidden(gf):  # moderated Age of Renaissance: the whole state is needed
                from pbem.pipeline.hidden_apply import timeout_hidden

                try:
                    lines, summary = timeout_hidden(path, gf, due.player, base, nmr)
                except (RuleError, InvariantViolation) as error:
                    raise EngineBug(f"internal error (a default is not legal; the game file is "
                                    f"unchanged): {error}") from None
                results.append(TimedOut(due.player, lines, summary, ""))
                continue
            chance = seeds.chance_for(path, gf, int(gf.state["draws"]))
            try:
                work, lines, events = apply_defaults(ruleset, table, due.player, chance, nmr=nmr)
            except SeedNeeded:
                raise UsageError("the defaults lead to a random draw, which needs the game's "
                                 f"seed file {seeds.seed_path(path, gf).name}") from None
            except (RuleError, InvariantViolation) as error:
                raise EngineBug(f"internal error (a default is not legal; the game file is "
                                f"unchanged): {error}") from None
            prev = current_hash(gf)
            work.state["draws"] = int(gf.state["draws"]) + len(chance.draws)
            gf.seq += 1
            gf.state, gf.agenda = work.state, work.agenda
            summary = [timeout_note(due.player, lines), *public_texts(events)]
            gf.log.append({
                "seq": gf.seq, "kind": "timeout", "player": due.player, **base,
                "lines": lines, "draws": draws_data(chance), "prev_state": prev,
                "post_state": current_hash(gf), "summary": summary,
            })
            results.append(TimedOut(due.player, lines, summary, ""))
        if any(result.lines for result in results) and not hidden.is_hidden(gf):
            gamefile.write_atomic(path, gamefile.dump_text(gf))
        return gf, results
