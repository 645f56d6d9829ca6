"""Scripted players: each reads the mail it gets, and when a report (or a rejection, or a
reminder) asks for its orders, answers it some hours later with a signed block in one of the
mail-client styles. Lines are chosen by pbem's self-play policy among the game's options, looking
ahead within the player's own turn (a line that draws or rolls ends the block, as the order
language asks)."""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import NoChance, SeedNeeded
from pbem.orders.orderblock import canonical_payload
from pbem.orders.signing import sign_orders
from pbem.pipeline.envelope import parallel_window
from pbem.pipeline.opening import open_game
from pbem.play.policy import Policy
from tests.soak import clients

SKELETON = re.compile(r"^game: (\S+)\nplayer: (\S+)\nseq: (\d+)\nstate: (\S+)\n", re.M)
PACE = (2, 3, 4, 6, 8, 10, 12, 16, 20)  # hours until a player answers: mail read twice a day
MAX_LINES = 6  # a block holds at most this much of a turn


@dataclass
class Sent:
    """A block a player mailed: what the checks follow."""
    game: str
    seat: str
    seq: int
    sha: str  # the payload's hash, as the log keeps it; or "sealed:SEAT:NODE"
    valid: bool  # signed against the game's state when it was sent
    style: str
    hour: int
    text: str = ""  # the signed block itself (a phisher copies it)


@dataclass
class Player:
    name: str
    game: Path
    seat: str
    address: str
    key: Path
    rng: random.Random
    holiday: range = range(0)  # simulated hours away (mail piles up, a responder answers)
    mailbox_full: bool = False  # every mail to them bounces
    pending: EmailMessage | None = None  # the newest mail asking for their orders
    due: int | None = None  # the hour they will answer it
    replied_days: set[int] = field(default_factory=set)  # days their responder answered
    policy: Policy = field(default_factory=Policy)
    sealed_node: str = ""  # the sealed decision the last block answered

    def away(self, hour: int) -> bool:
        return hour in self.holiday

    def asks_for_orders(self, message: EmailMessage) -> bool:
        match = SKELETON.search(clients.original_text(message))
        return match is not None and match.group(2) == self.seat and \
            "# your orders here" in clients.original_text(message)

    def receive(self, message: EmailMessage, hour: int) -> None:
        """Mail is read in the order of its seq: a later mail that does not ask for orders (a
        receipt, a digest) means the request was answered, or timed out, meanwhile."""
        if self.pending is not None and _seq(message) > _seq(self.pending) and \
                not self.asks_for_orders(message):
            self.pending = self.due = None
        if self.asks_for_orders(message) and (self.pending is None or
                                              _seq(message) >= _seq(self.pending)):
            self.pending = message
            if self.due is None:
                self.due = max(hour, self.holiday.stop if self.away(hour) else hour) + \
                    self.rng.choice(PACE)

    def answer(self, hour: int, when: datetime, style: str) -> tuple[bytes, Sent] | None:
        """The signed block answering the newest request, in `style`; None if none is due."""
        if self.pending is None or self.due is None or hour < self.due or self.away(hour):
            return None
        report, self.pending, self.due = self.pending, None, None
        match = SKELETON.search(clients.original_text(report))
        assert match is not None
        game_id, seat, seq, state = match.group(1), match.group(2), int(match.group(3)), \
            match.group(4)
        lines, valid = self.choose(seq, state, report)
        header = f"game: {game_id}\nplayer: {seat}\nseq: {seq}\nstate: {state}\n\n"
        block = sign_orders(header + "\n".join(lines) + "\n", self.key, None)
        sha = hashlib.sha256(canonical_payload(game_id, seat, seq, state, lines)).hexdigest()
        if self.sealed_node:  # the log keeps a sealed answer's commitment, not its payload
            sha = f"sealed:{seat}:{self.sealed_node}"
        raw = clients.STYLES[style](block, self.address, report, when)
        return raw, Sent(game_id, seat, seq, sha, valid, style, hour, block)

    def choose(self, seq: int, state: str, report: EmailMessage) -> tuple[list[str], bool]:
        """Lines for the turn, looking ahead on a copy of the game's table. A report still
        fits while a simultaneous decision it asked for is open (the host takes a block
        written against any state since it opened); a stale report (the game moved on) gets
        one of its own legal lines, which the host will refuse."""
        game = open_game(self.game)
        node = next_pending(game.gf.agenda)
        self.sealed_node = str(node["id"]) if node and node.get("sealed") else ""
        fits = parallel_window(game).get(seq) == state.lower()
        if not fits or self.seat not in waiting_for(game.gf.agenda):
            return [self.rng.choice(report_lines(report) or ["end"])], False
        ruleset, probe = game.ruleset, game.table()
        self.policy.rng = self.rng
        lines: list[str] = []
        node = next_pending(probe.agenda)
        while len(lines) < MAX_LINES and node is not None and \
                self.seat in waiting_for(probe.agenda):
            options = options_now(ruleset, probe, self.seat)
            if not options:
                break
            choice = self.policy.choose(ruleset, probe, self.seat, options)
            lines.append(choice.line)
            if "players" in node:
                break  # a simultaneous answer may be the last one in, and its resolution roll
            try:
                answer(ruleset, probe, choice, NoChance(), self.seat)
                run_automatic(ruleset, probe, NoChance())
            except SeedNeeded:
                break
            following = next_pending(probe.agenda)
            if following is None or "players" in following:
                break  # a simultaneous decision comes next: answer it on its own report
            node = following
        return lines, True


def _seq(message: EmailMessage) -> int:
    return int(str(message.get("X-Pbem-Seq", "0")))


def report_lines(report: EmailMessage) -> list[str]:
    """The legal lines a report lists, laid out in columns two spaces apart at least (a Pax
    report after 'Legal lines (N)', an Age of Renaissance one after 'You must ...' under YOUR
    ORDERS); a range 'bid 0..40' gives its first line."""
    text = clients.original_text(report)
    found: list[str] = []
    indent: str | None = None  # what a row of lines starts with; None before the menu
    orders = False  # under the heading YOUR ORDERS
    for line in text.splitlines():
        orders = orders or line.startswith("YOUR ORDERS")
        if line.startswith("Legal lines (") or orders and line.startswith("You must "):
            indent = "    " if line.startswith("Legal") else ""
            continue
        if indent is not None and line.startswith(
                ("Your block", "A line that", "-----BEGIN", "LOW..HIGH")):
            break
        if indent is not None and line.startswith(indent) and line.strip():
            cells = [cell for cell in re.split(r"\s{2,}", line.strip()) if cell]
            found += [re.sub(r" (\d+)\.\.\d+$", r" \1", cell) for cell in cells]
    return found
