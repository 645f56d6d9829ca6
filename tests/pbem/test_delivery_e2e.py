"""Issue 7, done: several turns of a 3-player game played purely by mail.

A real SMTP server on 127.0.0.1 carries every report out; each player reads the latest report
mailed to them, copies the header of the block skeleton in it, writes orders from the legal
lines, signs them and replies, in the shape of a different mail client each time; the replies
land in a Maildir and `pbem inbox` drives the game. One reply breaks the rules and gets the
reason back. At the end `pbem verify` replays the whole log.
"""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem import api
from pbem.cli import app
from pbem.orders.signing import sign_orders
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import (
    HOST,
    drop,
    flowed,
    html_only,
    make_game,
    make_maildir,
    plain,
    quoted_printable,
    reply_quoting,
    smtp_server,
)

runner = CliRunner()
BLOCKS = 8


def text_of(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


def skeleton_header(report: str) -> str:
    """The header lines of the block skeleton at the end of a report mail."""
    lines = report.split("-----BEGIN PBEM ORDERS-----")[-1].strip("\n").splitlines()
    header = lines[:lines.index("")]
    assert [line.split(":")[0] for line in header] == ["game", "player", "seq", "state"]
    return "\n".join(header)


def choose(game: Path) -> list[str]:
    """A player's pick from the legal lines: buy once a turn, then end; else the first line."""
    legal = api.legal_lines(gamefile.load(game))["lines"]
    turn = gamefile.load(game).state["turn"]
    if "end" in legal and turn["actions"] >= 1:
        return ["end"]
    buys = [line for line in legal if line.startswith("buy")]
    others = [line for line in legal if not line.startswith("standing")]
    return [buys[0] if buys else (others or legal)[0]]


Shape = Callable[[str, str, EmailMessage], bytes]
SHAPES: list[Shape] = [
    lambda block, sender, report: plain(block, sender, in_reply_to=report["Message-ID"]),
    lambda block, sender, report: quoted_printable(block, sender),
    lambda block, sender, report: flowed(block, sender),
    lambda block, sender, report: html_only(block, sender),
    lambda block, sender, report: reply_quoting(block, text_of(report), sender,
                                                report["Message-ID"]),
    lambda block, sender, report: plain(block, sender, crlf=True),
]


def test_a_game_played_purely_by_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game(tmp_path)
    maildir = make_maildir(tmp_path / "Maildir")
    emails = {p["id"]: p["email"] for p in gamefile.load(game).roster["players"]}
    keys = {p["id"]: tmp_path / f"{p['name']}.key" for p in gamefile.load(game).roster["players"]}
    with smtp_server() as (sink, port):
        for name, value in (("PBEM_SMTP_HOST", "127.0.0.1"), ("PBEM_SMTP_PORT", str(port)),
                            ("PBEM_SMTP_SECURITY", "none"),
                            ("PBEM_MAIL_FROM", f"Lisbon host <{HOST}>")):
            monkeypatch.setenv(name, value)
        result = runner.invoke(app, ["send", str(game)])
        assert result.exit_code == 0, result.stderr

        def latest_report(player: str) -> EmailMessage:
            return [m for _, rcpt, m in sink.envelopes if rcpt == [emails[player]] and (
                m["X-Pbem-Kind"] == "report" or "# your orders here" in text_of(m))][-1]

        def inbox() -> str:
            result = runner.invoke(app, ["inbox", str(game), "--maildir", str(maildir)])
            assert result.exit_code == 0, result.stderr
            return result.stdout

        players_seen, turn_ends = set(), 0
        for number in range(BLOCKS):
            gf = gamefile.load(game)
            player = api.status(gf)["waiting_for"][0]
            players_seen.add(player)
            report = latest_report(player)
            assert report["Subject"].startswith(
                f"[lisbon] Pax Renaissance (2nd edition): {player.title()} (")
            header = skeleton_header(text_of(report))
            if number == 2:  # a broken block first: the reason comes back, nothing changes
                bad = sign_orders(f"{header}\n\nbuy west 99\n", keys[player], None)
                drop(maildir, plain(bad, emails[player]))
                assert "rejected: line 1: 'buy west 99'" in inbox()
                rejection = sink.messages[-1]
                assert rejection["X-Pbem-Kind"] == "rejection" and rejection["To"] == \
                    emails[player]
                assert "Legal lines" in text_of(rejection)
                assert gamefile.load(game).seq == gf.seq
            lines = choose(game)
            turn_ends += lines == ["end"]
            block = sign_orders(f"{header}\n\n" + "\n".join(lines) + "\n", keys[player], None)
            sent_before = len(sink.envelopes)
            drop(maildir, SHAPES[number % len(SHAPES)](block, emails[player], report))
            ran = inbox()
            # The mover's receipt tells them of their move, and carries their next report when
            # they act again: one mail. The others get a digest of it, or their report.
            again = player in api.status(gamefile.load(game))["waiting_for"]
            readers = [p for p in emails if p != player]
            assert f"applied as seq {gf.seq + 1}; {len(readers) + 2} message(s) out" in ran
            new = sink.messages[sent_before:]
            assert new[0]["X-Pbem-Kind"] == "receipt" and new[0]["To"] == emails[player]
            assert ("# your orders here" in text_of(new[0])) == again
            assert sorted(m["X-Pbem-For"] for m in new[1:]) == sorted([*readers, "public"])
            assert all(m["Subject"].startswith("[lisbon] Pax Renaissance (2nd edition): ")
                       for m in new[1:])
        assert len(players_seen) == 3 and turn_ends >= 3
        assert list((maildir / "new").iterdir()) == []

    gf = gamefile.load(game)
    assert gf.seq == BLOCKS and any(entry["draws"] for entry in gf.log[1:])
    result = runner.invoke(app, ["verify", str(game)])
    assert result.exit_code == 0 and f"{BLOCKS + 1} log entries verified" in result.stdout
    for player, address in emails.items():  # one thread per reader, rooted on a sent message
        received = [m for _, rcpt, m in sink.envelopes if rcpt == [address]]
        root = received[0]["Message-ID"]
        assert received[0]["References"] is None
        assert len({m["Subject"] for m in received}) == 1, player
        for earlier, later in zip(received, received[1:], strict=False):
            assert later["References"].split()[0] == root, player
            if later["X-Pbem-Kind"] == "report":  # follows the last message this reader got
                assert later["In-Reply-To"] == earlier["Message-ID"], player
        for m in received:  # a digest carries the full report as an attachment
            kind = "multipart/mixed" if m["X-Pbem-Kind"] == "digest" else "multipart/alternative"
            assert m.get_content_type() == kind, (player, m["X-Pbem-Kind"])
