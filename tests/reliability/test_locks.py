"""A forced interleaving for each lock (issue 20 §6): the test holds the point where a second
run would slip in, lets the second run go, and checks that it waited (or said busy) and that
nothing was lost or done twice. The fourth lock, the clock read under the game's lock in
`timeout`, is forced in tests/reliability/test_timeouts_alone.py
(test_an_apply_that_slips_in_before_a_timeout_is_not_timed_out)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.delivery import mail, queue, transport
from pbem.pipeline import opening
from pbem.store import files, gamefile
from tests.reliability.kit import (
    copy_game,
    next_block,
    pbem,
    snapshot,
    verified,
    wait_until_it_tries_the_lock,
)

PBEM = str(Path(sys.executable).with_name("pbem"))


def test_a_second_apply_waits_for_the_first_and_then_finds_its_seq_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = copy_game("pax", tmp_path)
    block = next_block(game)
    real_commit = opening.commit
    second: list[subprocess.Popen[bytes]] = []

    def commit_slowly(opened: opening.Game) -> None:
        if not second:  # the first apply: let a second run try now, while we hold the lock
            second.append(subprocess.Popen([PBEM, "apply", str(game), str(block)],
                                           stderr=subprocess.PIPE))
            wait_until_it_tries_the_lock(second[0], game.parent)  # it starts up and reaches it
            assert second[0].poll() is None, "the second apply did not wait for the lock"
        real_commit(opened)

    monkeypatch.setattr(opening, "commit", commit_slowly)
    assert pbem("apply", str(game), str(block)).exit_code == 0
    _, err = second[0].communicate(timeout=60)
    assert second[0].returncode == 4, err  # already applied: one winner, nothing done twice
    assert gamefile.load(game).seq == 1 and verified(game)


def test_a_run_that_cannot_get_the_lock_says_busy_and_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = copy_game("pax", tmp_path)
    block = next_block(game)
    monkeypatch.setattr(files.locked.__wrapped__, "__defaults__", (0.3,))  # type: ignore[attr-defined]
    before = snapshot(tmp_path)
    with gamefile.locked(game):
        for args in (["apply", str(game), str(block)], ["timeout", str(game), "--force"],
                     ["deadlines", str(game), "--set", "default=72h"]):
            result = pbem(*args)
            assert result.exit_code == 75 and "busy" in result.stderr, (args, result.stderr)
    assert snapshot(tmp_path) == before


class SlowServer:
    """A Delivery that takes its time, so a second run can try to send the same queue."""

    def __init__(self, during: threading.Event | None = None) -> None:
        self.sent: list[str] = []
        self.during = during

    def deliver_each(self, messages: Sequence[EmailMessage]) -> list[transport.Sent]:
        if self.during is not None:
            self.during.set()
            time.sleep(0.4)
        self.sent += [str(m["Message-ID"]) for m in messages]
        return [transport.Sent(True, transport.describe(m)) for m in messages]


def test_two_runs_flushing_one_queue_send_each_message_once(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    letters = []
    for number in range(3):
        letter = EmailMessage()
        letter["To"], letter["Subject"] = f"p{number}@example.org", f"report {number}"
        letter["Message-ID"] = f"<m{number}@example.org>"
        letter.set_content("hello\n")
        letters.append(letter)
    queue.put(game, letters)
    sending = threading.Event()
    first, second = SlowServer(sending), SlowServer()
    worker = threading.Thread(target=lambda: queue.flush(game, first))
    worker.start()
    assert sending.wait(10)  # the first run is in the middle of sending
    queue.flush(game, second)
    worker.join(30)
    assert sorted(first.sent + second.sent) == [f"<m{n}@example.org>" for n in range(3)]
    assert queue.queued(game) == []


def test_two_runs_writing_the_post_book_lose_neither_change(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    inside = threading.Event()

    def first_writer() -> None:
        with mail.open_book(game) as book:
            inside.set()
            time.sleep(0.3)  # the second run tries now
            book.data["processed"]["first"] = {"result": "one"}

    worker = threading.Thread(target=first_writer)
    worker.start()
    assert inside.wait(10)
    with mail.open_book(game) as book:
        book.data["processed"]["second"] = {"result": "two"}
    worker.join(30)
    assert set(mail.Book.load(game).data["processed"]) == {"first", "second"}


def test_two_new_games_on_one_name_cannot_both_win(tmp_path: Path) -> None:
    """`new` creates exclusively (issue 20 §3): of two runs at once, one wins, one is refused,
    and the winner's game is whole."""
    copy_game("pax", tmp_path)
    target = tmp_path / "race.yaml"
    command = [PBEM, "new", str(target), *[a for n in ("ada", "ben", "cy") for a in
                                           ("--player", str(tmp_path / f"{n}.pub"))],
               "--moderator", str(tmp_path / "max.pub")]
    runs = [subprocess.Popen([*command, "--seed", seed], stderr=subprocess.PIPE)
            for seed in ("one", "two")]
    codes = sorted(run.wait(60) for run in runs)
    assert codes == [0, 2], codes
    assert verified(target)
