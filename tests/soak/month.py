"""A host's month under cron (issue 23 §6): three games, scripted players, junk, and the host's
crontab (`inbox`, `remind`, `timeout --mail` and `digest`, every simulated hour with `--now`),
each command run through pbem's own command line, with the checks of every hour.

Run it: `python -m tests.soak.month --days 30` (`make soak-mail`); `tests/soak/test_month.py`
runs one day in `make test`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parseaddr
from pathlib import Path
from unittest import mock

import typer.main
import typer.testing
from typer.testing import CliRunner

from pbem.cli import app
from pbem.orders.signatures import write_keypair
from pbem.store import gamefile
from tests.soak import clients, junk
from tests.soak.players import Player, Sent

START = datetime(2027, 3, 1, tzinfo=UTC)
ENV = {"PBEM_MAIL_FROM": "The host <host@example.org>", "PBEM_DEBUG": ""}
GAMES = {  # game: (ruleset, players), in seat order
    "lisbon": ("pax", ["ada", "ben", "cy"]),  # cy goes on holiday
    "porto": ("pax", ["dan", "eve", "fay", "gus"]),  # gus's mailbox is full
    "florence": ("aor", ["hal", "ivy", "jon"]),  # moderated, with its secrets file
}
HOLIDAY_PLAYER, FULL_PLAYER = "cy", "gus"
DAILY = ("ben", "eve", "fay", "hal", "ivy", "jon")  # players who chose one digest a day:
# all of Age of Renaissance, a turn of many small decisions taken one player after another


class Month:
    def __init__(self, folder: Path, days: int, seed: str = "soak") -> None:
        self.folder, self.days, self.rng = folder, days, random.Random(seed)
        self.maildir, self.outbox = folder / "Maildir", folder / "outbox"
        self.runner = CliRunner()
        # Typer builds the command tree from the annotations on every invoke: once is enough.
        self.command = typer.main.get_command(app)
        self.players: dict[str, Player] = {}
        self.paths: dict[str, Path] = {}
        self.blocks: dict[str, Sent] = {}  # Message-ID of a player's block mail: the block
        self.kinds: dict[str, str] = {}  # Message-ID of every mail dropped: what it was
        self.rejected: dict[str, int] = {}  # Message-ID answered by a rejection: the seq then
        self.listed: set[str] = set()  # Maildir names an inbox run has listed
        self.mails: dict[str, Counter[int]] = defaultdict(Counter)  # address: day -> mails
        self.sent_kinds: Counter[str] = Counter()  # the players' mail by kind
        self.bounced: Counter[str] = Counter()  # "permanent" / "delayed" DSNs dropped for gus
        self.later: list[tuple[int, bytes, str]] = []  # (hour, raw, kind) to drop
        self.problems: list[str] = []
        self.commands = 0
        self.styles: Counter[str] = Counter()
        self.junk: Counter[str] = Counter()

    # --- setting up ---------------------------------------------------------------------

    def setup(self) -> None:
        for sub in ("new", "cur", "tmp"):
            (self.maildir / sub).mkdir(parents=True, exist_ok=True)
        keys = self.folder / "keys"
        keys.mkdir(exist_ok=True)
        write_keypair(keys / "max", "max", "max@example.org")
        holiday = range(24, 24 * 9) if self.days >= 10 else range(3, 15)
        for game, (ruleset, names) in GAMES.items():
            for name in names:
                write_keypair(keys / name, name, f"{name}@players.example")
            path = self.folder / f"{game}.yaml"
            self.paths[game] = path
            self.cmd(["new", str(path), *[a for n in names for a in ("--player",
                                                                       str(keys / f"{n}.pub"))],
                      "--moderator", str(keys / "max.pub"), "--ruleset", ruleset,
                      "--seed", f"{game}-{self.days}"])
            deadline = "48h" if self.days >= 7 else "6h"
            self.cmd(["deadlines", str(path), "--key", str(keys / "max.key"), "--set",
                      f"default={deadline}", "--nmr", "skip", "--now", _iso(START)])
            roster = gamefile.load(path).roster["players"]
            daily = [f"{p['id']}=daily" for p in roster if p["name"] in DAILY]
            if daily:
                self.cmd(["roster", str(path), "--key", str(keys / "max.key"),
                          *[a for d in daily for a in ("--digest", d)]])
            for entry in roster:
                name = str(entry["name"])
                self.players[str(entry["email"])] = Player(
                    name, path, str(entry["id"]), str(entry["email"]), keys / f"{name}.key",
                    random.Random(f"{game}-{name}"),
                    holiday=holiday if name == HOLIDAY_PLAYER else range(0),
                    mailbox_full=name == FULL_PLAYER)
            self.cmd(["send", str(path), "--outbox", str(self.outbox), "--now", _iso(START)])
        self.collect(0)

    # --- commands -----------------------------------------------------------------------

    def cmd(self, args: list[str]) -> str:
        self.commands += 1
        with mock.patch.object(typer.testing, "_get_command", lambda _: self.command):
            result = self.runner.invoke(app, args, env=ENV)
        with (self.folder / "cron.log").open("a", encoding="utf-8") as log:
            log.write(f"$ pbem {' '.join(args)}\n{result.stdout}{result.stderr}")
        if result.exit_code != 0:
            self.problems.append(f"exit {result.exit_code}: pbem {' '.join(args[:2])}: "
                                 f"{(result.stderr or result.stdout).strip()[:300]}")
        return result.stdout

    def hour(self, hour: int) -> None:
        now = START + timedelta(hours=hour)
        self.drop_due(hour, now)
        games = [str(p) for p in self.paths.values()]
        out = self.cmd(["inbox", *games, "--maildir", str(self.maildir), "--outbox",
                        str(self.outbox), "--now", _iso(now)])
        self.check_listing(out)
        self.check_finished()
        self.collect(hour)
        for path in self.paths.values():
            moment = ["--outbox", str(self.outbox), "--now", _iso(now)]
            self.cmd(["remind", str(path), *moment])
            self.cmd(["timeout", str(path), "--mail", *moment])
            self.cmd(["digest", str(path), *moment])
            self.collect(hour)
        self.check_blocks()
        self.check_bounces()

    # --- mail in and out ----------------------------------------------------------------

    def drop(self, raw: bytes, kind: str, name: str) -> None:
        parsed = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        try:
            ident = str(parsed.get("Message-ID", "")).strip()
        except Exception:  # noqa: BLE001 - a junk header the parser rejects
            ident = ""
        if ident:
            self.kinds[ident] = kind
        tmp = self.maildir / "tmp" / name
        tmp.write_bytes(raw)
        tmp.rename(self.maildir / "new" / name)

    def drop_due(self, hour: int, now: datetime) -> None:
        count = 0

        def name(kind: str) -> str:
            nonlocal count
            count += 1
            return f"{int(now.timestamp())}.M{count}.{kind}.soak"

        due = [item for item in self.later if item[0] <= hour]
        self.later = [item for item in self.later if item[0] > hour]
        for _, raw, kind in due:
            self.drop(raw, kind, name(kind))
        for player in self.players.values():
            style = self.rng.choice(sorted(clients.STYLES))
            answered = player.answer(hour, now, style)
            if answered is None:
                continue
            raw, sent = answered
            ident = str(BytesParser(policy=policy.default).parsebytes(raw)["Message-ID"]).strip()
            self.blocks[ident] = sent
            self.styles[style] += 1
            self.drop(raw, "block", name("block"))
        for raw, kind in self.junk_for(hour, now):
            self.junk[kind] += 1
            self.drop(raw, kind, name("junk"))

    def junk_for(self, hour: int, now: datetime) -> list[tuple[bytes, str]]:
        """Junk every three hours, a different kind each time (every kind within a day)."""
        if hour % 3 != 2:
            return []
        n = hour // 3
        some = next(reversed(self.blocks), None)  # the newest block a player sent
        kinds: list[tuple[bytes, str]] = [
            (junk.malformed(n), "malformed"), (junk.spam(n, now), "spam"),
            (junk.invalid_utf8(now), "invalid utf-8"), (junk.stranger_question(now), "stranger"),
            (junk.big_attachment("dan@players.example", now), "270 KB attachment"),
            (junk.postfix(f"nobody{n}@spam.example", now), "stranger bounce"),
        ]
        if some is not None:
            kinds.append((junk.phishing(self.blocks[some].text, now), "phishing"))
        picked = [kinds[n % len(kinds)]]
        if hour % 24 == 5:
            picked.append((junk.malformed(n + 7), "malformed"))
        return picked

    def collect(self, hour: int) -> None:
        """Hand each message in the outbox to its reader, and check who it went to."""
        if not self.outbox.is_dir():
            return
        found = []
        for path in self.outbox.glob("*.eml"):
            message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            path.unlink()
            assert isinstance(message, EmailMessage)
            found.append((int(str(message["X-Pbem-Seq"])), path.name, message))
        for _, _, message in sorted(found, key=lambda item: item[:2]):
            address = parseaddr(str(message["To"]))[1].lower()
            self.mails[address][hour // 24] += 1
            kind = str(message["X-Pbem-Kind"])
            if kind in ("receipt", "rejection"):
                self.check_answer(message, kind)
            player = self.players.get(address)
            if player is not None:  # a mover who acts again: the receipt carries the report
                carries = kind == "receipt" and player.asks_for_orders(message)
                self.sent_kinds["receipt with report" if carries else kind] += 1
            if player is None:
                if address != "max@example.org":
                    self.problems.append(f"mail to a stranger {address}: {message['Subject']}")
                continue
            if player.mailbox_full:
                self.bounce(player, hour, message)
                continue
            when = START + timedelta(hours=hour)
            if player.away(hour) and hour // 24 not in player.replied_days:
                player.replied_days.add(hour // 24)
                marked = len(player.replied_days) % 2 == 0
                self.later.append((hour + 1, junk.vacation(player.address, message, when,
                                                           marked=marked),
                                   "auto-reply" if marked else "auto-reply, unmarked"))
            player.receive(message, hour)

    def bounce(self, player: Player, hour: int, message: EmailMessage) -> None:
        """A full mailbox: a delay notice now and then, and a failure for every message."""
        when = START + timedelta(hours=hour)
        total = sum(self.bounced.values())
        if total % 4 == 3:
            self.later.append((hour + 1, junk.delayed(player.address, when), "delay"))
            self.bounced["delayed"] += 1
        dsn = junk.PERMANENT[total % len(junk.PERMANENT)]
        self.later.append((hour + 2, dsn(player.address, when), "bounce"))
        self.bounced["permanent"] += 1
        del message

    # --- the checks ---------------------------------------------------------------------

    def check_answer(self, message: EmailMessage, kind: str) -> None:
        parent = str(message.get("In-Reply-To", "")).strip()
        what = self.kinds.get(parent)
        if what != "block":
            self.problems.append(f"{kind} answered a {what or 'unknown'} message: "
                                 f"{message['Subject']}")
        elif kind == "rejection":
            self.rejected[parent] = int(str(message["X-Pbem-Seq"]))

    def check_listing(self, out: str) -> None:
        for line in out.splitlines():
            where = line.split(" ", 1)[0]
            if not where.startswith(("new/", "cur/")):
                continue
            base = where.split("/", 1)[1].split(":", 1)[0]
            if base in self.listed:
                self.problems.append(f"listed twice: {line[:160]}")
            self.listed.add(base)

    def check_finished(self) -> int:
        """Every message left unread in cur/ is one the post book remembers, so no later run
        opens it again; how many there are."""
        unread = {path.name.split(":", 1)[0] for path in (self.maildir / "cur").iterdir()
                  if "S" not in path.name.partition(":2,")[2]}
        book = json.loads(self.paths["lisbon"].with_suffix(".post.json").read_text())
        known = set(book.get("finished", {}).get(str(self.maildir.resolve()), []))
        if unread - known:
            self.problems.append(f"left unread but not remembered: {sorted(unread - known)[:3]}")
        return len(unread)

    def check_blocks(self, everything: bool = False) -> None:
        """Every block dropped so far: applied at most once; a valid one applied, or refused
        only because the game had moved on by the time it was read. (The log of a game is read
        only in an hour when a block for it was sent; then all its blocks are counted again.)"""
        applied: Counter[str] = Counter()
        fresh = {s.game for s in self.blocks.values() if s.valid or everything}
        for game, path in self.paths.items():
            if game not in fresh:
                continue
            for entry in gamefile.load(path).log:
                applied[str(entry.get("payload_sha256"))] += 1
                if entry.get("kind") == "sealed":
                    applied[f"sealed:{entry.get('player')}:{entry.get('node')}"] += 1
        for ident, sent in list(self.blocks.items()):
            if sent.game not in fresh:
                continue
            count = applied[sent.sha]
            if count > 1:
                self.problems.append(f"applied {count} times: {sent}")
            if sent.valid and count == 0 and self.rejected.get(ident, sent.seq) <= sent.seq:
                self.problems.append(f"a valid block was lost or refused: {sent}")
            if count or ident in self.rejected or sent.valid:
                sent.valid = False  # settled: checked once

    def check_bounces(self) -> None:
        """Every failure notice for the full mailbox is shown by `status`."""
        if not self.bounced or any(kind in ("bounce", "delay") for _, _, kind in self.later):
            return
        porto = self.paths["porto"]
        shown = self.cmd(["status", str(porto)])
        seat = next(p.seat for p in self.players.values() if p.mailbox_full)
        want = f"mail: {seat}: mail bouncing since"
        counts = [f"{self.bounced[k]} {k}" for k in ("permanent", "delayed") if self.bounced[k]]
        if want not in shown or f"({', '.join(counts)})" not in shown:
            self.problems.append(f"status does not show the bounces ({', '.join(counts)}): "
                                 f"{shown.strip().splitlines()[-1:]}")

    def finish(self) -> None:
        self.check_blocks(everything=True)
        for path in self.paths.values():
            secrets = path.with_suffix(".seed")
            self.cmd(["verify", str(path), *(["--secrets", str(secrets)]
                                             if secrets.exists() else [])])

    # --- figures ------------------------------------------------------------------------

    def figures(self, days: int | None = None) -> dict[str, object]:
        """The month's figures (or those of its first `days`, while it runs)."""
        days = days or self.days
        per_player = {p.name: sum(self.mails[a].values()) / days
                      for a, p in self.players.items()}
        worst = max((max(self.mails[a].values(), default=0), self.players[a].name)
                    for a in self.players)
        ends = {}
        for game, path in self.paths.items():
            gf = gamefile.load(path)
            ends[game] = {"seq": gf.seq, "over": bool(gf.state.get("over")),
                          "timeouts": sum(1 for e in gf.log if e.get("kind") == "timeout")}
        per_game = {game: round(sum(per_player[n] for n in names) / len(names), 2)
                    for game, (_, names) in GAMES.items()}
        return {"days": days, "commands": self.commands, "problems": len(self.problems),
                "mails_per_player_day": round(sum(per_player.values()) / len(per_player), 2),
                "per_game": per_game,
                "per_player": {k: round(v, 2) for k, v in sorted(per_player.items())},
                "worst_day": worst, "by_kind": dict(self.sent_kinds), "games": ends,
                "blocks_sent": sum(self.styles.values()), "unread_in_cur": self.check_finished(),
                "styles": dict(self.styles), "junk": dict(self.junk),
                "bounces": dict(self.bounced)}

    def run(self, progress: bool = False, hours: int | None = None) -> dict[str, object]:
        self.setup()
        for hour in range(hours if hours is not None else self.days * 24):
            self.hour(hour)
            if progress and hour % 24 == 23:
                print(f"day {hour // 24 + 1}: {self.commands} commands, "
                      f"{len(self.problems)} problem(s); {self.figures(hour // 24 + 1)}",
                      file=sys.stderr, flush=True)
        self.finish()
        return self.figures()


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--folder", type=Path, default=Path("soak-mail"))
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    started = time.process_time()
    month = Month(args.folder, args.days)
    figures = month.run(progress=True)
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(f"cpu seconds: {time.process_time() - started:.0f}")
    for problem in month.problems[:50]:
        print(f"PROBLEM: {problem}")
    return 1 if month.problems else 0


if __name__ == "__main__":
    sys.exit(main())
