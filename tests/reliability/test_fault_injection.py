"""A full disk or a file-size limit at the Nth write (issue 20 §6), over apply, a moderated
apply (the secrets' generation and the game file), inbox and timeout. Whatever write fails,
the run exits 0 or 74 (never 70), leaves no temporary file, and the next run completes the
work or finds it done: the change lands exactly once, its mail goes out, verify passes."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem.delivery import queue
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import drop, make_maildir, plain
from tests.reliability.faults import faulty_disk
from tests.reliability.kit import (
    copy_game,
    next_block,
    ok,
    pbem,
    signed,
    strays,
    verified,
)

ENV = {"PBEM_MAIL_FROM": "host@example.org"}
T0 = "2027-03-01T00:00:00Z"
Prepared = tuple[Path, list[str], list[str]]  # the game, the command, the follow-up command


def prepare_apply(folder: Path) -> Prepared:
    game = copy_game("pax", folder)
    args = ["apply", str(game), str(next_block(game))]
    return game, args, args


def prepare_moderated(folder: Path) -> Prepared:
    """The last of three simultaneous answers: it writes a secrets generation and the file."""
    game = copy_game("aor", folder)
    for player in ("ada", "ben", "cy"):
        card = str(ok("options", str(game), "--for", player).split("\n")[0])
        block = signed(game, player, [card])
        if player != "cy":
            ok("apply", str(game), str(block))
    args = ["apply", str(game), str(block)]
    return game, args, args


def prepare_inbox(folder: Path) -> Prepared:
    game = copy_game("pax", folder)
    maildir = make_maildir(folder / "Maildir")
    block = next_block(game).read_text()
    drop(maildir, plain(block, "cy@example.org"))  # marchionni (cy) moves first
    args = ["inbox", str(game), "--maildir", str(maildir), "--outbox", str(folder / "out")]
    return game, args, args


def prepare_timeout(folder: Path) -> Prepared:
    game = copy_game("pax", folder)
    ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", "--now", T0,
       "--key", str(folder / "max.key"))  # a moderated game: settings are the moderator's
    ok("timeout", str(game), "--now", T0)  # a mail run starts the clock
    out = ["--outbox", str(folder / "out")]
    # Run again, it is a mail run: it sends what the first left queued, and times out no one
    # (the next decision's clock starts with it).
    return game, ["timeout", str(game), "--mail", "--now", "2027-03-01T05:00:00Z", *out], \
        ["timeout", str(game), "--mail", "--now", "2027-03-01T05:00:01Z", *out]


COMMANDS: dict[str, Callable[[Path], Prepared]] = {
    "apply": prepare_apply, "moderated-apply": prepare_moderated, "inbox": prepare_inbox,
    "timeout": prepare_timeout,
}


def copied(template: Path, prepared: Prepared, folder: Path) -> Prepared:
    shutil.copytree(template, folder)
    game, args, follow_up = prepared
    moved = [[a.replace(str(template), str(folder)) for a in x] for x in (args, follow_up)]
    return folder / game.name, moved[0], moved[1]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_failed_write_at_any_point_is_completed_by_the_next_run(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    template = tmp_path / "template"
    prepared = COMMANDS[name](template)
    _, args, _ = copied(template, prepared, tmp_path / "count")
    with faulty_disk(monkeypatch) as disk:
        assert pbem(*args, env=ENV).exit_code == 0
    # RELIABILITY_FULL=1 fails every write in turn; the fast profile the first and the last
    # write of each kind of file (game, secrets, post book, queue, outbox).
    every = os.environ.get("RELIABILITY_FULL") == "1"
    chosen = list(range(1, disk.writes + 1)) if every else disk.chosen()
    assert chosen, "the command wrote nothing"
    codes = (errno.ENOSPC, errno.EFBIG)
    for turn, nth in enumerate(chosen):
        code = codes[turn % 2]
        folder = tmp_path / f"w{nth}"
        game, args, follow_up = copied(template, prepared, folder)
        start = gamefile.load(game).seq
        with faulty_disk(monkeypatch, nth, code):
            failed = pbem(*args, env=ENV)
        assert failed.exit_code in (0, 74), (name, nth, failed.stderr)
        if failed.exit_code == 74:
            assert ("No space left" in failed.stderr or "File too large" in failed.stderr)
        assert strays(folder) == [], (name, nth)
        if gamefile.load(game).seq != start:  # it landed: a later fault is a note, or says so
            assert failed.exit_code == 0 or "the game's change stands" in failed.stderr, \
                (name, nth, failed.stderr)
        again = pbem(*follow_up, env=ENV)
        assert again.exit_code in (0, 4), (name, nth, again.stderr)
        assert gamefile.load(game).seq == start + 1, (name, nth)  # once, never twice
        assert verified(game), (name, nth)
        assert queue.queued(game) == [], (name, nth)  # the mail went out in the end
        if name == "inbox":
            sent = sorted(p.name for p in (folder / "out").iterdir())
            assert any("receipt" in n for n in sent), (nth, sent)


def test_both_faults_are_injected(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The injector itself: the Nth write fails with the code asked for, half written."""
    target = tmp_path / "x.txt"
    for code in (errno.ENOSPC, errno.EFBIG):
        with faulty_disk(monkeypatch, 1, code), pytest.raises(Exception) as caught:
            gamefile.write_atomic(target, "hello")
        assert str(caught.value).startswith("cannot write x.txt")
        assert not target.exists() and strays(tmp_path) == []
