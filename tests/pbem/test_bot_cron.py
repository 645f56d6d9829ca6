"""Bots under cron (issue 24 §3): `pbem inbox` plays the seats whose keys the host keeps in
GAME.bots/ after applying the mail, as `pbem timeout` does, and mails the reports of the bot's
moves; a 4-player Pax game with a bot seat from the start runs to its end on cron runs alone."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbem import api
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import HOST, drop, make_maildir, plain
from tests.reliability.kit import ok, status

MAIL = {"PBEM_MAIL_FROM": HOST}
NAMES = ("ada", "ben", "cy", "dee")
START = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)


def pax_game(folder: Path, players: tuple[str, ...], bot: str) -> Path:
    """A moderated Pax game whose seat `bot` is the bot's from the start: the roster holds the
    bot's public key, and its private key is in lisbon.bots/, where the host keeps bots' keys."""
    bots = folder / "lisbon.bots"
    bots.mkdir()
    for name in (*players, "max"):
        write_keypair((bots if name == bot else folder) / name, name, f"{name}@example.org")
    keys = [parse_public_key(((bots if n == bot else folder) / f"{n}.pub").read_text())
            for n in players]
    game = folder / "lisbon.yaml"
    api.new_game(game, keys, game_id="lisbon", seed_text="bot-cron",
                 moderator=parse_public_key((folder / "max.pub").read_text()))
    return game


def roster(game: Path) -> dict[str, dict[str, str]]:
    """seat -> its roster row (name, e-mail)."""
    rows = json.loads(ok("roster", str(game), "--json"))
    rows = rows["players"] if isinstance(rows, dict) else rows
    return {row["id"]: row for row in rows if row["id"] != "moderator"}


def mail_orders(game: Path, maildir: Path, seats: dict[str, dict[str, str]], bot: str,
                owed: list[str]) -> int:
    """Each owed player (the bot aside) picks a block with `pbem bot` and their own key, and
    mails it: dropped into the host's Maildir. The number of messages sent."""
    sent = 0
    for seat in owed:
        if seat == bot:
            continue
        row = seats[seat]
        key = game.parent / f"{row['name']}.key"
        block = ok("bot", str(game), "--seat", seat, "--key", str(key), "--policy", "random")
        raw = plain(block, f"{row['name']} <{row['email']}>")
        drop(maildir, raw)
        sent += 1
    return sent


def test_inbox_plays_the_bot_seat_after_the_mail_and_mails_its_reports(
        tmp_path: Path) -> None:
    game = pax_game(tmp_path, NAMES[:3], "cy")
    seats = roster(game)
    bot = next(seat for seat, row in seats.items() if row["name"] == "cy")
    maildir, outbox = make_maildir(tmp_path / "Maildir"), tmp_path / "out"
    assert bot in status(game)["waiting_for"]  # type: ignore[operator]
    out = ok("inbox", str(game), "--maildir", str(maildir), "--outbox", str(outbox), env=MAIL)
    assert out.startswith(f"lisbon: seq 1: {bot} (bot): ")  # no mail, and the bot played
    assert [p.name for p in sorted(outbox.glob("*.eml"))] == [  # mailed as any applied block
        "lisbon-1-digest-coeur.eml", "lisbon-1-report-medici.eml", "lisbon-1-report-public.eml"]
    assert all(f"wrote {name}" in out for name in ("lisbon-1-report-medici.eml",
                                                   "lisbon-1-report-public.eml"))
    for _ in range(2):  # the others mail their orders; each cron run applies one
        assert bot not in status(game)["waiting_for"]  # type: ignore[operator]
        owed = list(status(game)["waiting_for"])  # type: ignore[call-overload]
        assert mail_orders(game, maildir, seats, bot, owed) == 1
        out = ok("inbox", str(game), "--maildir", str(maildir), "--outbox", str(outbox),
                 env=MAIL)
    first, moved, *mailed = out.splitlines()  # the mail first, then the bot, then its reports
    assert "applied as seq 3" in first and moved.startswith(f"lisbon: seq 4: {bot} (bot): ")
    assert mailed and all(line.startswith("wrote lisbon-4-") for line in mailed)
    assert ok("inbox", str(game), "--maildir", str(maildir), "--outbox", str(outbox),
              env=MAIL) == ""  # quiet under cron: nothing new, nothing played
    assert ok("verify", str(game)).startswith("ok")


def hours(n: float) -> str:
    return (START + timedelta(hours=n)).strftime("%Y-%m-%dT%H:%MZ")


def test_a_four_player_pax_game_with_a_bot_seat_runs_to_its_end_on_cron_runs(
        tmp_path: Path) -> None:
    """The done-when test of issue 24 §3: the host runs only `inbox` and `timeout`, as cron
    would, every hour; three players mail blocks (chosen by `pbem bot` with their own keys),
    one of them now and then too late, so a default answer is applied; the bot plays its seat
    from the start. The game ends, and verify passes."""
    game = pax_game(tmp_path, NAMES, "dee")
    seats = roster(game)
    bot = next(seat for seat, row in seats.items() if row["name"] == "dee")
    max_key = str(tmp_path / "max.key")
    ok("deadlines", str(game), "--key", max_key, "--set", "default=24h", "--nmr", "skip",
       "--now", hours(0))
    maildir, outbox = make_maildir(tmp_path / "Maildir"), tmp_path / "out"
    cron = ["--outbox", str(outbox)]
    by_inbox = by_timeout = defaults = clock = late_turns = 0
    late_before_bot = ""  # the seat that plays just before the bot: now and then it is late
    for _ in range(200):
        now = status(game)
        if now["over"]:
            break
        owed = [s for s in now["waiting_for"] if s != bot]  # type: ignore[attr-defined]
        late_turns += bool(owed) and owed[0] == late_before_bot
        if late_turns % 4 == 1 and owed[:1] == [late_before_bot]:
            clock += 25  # nothing mailed: past the deadline
        else:
            mail_orders(game, maildir, seats, bot, owed)
            clock += 1
        out = ok("inbox", str(game), "--maildir", str(maildir), *cron, "--now", hours(clock),
                 env=MAIL)
        by_inbox += out.count(f": {bot} (bot): ")
        if not late_before_bot and f": {bot} (bot): " in out:
            late_before_bot = seat_before_bot(game, bot)
        out = ok("timeout", str(game), *cron, "--now", hours(clock), env=MAIL)
        by_timeout += out.count(f": {bot} (bot): ")
        defaults += out.count("did not answer in time")
    end = status(game)
    assert end["over"] and end["winners"], end
    assert by_inbox >= 5 and by_timeout >= 1 and defaults >= 1, (by_inbox, by_timeout, defaults)
    assert ok("verify", str(game)).startswith("ok")


def seat_before_bot(game: Path, bot: str) -> str:
    """Who played the block before the bot's last one."""
    players = [str(e.get("player")) for e in gamefile.load(game).log if e.get("kind") == "orders"]
    last = len(players) - 1 - players[::-1].index(bot)
    return players[last - 1]
