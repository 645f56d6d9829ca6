"""Mail in (issue 7): Maildir and mbox messages in the shapes real clients send; replies;
exactly-once processing, also after an interrupted run; routing between several games."""

from __future__ import annotations

import mailbox
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem import api
from pbem.cli import app
from pbem.delivery import inbox, mail, mailboxes, queue, transport
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    first_move,
    flowed,
    html_only,
    make_game,
    make_maildir,
    plain,
    quoted_printable,
    reply_quoting,
    settings_for,
)

NOW = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)
runner = CliRunner()


class Recorder:
    """A Delivery that keeps the messages (the SMTP path is tested in test_mail.py)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    def deliver_each(self, messages: list[EmailMessage]) -> list[transport.Sent]:
        self.messages += messages
        return [transport.Sent(True, transport.describe(m)) for m in messages]

    def kinds(self) -> list[str]:
        return [f"{m['X-Pbem-Kind']}:{m['X-Pbem-For']}" for m in self.messages]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def address(game: Path, player: str) -> str:
    entry = gamefile.load(game).roster_entry(player)
    assert entry is not None
    return str(entry["email"])


def run(maildir: Path, games: list[Path], out: Recorder, *, verbose: bool = False) -> list[str]:
    return inbox.process(mailboxes.read_maildir(maildir), games, out, settings_for(1), NOW,
                         verbose=verbose)


SHAPES: dict[str, Callable[[str, str], bytes]] = {
    "plain": lambda block, sender: plain(block, sender),
    "crlf": lambda block, sender: plain(block, sender, crlf=True),
    "quoted-printable": quoted_printable,
    "format=flowed": flowed,
    "html-only": html_only,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_client_shape_is_applied(game: Path, tmp_path: Path, shape: str) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    mover = acting(game)
    drop(maildir, SHAPES[shape](block_for(game, first_move(game)), address(game, mover)))
    lines = run(maildir, [game], out)
    assert len(lines) == 1 and "applied as seq 1" in lines[0], lines
    assert gamefile.load(game).seq == 1
    assert out.kinds()[0] == f"receipt:{mover}"
    # The full report to whoever must act (and the moderator), a digest to the others; the
    # mover's receipt tells them of their own move.
    owed = api.status(gamefile.load(game))["waiting_for"]
    assert sorted(out.kinds()[1:]) == sorted(
        [f"{'report' if p in owed else 'digest'}:{p}" for p in gamefile.load(game).player_ids()
         if p in owed or p != mover] + ["report:public"])
    receipt = out.messages[0]
    assert receipt["In-Reply-To"] and receipt["Subject"].startswith(
        "[lisbon] Pax Renaissance (2nd edition): ")
    assert "were applied at seq 1" in receipt.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert list((maildir / "new").iterdir()) == []
    assert [p.name.endswith(":2,S") for p in (maildir / "cur").iterdir()] == [True]
    api.verify(game, gamefile.load(game))


def test_a_reply_quoting_the_earlier_block_uses_the_new_one(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    first = acting(game)
    old = block_for(game, first_move(game))
    drop(maildir, plain(old, address(game, first)))
    run(maildir, [game], out)
    report = next(m for m in out.messages if m["X-Pbem-Kind"] == "report" and
                  m["X-Pbem-For"] == acting(game))
    quoted = f"{report.get_body(('plain',)).get_content()}\n{old}"  # type: ignore[union-attr]
    second = acting(game)
    drop(maildir, reply_quoting(block_for(game, first_move(game)), quoted,
                                address(game, second), str(report["Message-ID"])))
    lines = run(maildir, [game], out)
    assert "applied as seq 2" in lines[0], lines
    assert gamefile.load(game).seq == 2


def test_rejection_replies_with_the_reason_and_the_legal_lines(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    mover = acting(game)
    before = game.read_bytes()
    drop(maildir, plain(block_for(game, ["buy west 1", "buy west 9"]), address(game, mover)))
    lines = run(maildir, [game], out)
    assert "rejected: line 2: 'buy west 9'" in lines[0] and "(reply sent)" in lines[0]
    assert game.read_bytes() == before
    assert out.kinds() == [f"rejection:{mover}"]
    text = out.messages[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "were not applied: line 2: 'buy west 9'" in text
    assert "Legal lines" in text and "-----BEGIN PBEM ORDERS-----" in text
    assert out.messages[0]["Subject"] == \
        f"[lisbon] Pax Renaissance (2nd edition): {mover.title()} (" + \
        str(gamefile.load(game).roster_entry(mover)["name"]) + ")"
    assert run(maildir, [game], out) == []  # processed: moved to cur/ with S


def test_strangers_get_no_reply_and_other_mail_is_left_alone(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    block = block_for(game, first_move(game))
    drop(maildir, plain("Hi! When do we play?", address(game, acting(game))), "1.chat")
    drop(maildir, plain(block.replace("game: lisbon", "game: porto"), "x@example.org"), "2.other")
    drop(maildir, plain(block.replace("end", "fair east"), "spoof@example.net"), "3.forged")
    bounce = plain(block, "MAILER-DAEMON@example.org").replace(
        b"Subject:", b"Auto-Submitted: auto-replied\nSubject:")
    drop(maildir, bounce, "4.bounce")
    lines = run(maildir, [game], out, verbose=True)
    assert lines[0].endswith("left alone: no order block")
    assert lines[1].endswith("left alone: for game porto, not one of these")
    assert "rejected:" in lines[2] and "no reply (the sender is not in the roster)" in lines[2]
    assert lines[3].endswith("left alone: an automatic message")
    assert out.messages == []
    assert sorted(p.name for p in (maildir / "new").iterdir()) == []
    looked = sorted(p.name for p in (maildir / "cur").iterdir())
    # Looked at, left unread for the host's mail client; the rejected one is handled (Seen).
    assert looked == ["1.chat:2,", "2.other:2,", "3.forged:2,S", "4.bounce:2,"]
    assert run(maildir, [game], out) == []  # a quiet second run: nothing new, nothing printed
    again = run(maildir, [game], out, verbose=True)  # the unread ones, each known from before
    assert len(again) == 3 and all(line.endswith("(before)") for line in again)


def test_interrupted_run_applies_once_and_mails_again(game: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    message = drop(maildir, plain(block_for(game, first_move(game)),
                                  address(game, acting(game))))
    saved = tmp_path / "saved.eml"
    shutil.copy(message, saved)

    def crash(messages: list[EmailMessage]) -> list[transport.Sent]:
        raise KeyboardInterrupt  # the run dies after the game file, book and queue were written

    monkeypatch.setattr(out, "deliver_each", crash)
    with pytest.raises(KeyboardInterrupt):
        run(maildir, [game], out)
    monkeypatch.undo()
    assert gamefile.load(game).seq == 1 and mail.Book.load(game).data["processed"]
    queued = len(queue.queued(game))  # the receipt, reports and digests wait in the queue
    assert queued >= 4
    lines = run(maildir, [game], out)  # the next run sends them first; the message is known
    assert len(lines) == queued and all(line.startswith("lisbon.queue: ") for line in lines)
    assert gamefile.load(game).seq == 1 and len(out.kinds()) == queued
    assert not queue.queued(game)
    drop(maildir, saved.read_bytes())  # the same message delivered again
    assert run(maildir, [game], out) == []
    assert len(out.kinds()) == queued and gamefile.load(game).seq == 1
    api.verify(game, gamefile.load(game))


def test_mbox_is_read_and_the_ledger_keeps_it_from_running_twice(game: Path,
                                                                 tmp_path: Path) -> None:
    box_path, out = tmp_path / "inbox.mbox", Recorder()
    box = mailbox.mbox(box_path)
    box.add(quoted_printable(block_for(game, first_move(game)), address(game, acting(game))))
    box.add(plain("nothing here", "ada@example.org"))
    box.flush()
    box.close()
    lines = inbox.process(mailboxes.read_mbox(box_path), [game], out, settings_for(1), NOW,
                          verbose=True)
    assert "applied as seq 1" in lines[0] and lines[1].endswith("no order block")
    lines = inbox.process(mailboxes.read_mbox(box_path), [game], out, settings_for(1), NOW)
    assert lines == [] and gamefile.load(game).seq == 1  # the post book remembers both


def test_blocks_are_routed_to_their_game(tmp_path: Path) -> None:
    lisbon = make_game(tmp_path, "lisbon", "one")
    porto = make_game(tmp_path, "porto", "two")
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, plain(block_for(porto, first_move(porto)), address(porto, acting(porto))), "1")
    drop(maildir, html_only(block_for(lisbon, first_move(lisbon)),
                            address(lisbon, acting(lisbon))), "2")
    lines = run(maildir, [lisbon, porto], out)
    assert "applied as seq 1" in lines[0] and "applied as seq 1" in lines[1]
    assert gamefile.load(lisbon).seq == gamefile.load(porto).seq == 1
    assert {str(m["X-Pbem-Game"]) for m in out.messages} == {"lisbon", "porto"}
    assert mail.Book.load(lisbon).data["processed"] and mail.Book.load(porto).data["processed"]


def test_inbox_command_with_an_outbox(game: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "host@example.org")
    maildir = make_maildir(tmp_path / "Maildir")
    drop(maildir, flowed(block_for(game, first_move(game)), address(game, acting(game))))
    result = runner.invoke(app, ["inbox", str(game), "--maildir", str(maildir), "--outbox",
                                 str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    # A whole turn: the receipt, the next player's report, one digest, the public report.
    assert "applied as seq 1; 4 message(s) out" in result.stdout
    assert len(list((tmp_path / "out").glob("*.eml"))) == 4
    result = runner.invoke(app, ["inbox", str(game), "--maildir", str(maildir), "--outbox",
                                 str(tmp_path / "out")])
    assert result.stdout == ""  # quiet under cron: nothing new, nothing printed
    result = runner.invoke(app, ["inbox", str(game)])
    assert result.exit_code == 2 and "--maildir DIR, --mbox FILE or --imap URL" in result.stderr
    result = runner.invoke(app, ["inbox", str(game), "--maildir", str(tmp_path)])
    assert result.exit_code == 2 and "is not a Maildir" in result.stderr


def test_outlook_reply_with_the_report_appended_unquoted(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    queue.send_reports(game, out, settings_for(1), NOW)
    mover = acting(game)
    report = next(m for m in out.messages if m["X-Pbem-For"] == mover)
    original = report.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "# your orders here" in original  # the skeleton: a block with no signature
    text = f"{block_for(game, first_move(game))}\n-----Original Message-----\n{original}"
    drop(maildir, plain(text, address(game, mover), "RE: your move"))
    lines = run(maildir, [game], out)
    assert "applied as seq 1" in lines[0], lines


def test_a_thank_you_quoting_the_report_is_not_a_broken_block(game: Path, tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    queue.send_reports(game, out, settings_for(1), NOW)
    mover = acting(game)
    report = next(m for m in out.messages if m["X-Pbem-For"] == mover)
    original = report.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    drop(maildir, reply_quoting("Thanks, thinking about it!", original, address(game, mover),
                                str(report["Message-ID"])))
    lines = run(maildir, [game], out, verbose=True)
    assert lines[0].endswith("left alone: no order block"), lines


def test_replies_go_to_the_roster_address_never_to_a_forged_reply_to(game: Path,
                                                                     tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    mover = acting(game)
    raw = plain(block_for(game, ["buy west 9"]), address(game, mover).upper())
    drop(maildir, raw.replace(b"Subject:", b"Reply-To: thief@example.net\nSubject:"))
    lines = run(maildir, [game], out)
    assert "(reply sent)" in lines[0]
    assert [str(m["To"]) for m in out.messages] == [address(game, mover)]
    assert "Your hand" in out.messages[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
