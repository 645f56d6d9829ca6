"""Absences and pauses as data (issue 24 §1, §2): what the roster's `life` record holds, and
the one set of transitions that both the live path (pbem.pipeline.life_apply) and verify
(pbem.pipeline.life_checks) run, so they cannot disagree.

`roster.life` = {"away": {PLAYER: {"from", "until", "spent"}}, "pause": {...}, "bots":
{PLAYER: FINGERPRINT}}:
- a player's last absence runs from `from` to `until` (ISO, UTC; `back` moves `until` to the
  moment it came); `spent` is the seconds of their earlier absences. The allowance counts each
  absence as planned, until `back` shortens it.
- the pause record's `state` is `proposed` (with `by`, `since`, `deadline`, `signed`), `paused`
  (with `since` and `by`: `players` or the moderator) or `running`; `resumed` is when the last
  pause ended. A pause proposal lapses when its deadline passes before every player signed.
- a seat in `bots` may be answered for by the bot key with that (lower-cased) fingerprint,
  beside the player's own key, until `bot off` (the player's, or the moderator's), or until
  its `bots_until` moment (ISO, UTC; written only when some handover has an end): from then
  the bot key no longer signs, and the next timeout run or block of life logs the end.

The clocks read this record from the game file's head (pbem.delivery.deadlines.clock_start):
a player's deadline counts from the end of their last absence, everyone's from the last resume,
and no deadline runs while the game is paused. Nothing here touches the rules' state.
"""

from __future__ import annotations

import copy
from dataclasses import field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.core.errors import Verbatim
from engine.core.records import dataclass_on_first_use  # start-up: made when first built
from engine.core.table import Event, event
from pbem.delivery.deadlines import MODERATOR, iso, parse_time
from pbem.errors import OrdersRejected
from pbem.orders.life_lines import LifeLine

LIFE = "life"  # the roster's key
PROPOSAL_WINDOW = timedelta(days=3)  # a pause proposal's deadline without a `default` one
Data = dict[str, Any]


def shown(delta: timedelta) -> str:
    """A duration as people write it: '9d 4h', '30m', '0m' (never negative)."""
    minutes = int(max(delta, timedelta(0)).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n]
    return " ".join(parts) or "0m"


def until_of(line: LifeLine, zone: str) -> datetime:
    """`away until`'s end: the date (and time) in the player's zone, as a moment in UTC."""
    from zoneinfo import ZoneInfo  # start-up: only a time zone's

    local = line.local_end().replace(tzinfo=ZoneInfo(zone) if zone else UTC)
    return parse_time(local.astimezone(UTC).isoformat())


@dataclass_on_first_use()
class Life:
    away: dict[str, Data]
    pause: Data
    bots: dict[str, str] = field(default_factory=dict)  # seat -> its bot key's fingerprint
    bots_until: dict[str, str] = field(default_factory=dict)  # seat -> when its handover ends

    @classmethod
    def of(cls, roster: Data) -> Life:
        held = roster.get(LIFE) or {}
        return cls(copy.deepcopy(dict(held.get("away") or {})),
                   copy.deepcopy(dict(held.get("pause") or {})), dict(held.get("bots") or {}),
                   dict(held.get("bots_until") or {}))

    def data(self) -> Data:
        data = {"away": dict(sorted(self.away.items())), "pause": dict(sorted(self.pause.items())),
                "bots": dict(sorted(self.bots.items()))}
        if self.bots_until:  # only then: a record written before `until` reads the same
            data["bots_until"] = dict(sorted(self.bots_until.items()))
        return data

    # --- a seat handed to a bot -------------------------------------------------------------

    def hand_to_bot(self, player: str, fingerprint: str, until: datetime | None = None,
                    at: datetime | None = None) -> Event:
        """`bot on SHA256:...`, optionally `until` a moment (after `at`, when it came)."""
        self.bots_until.pop(player, None)
        if until is None:
            self.bots[player] = fingerprint.lower()
            return event("pbem.bot.on", kind="bot", player=player, key=fingerprint.lower())
        if at is not None and until <= at:
            raise OrdersRejected.keyed("reason:pbem.handover_passed", until=Verbatim(iso(until)))
        self.bots[player], self.bots_until[player] = fingerprint.lower(), iso(until)
        return event("pbem.bot.on_until", kind="bot", player=player, key=fingerprint.lower(),
                     until=iso(until))

    def take_back(self, player: str, by: str = "") -> Event:
        """`bot off` from the player, or (`by` the moderator) `bot off SEAT`."""
        if player not in self.bots:
            raise OrdersRejected.keyed("reason:pbem.not_handed", player=player)
        del self.bots[player]
        self.bots_until.pop(player, None)
        if by == MODERATOR:
            return event("pbem.bot.off_moderator", kind="bot", player=player)
        return event("pbem.bot.off", kind="bot", player=player)

    def handovers_ended(self, at: datetime) -> list[str]:
        """The seats whose handover has reached its end by `at`, unlogged yet."""
        return sorted(p for p, end in self.bots_until.items() if parse_time(end) <= at)

    def end_handover(self, player: str, at: datetime) -> Event:
        end = self.bots_until.get(player)
        if end is None or parse_time(end) > at or player not in self.bots:
            raise ValueError(f"{player}'s handover to a bot had not ended")
        del self.bots[player], self.bots_until[player]
        return event("pbem.bot.ended", kind="bot", player=player, until=end)

    def bot_signs(self, player: str, fingerprint: str, at: datetime | None = None) -> bool:
        """Whether the bot key with this fingerprint may answer for the seat (at `at`: not
        after its handover ended)."""
        end = self.bots_until.get(player)
        if at is not None and end is not None and parse_time(end) <= at:
            return False
        return self.bots.get(player) == fingerprint.lower()

    def store(self, roster: Data) -> None:
        roster[LIFE] = self.data()

    # --- absences -------------------------------------------------------------------------

    def used(self, player: str) -> timedelta:
        """The absence a player has taken or planned in this game."""
        record = self.away.get(player)
        if not record:
            return timedelta(0)
        planned = parse_time(record["until"]) - parse_time(record["from"])
        return timedelta(seconds=int(record["spent"])) + planned

    def away_until(self, player: str, at: datetime) -> datetime | None:
        """When the player's absence ends, if they are away at `at`."""
        record = self.away.get(player)
        if record and parse_time(record["from"]) <= at < parse_time(record["until"]):
            return parse_time(record["until"])
        return None

    def go_away(self, player: str, at: datetime, until: datetime,
                allowance: timedelta | None) -> Event:
        if until <= at:
            raise OrdersRejected.keyed("reason:pbem.absence_passed", until=Verbatim(iso(until)))
        if allowance is None:
            raise OrdersRejected.keyed("reason:pbem.no_absence",
                                       command=Verbatim("pbem deadlines GAME --absence 21d"))
        record = self.away.get(player)
        if record and self.away_until(player, at) is not None:  # away now: a new end
            new = {**record, "until": iso(until)}
        else:
            spent = int(self.used(player).total_seconds())
            new = {"from": iso(at), "until": iso(until), "spent": spent}
        left = allowance - self.used(player)
        asked = Life({player: new}, {}).used(player) - self.used(player)
        if asked > left:
            raise OrdersRejected.keyed(
                "reason:pbem.absence_too_long", until=Verbatim(iso(until)),
                asked=Verbatim(shown(asked)), player=player, left=Verbatim(shown(left)),
                allowance=Verbatim(shown(allowance)))
        self.away[player] = new
        return event("pbem.absence.away", kind="absence", player=player, until=iso(until))

    def come_back(self, player: str, at: datetime) -> Event:
        if self.away_until(player, at) is None:
            raise OrdersRejected.keyed("reason:pbem.not_away", player=player)
        self.away[player] = {**self.away[player], "until": iso(at)}
        return event("pbem.absence.back", kind="absence", player=player)

    # --- pauses ---------------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return self.pause.get("state") == "paused"

    def lapsing(self, at: datetime) -> bool:
        """A proposal whose deadline has passed: it lapses before anything else is logged."""
        return self.pause.get("state") == "proposed" and at >= parse_time(
            self.pause["deadline"])

    def lapse(self, at: datetime) -> Event:
        if not self.lapsing(at):
            raise ValueError("no pause proposal had lapsed")
        said = event("pbem.pause.lapsed", kind="pause", player=self.pause["by"],
                     deadline=self.pause["deadline"])
        self._run(self.pause.get("resumed"))
        return said

    def _run(self, resumed: str | None) -> None:
        self.pause = {"state": "running", **({"resumed": resumed} if resumed else {})}

    def propose(self, player: str, at: datetime, players: list[str],
                window: timedelta) -> list[Event]:
        """`pause` from a player (or the moderator, whose signature alone pauses)."""
        if self.paused:
            raise OrdersRejected.keyed("reason:pbem.already_paused")
        resumed = self.pause.get("resumed")
        if player == MODERATOR:
            self.pause = {"state": "paused", "since": iso(at), "by": MODERATOR}
            return [event("pbem.pause.paused", kind="pause", by=MODERATOR)]
        said = []
        if self.pause.get("state") == "proposed":
            if player in self.pause["signed"]:
                raise OrdersRejected.keyed("reason:pbem.pause_signed", player=player, waiting=[
                    p for p in players if p not in self.pause["signed"]])
            self.pause["signed"] = sorted([*self.pause["signed"], player])
            said.append(event("pbem.pause.signed", kind="pause", player=player))
        else:
            self.pause = {"state": "proposed", "by": player, "since": iso(at),
                          "deadline": iso(at + window), "signed": [player],
                          **({"resumed": resumed} if resumed else {})}
            said.append(event("pbem.pause.proposed", kind="pause", player=player,
                              deadline=iso(at + window)))
        if set(self.pause["signed"]) >= set(players):
            self.pause = {"state": "paused", "since": iso(at), "by": "players"}
            said.append(event("pbem.pause.paused", kind="pause", by="players"))
        return said

    def resume(self, player: str, at: datetime) -> Event:
        if not self.paused:
            raise OrdersRejected.keyed("reason:pbem.not_paused")
        if self.pause["by"] == MODERATOR and player != MODERATOR:
            raise OrdersRejected.keyed("reason:pbem.moderator_paused")
        self._run(iso(at))
        return event("pbem.pause.resumed", kind="pause", player=player)
