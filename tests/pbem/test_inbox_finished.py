"""Quiet cron runs (issue 23 §1): a Maildir message the inbox looked at and left unread in cur/
for the host (junk, a bounce, an auto-reply) is finished with. The post book keeps its file
name (before ':', as flags change), so later runs do not open it again; new mail is still read."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import mail
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    first_move,
    make_game,
    make_maildir,
    plain,
)

runner = CliRunner()


def inbox(game: Path, maildir: Path, outbox: Path, *extra: str) -> str:
    result = runner.invoke(app, ["inbox", str(game), "--maildir", str(maildir), "--outbox",
                                 str(outbox), *extra])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def finished(game: Path) -> list[str]:
    return sorted(name for names in mail.Book.load(game).data.get("finished", {}).values()
                  for name in names)


def test_a_looked_at_message_is_not_opened_again(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "host@example.org")
    game, outbox = make_game(tmp_path), tmp_path / "out"
    maildir = make_maildir(tmp_path / "Maildir")
    player = gamefile.load(game).roster_entry(acting(game))
    assert player is not None
    sender = str(player["email"])
    drop(maildir, plain("Hi! When do we play?", sender), "1.chat")
    bounce = plain("mailbox full", "MAILER-DAEMON@example.org").replace(
        b"Subject:", b"Auto-Submitted: auto-replied\nSubject:")
    drop(maildir, bounce, "2.auto")
    assert inbox(game, maildir, outbox) == ""  # looked at: quiet, left unread in cur/
    assert sorted(p.name for p in (maildir / "cur").iterdir()) == ["1.chat:2,", "2.auto:2,"]
    assert finished(game) == ["1.chat", "2.auto"]

    # Had the next run opened it, this block would be applied: it is not even read.
    block = block_for(game, first_move(game))
    (maildir / "cur" / "1.chat:2,").write_bytes(plain(block, sender))
    (maildir / "cur" / "2.auto:2,").rename(maildir / "cur" / "2.auto:2,F")  # flags change
    opened: list[str] = []
    read_bytes = Path.read_bytes

    def counting(path: Path) -> bytes:
        opened.append(path.name)
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", counting)
    assert inbox(game, maildir, outbox) == ""
    assert not any(name.startswith(("1.chat", "2.auto")) for name in opened), opened
    assert gamefile.load(game).seq == 0

    drop(maildir, plain(block, sender), "3.block")  # new mail is still handled
    assert "applied as seq 1" in inbox(game, maildir, outbox)
    assert any(name.startswith("3.block") for name in opened)
    assert finished(game) == ["1.chat", "2.auto"]  # a handled message is marked Seen instead

    # --verbose opens and lists everything, the finished ones as known from before.
    listed = inbox(game, maildir, outbox, "--verbose").splitlines()
    assert any(line.startswith("cur/2.auto:2,F") and line.endswith("(before)")
               for line in listed), listed


def test_the_book_forgets_names_whose_files_are_gone(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "host@example.org")
    game, outbox = make_game(tmp_path), tmp_path / "out"
    maildir = make_maildir(tmp_path / "Maildir")
    for number in range(3):
        drop(maildir, plain(f"spam {number}", "spam@example.net"), f"{number}.spam")
    inbox(game, maildir, outbox)
    assert finished(game) == ["0.spam", "1.spam", "2.spam"]
    (maildir / "cur" / "1.spam:2,").unlink()  # the host deletes one in their mail client
    assert inbox(game, maildir, outbox) == ""
    assert finished(game) == ["0.spam", "2.spam"]


def test_a_copy_of_a_message_looked_at_before_leaves_new_too(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """The same junk delivered again (same Message-ID and body) was known from before and
    skipped, but stayed in new/ and was read by every run."""
    monkeypatch.setenv("PBEM_MAIL_FROM", "host@example.org")
    game, outbox = make_game(tmp_path), tmp_path / "out"
    maildir = make_maildir(tmp_path / "Maildir")
    spam = plain("buy now", "spam@example.net")
    drop(maildir, spam, "1.spam")
    inbox(game, maildir, outbox)
    drop(maildir, spam, "2.spam")
    assert inbox(game, maildir, outbox) == ""
    assert list((maildir / "new").iterdir()) == []
    assert sorted(p.name for p in (maildir / "cur").iterdir()) == ["1.spam:2,", "2.spam:2,"]
    assert finished(game) == ["1.spam", "2.spam"]
