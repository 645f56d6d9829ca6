"""Inputs the fuzz families found crashing (exit 70) or noisy, kept as plain regressions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.pbem.test_mail_helpers import drop, make_maildir
from tests.reliability.kit import copy_game, pbem, snapshot


def test_a_folder_given_as_the_game_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    for command in ("post", "status", "report", "verify"):
        result = pbem(command, str(tmp_path / "folder"))
        assert result.exit_code == 2 and "is not a regular file" in result.stderr, result.stderr


def test_a_hand_edited_state_is_a_corrupt_game_for_every_reader(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    edited = tmp_path / "edited.yaml"
    edited.write_text(game.read_text().replace("\n  borders:\n", "\n  borderz:\n", 1))
    before = snapshot(tmp_path)
    for command in ("report", "post", "map", "status", "options", "verify"):
        result = pbem(command, str(edited))
        assert result.exit_code == 5 and "does not match" in result.stderr, \
            (command, result.stderr)
    assert snapshot(tmp_path) == before


def test_mail_that_trips_a_bounce_detector_prints_no_traceback(tmp_path: Path) -> None:
    """A real process: under pytest, logging is captured and the traceback would not show."""
    game = copy_game("pax", tmp_path)
    maildir = make_maildir(tmp_path / "Maildir")
    drop(maildir, b"From:\nMessage-ID: <f1@example.org>\nSubject: hi\n\nhello\n")
    run = subprocess.run([str(Path(sys.executable).with_name("pbem")), "inbox", str(game),
                          "--maildir", str(maildir)], capture_output=True, text=True,
                         env={**os.environ, "PBEM_MAIL_FROM": "host@example.org"}, timeout=120)
    assert run.returncode == 0 and "Traceback" not in run.stdout + run.stderr, run.stderr


def test_a_damaged_event_in_the_log_is_a_corrupt_game_not_a_crash(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    edited = tmp_path / "edited.yaml"
    edited.write_text(game.read_text().replace("msg: pax.setup.order", "ms{g: pax.setup.order"))
    for command in ("post", "report"):
        result = pbem(command, str(edited))
        assert result.exit_code == 5 and "cannot be put in words" in result.stderr, \
            (command, result.stderr)


def test_an_empty_or_root_game_path_is_a_usage_error(tmp_path: Path) -> None:
    """Fuzz input 6787: `pbem apply '' KEY` crashed naming the lock beside a nameless path."""
    game = copy_game("pax", tmp_path)
    before = snapshot(tmp_path)
    for path in ("", "/"):
        result = pbem("apply", path, str(game))
        assert result.exit_code == 2 and "is not a game file" in result.stderr, result.stderr
    assert snapshot(tmp_path) == before


def test_a_seat_without_a_name_is_a_corrupt_game(tmp_path: Path) -> None:
    """Fuzz input 12740: a roster entry whose name was deleted crashed `map` and the reports."""
    game = copy_game("pax", tmp_path)
    text = game.read_text()
    start = text.index("\n  players:\n")
    name = text.index("\n    name: ", start)
    edited = tmp_path / "edited.yaml"
    edited.write_text(text[:name] + text[text.index("\n", name + 1):])
    for command in ("map", "report", "status", "verify"):
        result = pbem(command, str(edited))
        assert result.exit_code == 5 and ".name' should be a string" in result.stderr, \
            (command, result.stderr)


def test_a_moderator_without_a_key_is_a_corrupt_game(tmp_path: Path) -> None:
    """Fuzz input 57746: a moderator entry whose key was deleted crashed `roster`."""
    game = copy_game("pax", tmp_path)
    text = game.read_text()
    start = text.index("\n  moderator:\n")
    key = text.index("\n    key: ", start)
    game.write_text(text[:key] + text[text.index("\n", key + 1):])
    before = snapshot(tmp_path)
    for command in ("roster", "status", "verify"):
        result = pbem(command, str(game))
        assert result.exit_code == 5 and "'roster.moderator.key' should be a string" in \
            result.stderr, (command, result.stderr)
    assert snapshot(tmp_path) == before


def test_a_log_entry_without_a_kind_is_a_corrupt_game(tmp_path: Path) -> None:
    """Fuzz input 17924: `post` read the log's entries untyped and crashed on a missing kind."""
    game = copy_game("pax", tmp_path)
    edited = tmp_path / "edited.yaml"
    edited.write_text(game.read_text().replace("\n  kind: setup\n", "\n", 1))
    for command in ("post", "report"):
        result = pbem(command, str(edited))
        assert result.exit_code == 5 and "'kind' is missing" in result.stderr, \
            (command, result.stderr)


def test_a_file_that_cannot_be_read_head_only_is_still_checked(tmp_path: Path) -> None:
    """Fuzz input 19424: a file with no final newline was read whole by status and options
    without the check of its state against the log, and a damaged agenda crashed them."""
    game = copy_game("pax", tmp_path)
    edited = tmp_path / "edited.yaml"
    text = game.read_text()
    agenda = text.index("\nagenda:\n") + len("\nagenda:\n")
    edited.write_text((text[:agenda] + "- id: n1\n" + text[agenda:]).rstrip("\n"))
    for command in ("options", "status"):
        result = pbem(command, str(edited))
        assert result.exit_code == 5 and "does not match the state" in result.stderr, \
            (command, result.stderr)


def test_a_seed_file_name_that_leads_elsewhere_is_a_corrupt_game(tmp_path: Path) -> None:
    """Fuzz input 32336: a NUL in randomness.seed_file crashed the open; a path is refused too."""
    game = copy_game("pax", tmp_path)
    for name in ('"\\0"', "../elsewhere.seed", "/tmp/x.seed"):
        edited = tmp_path / "edited.yaml"
        edited.write_text(game.read_text().replace("seed_file: lisbon.seed",
                                                   f"seed_file: {name}", 1))
        result = pbem("options", str(edited))
        assert result.exit_code == 5 and "seed_file" in result.stderr, (name, result.stderr)


def test_a_key_name_too_long_for_the_file_system_is_a_usage_error(tmp_path: Path) -> None:
    """Fuzz input 26539: keygen with a 300-letter name crashed in the file system's check."""
    result = pbem("keygen", "x" * 300, "--dir", str(tmp_path))
    assert result.exit_code == 2 and "File name too long" in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_send_with_the_server_down_records_nothing(tmp_path: Path) -> None:
    """Fuzz input 58705: `send` with the SMTP server down exited 2 but had saved the post book
    as if the reports had gone (sent, asked, the deadline clock started)."""
    game = copy_game("pax", tmp_path)
    down = {"PBEM_MAIL_FROM": "host@example.org", "PBEM_SMTP_HOST": "127.0.0.1",
            "PBEM_SMTP_PORT": "1", "PBEM_SMTP_SECURITY": "none"}
    before = snapshot(tmp_path)
    result = pbem("send", str(game), env=down)
    assert result.exit_code == 2 and "cannot send mail through 127.0.0.1:1" in result.stderr
    assert snapshot(tmp_path) == before


def test_an_empty_game_path_is_a_usage_error_for_the_mail_runs(tmp_path: Path) -> None:
    """Fuzz input 60673: `remind ''` crashed naming the post book beside no file."""
    for command in ("remind", "digest", "send"):
        result = pbem(command, "", env={"PBEM_MAIL_FROM": "host@example.org"})
        assert result.exit_code == 2 and "give the path of a game file" in result.stderr, \
            (command, result.stderr)


def test_a_file_name_too_long_for_the_file_system_is_a_usage_error(tmp_path: Path) -> None:
    """Fuzz input 64021: `scenario NAME` with a 300-character name crashed (ENAMETOOLONG)."""
    long_name = str(tmp_path / ("coeur=" + "X" * 300))
    for args in (["scenario", long_name], ["status", long_name], ["verify", long_name]):
        result = pbem(*args)
        assert result.exit_code == 2 and "too long" in result.stderr + result.stdout, \
            (args, result.stderr)
