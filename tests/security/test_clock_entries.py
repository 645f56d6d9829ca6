"""Deadlines, the NMR policy, e-mail addresses and timeouts are log entries bound into the chain
(issue 21 §1): a host cannot time a player out early, change the policy around a timeout, or
redirect a seat's mail without the moderator's signature, and no edit of these entries or of
the roster's copy of them passes `verify`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from tests import fast_yaml
from tests.pbem.test_mail_helpers import acting, block_for, first_move, make_game

runner = CliRunner()
T0, LATE = "2027-03-05T12:00:00Z", "2027-03-05T14:00:00Z"


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, f"pbem {' '.join(args)}: {err}"
    return out


def mod(game: Path) -> list[str]:
    return ["--key", str(game.parent / "max.key")]


def verify_fails(game: Path, words: str = "") -> str:
    code, _, err = cli("verify", str(game))
    assert code == 5 and words in err, err
    return err


def edit(game: Path, change: Any) -> None:
    data = fast_yaml.safe_load(game.read_text())
    change(data)
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def last_of(data: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in reversed(data["log"]) if e["kind"] == kind)


# --- the attack of the issue ---------------------------------------------------------------


def test_the_host_cannot_change_the_policy_or_force_a_timeout_without_the_moderator(
        tmp_path: Path) -> None:
    game = make_game(tmp_path)
    before = game.read_bytes()
    code, _, err = cli("deadlines", str(game), "--nmr", "skip")
    assert code == 2 and "--key MODERATOR.key" in err
    code, _, err = cli("timeout", str(game), "--force", "--player", acting(game))
    assert code == 2 and "moderator's call" in err
    assert cli("keygen", "eve", "--dir", str(tmp_path))[0] == 0
    code, _, err = cli("timeout", str(game), "--force", "--key", str(tmp_path / "eve.key"))
    assert code == 2 and "is not the moderator's key" in err
    code, _, err = cli("deadlines", str(game), "--nmr", "skip", "--key", str(tmp_path / "eve.key"))
    assert code == 2 and "is not the moderator's key" in err
    assert game.read_bytes() == before


def test_a_game_without_a_moderator_logs_its_settings_and_never_forces(tmp_path: Path) -> None:
    game = make_game(tmp_path, moderator=False)
    ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", "--now", T0)
    ok("timeout", str(game), "--now", T0)  # a mail run starts the clock
    before = game.read_bytes()
    code, _, err = cli("timeout", str(game), "--force", "--player", acting(game))
    assert code == 2 and "no moderator" in err and game.read_bytes() == before
    mover = acting(game)
    assert "not overdue" in ok("timeout", str(game), "--now", "2027-03-05T12:30:00Z")
    assert "did not answer in time" in ok("timeout", str(game), "--now", LATE)
    data = fast_yaml.safe_load(game.read_text())
    settings, timeout = last_of(data, "settings"), last_of(data, "timeout")
    assert settings["deadlines"] == {"decisions": {"default": "1h"}, "nmr": "skip"}
    assert "block" not in settings
    assert timeout["player"] == mover and timeout["forced"] is False
    assert (timeout["started"], timeout["deadline"], timeout["at"]) == (
        T0, "2027-03-05T13:00:00Z", LATE)
    assert ok("verify", str(game)).startswith("ok: ")


def test_skip_force_wait_by_hand_fails_verify(tmp_path: Path) -> None:
    """The issue's sequence, done by editing the roster instead of the signed command: the
    timeout replays under the policy the log says was in force (wait), so it does not replay."""
    game = make_game(tmp_path, moderator=False)
    ok("deadlines", str(game), "--set", "default=1h", "--now", T0)
    ok("timeout", str(game), "--now", T0)  # a mail run starts the clock
    edit(game, lambda d: d["roster"]["deadlines"].update(nmr="skip"))
    assert "did not answer in time" in ok("timeout", str(game), "--now", LATE)
    edit(game, lambda d: d["roster"]["deadlines"].update(nmr="wait"))
    verify_fails(game, "the timeout does not replay")


# --- tampering with the new entries -----------------------------------------------------


@pytest.fixture
def timed_out(tmp_path: Path) -> Path:
    """A game without a moderator whose player timed out after the deadline, verified."""
    game = make_game(tmp_path, moderator=False)
    ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", "--now", T0)
    ok("timeout", str(game), "--now", T0)  # a mail run starts the clock
    ok("timeout", str(game), "--now", LATE)
    assert ok("verify", str(game)).startswith("ok: ")
    return game


@pytest.mark.parametrize(("key", "value"), [
    ("forced", True), ("deadline", "2027-03-05T11:00:00Z"), ("started", "2027-03-05T10:00:00Z"),
    ("at", "2027-03-05T12:10:00Z"), ("deadline", None)])
def test_editing_a_timeouts_clock_fails_verify(timed_out: Path, key: str, value: object) -> None:
    edit(timed_out, lambda d: last_of(d, "timeout").update({key: value}))
    verify_fails(timed_out, "log entry seq 2")


def test_a_consistent_rewrite_of_a_timeouts_clock_still_breaks_its_state(timed_out: Path) -> None:
    """Moving the clock as a whole (start, deadline and run time an hour earlier) keeps the
    timeout's own rules, but the header's trail covers its fields: the state hash breaks."""
    edit(timed_out, lambda d: last_of(d, "timeout").update(
        started="2027-03-05T11:00:00Z", deadline="2027-03-05T12:00:00Z",
        at="2027-03-05T13:00:00Z"))
    verify_fails(timed_out, "log entry seq 2: the replay does not produce")


@pytest.mark.parametrize("change", [
    lambda d: last_of(d, "settings")["deadlines"].update(nmr="wait"),
    lambda d: last_of(d, "settings")["deadlines"]["decisions"].update(default="1d"),
    lambda d: d["roster"]["deadlines"].update(nmr="wait"),
    lambda d: d["roster"]["players"][0].update(email="eve@evil.example"),
    lambda d: d["game"].update(trail="0" * 64),
    lambda d: d["log"][0]["settings"]["emails"].update(
        {d["roster"]["players"][0]["id"]: "eve@evil.example"}),
])
def test_editing_the_settings_or_the_roster_copy_fails_verify(timed_out: Path,
                                                             change: Any) -> None:
    edit(timed_out, change)
    verify_fails(timed_out)


def test_a_moderated_settings_change_and_forced_timeout_are_signed(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", *mod(game))
    seat = acting(game)
    ok("timeout", str(game), "--force", "--player", seat, *mod(game))
    data = fast_yaml.safe_load(game.read_text())
    settings, timeout = last_of(data, "settings"), last_of(data, "timeout")
    assert "player: moderator" in settings["block"] and "nmr skip" in settings["block"]
    assert f"timeout {seat}" in timeout["block"] and timeout["forced"] is True
    assert ok("verify", str(game)).startswith("ok: ")
    for strip in ("settings", "timeout"):
        saved = game.read_text()
        edit(game, lambda d, k=strip: [last_of(d, k).pop(x) for x in ("block", "payload_sha256")])
        verify_fails(game, f"{strip}: it carries no moderator's block")
        game.write_text(saved)


def test_a_forced_timeout_turned_overdue_by_hand_fails_verify(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", *mod(game), "--now", T0)
    ok("timeout", str(game), "--force", *mod(game), "--now", "2027-03-05T12:10:00Z")
    edit(game, lambda d: last_of(d, "timeout").update(forced=False))
    verify_fails(game, "an overdue timeout carries a moderator's block")
    edit(game, lambda d: [last_of(d, "timeout").pop(x) for x in ("block", "payload_sha256")])
    verify_fails(game, "ran at 2027-03-05T12:10:00Z, before its deadline")


def test_an_email_change_is_signed_logged_and_the_seat_mail_follows(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    seat = acting(game)
    code, _, err = cli("roster", str(game), "--email", f"{seat}=dora@example.org")
    assert code == 2 and "--key MODERATOR.key" in err
    early = block_for(game, first_move(game))  # a block signed before the change still holds
    ok("roster", str(game), "--email", f"{seat}=dora@example.org", *mod(game))
    assert f"{seat}: " in ok("roster", str(game)) and "dora@example.org" in ok("roster", str(game))
    result = runner.invoke(app, ["apply", str(game), "-"], input=early)
    assert result.exit_code == 0, result.stderr
    assert ok("verify", str(game)).startswith("ok: ")
    edit(game, lambda d: d["roster"]["players"][0].update(email="eve@evil.example"))
    verify_fails(game, "e-mail addresses")


def test_a_mailed_moderator_settings_block_applies_once(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    block = ok("deadlines", str(game), "--set", "default=2d", *mod(game), "--print")
    assert "player: moderator" in block and "deadline default 2d" in block
    path = tmp_path / "mod.txt"
    path.write_text(block)
    assert "default 2d" in ok("deadlines", str(game), "--block", str(path))
    code, _, err = cli("deadlines", str(game), "--block", str(path))
    assert code == 4 and "already applied" in err
    assert ok("verify", str(game)).startswith("ok: ")


# --- the chain's ends ---------------------------------------------------------------------


def test_apply_refuses_a_junk_last_entry(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    ok("deadlines", str(game), "--set", "default=1h", *mod(game))
    edit(game, lambda d: d["log"][-1].update(kind="bogus"))
    before = game.read_bytes()
    result = runner.invoke(app, ["apply", str(game), "-"], input=block_for(game, first_move(game)))
    assert result.exit_code == 5 and "unknown entry kind 'bogus'" in result.stderr
    assert game.read_bytes() == before
    edit(game, lambda d: d["log"][-1].update(kind="settings", prev_state="0" * 64))
    result = runner.invoke(app, ["apply", str(game), "-"], input=block_for(game, first_move(game)))
    assert result.exit_code == 5 and "prev_state does not chain" in result.stderr


@pytest.mark.parametrize("change", [
    lambda d: d["log"][0].update(seq=7),
    lambda d: d["log"][0].update(summary=["The game begins; Eve wins."]),
    lambda d: d["log"][-1].update(summary=["Nothing to see."]),
])
def test_verify_compares_the_setup_seq_and_refuses_a_summary_beside_events(
        tmp_path: Path, change: Any) -> None:
    game = make_game(tmp_path)
    runner.invoke(app, ["apply", str(game), "-"], input=block_for(game, first_move(game)))
    edit(game, change)
    verify_fails(game)


def test_a_moderator_away_from_the_host_forces_a_timeout_by_mail(tmp_path: Path) -> None:
    """The moderator prints the signed block (an older game adopts its settings first, and the
    block written before that still holds); the host applies it; verify checks it."""
    game = make_game(tmp_path)
    seat = acting(game)
    block = ok("timeout", str(game), "--force", "--player", seat, *mod(game), "--print")
    assert "player: moderator" in block and f"timeout {seat}" in block
    path = tmp_path / "force.txt"
    path.write_text(block)
    before = game.read_bytes()
    code, _, err = cli("timeout", str(game), "--block", str(tmp_path / "nowhere.txt"))
    assert code != 0 and game.read_bytes() == before
    ok("deadlines", str(game), "--nmr", "skip", *mod(game))  # a settings change between
    assert "did not answer in time" in ok("timeout", str(game), "--block", str(path))
    assert ok("verify", str(game)).startswith("ok: ")


def test_a_signed_settings_block_cannot_be_replayed_to_undo_a_later_change(
        tmp_path: Path) -> None:
    game = make_game(tmp_path)
    skip = tmp_path / "skip.txt"
    skip.write_text(ok("deadlines", str(game), "--nmr", "skip", *mod(game), "--print"))
    ok("deadlines", str(game), "--block", str(skip))
    ok("deadlines", str(game), "--nmr", "wait", *mod(game))
    code, _, err = cli("deadlines", str(game), "--block", str(skip))
    assert code == 4 and "already applied" in err
    # A host who bypasses that check and logs the old block again, with a whole chain:
    from pbem.pipeline import clock, handover
    from pbem.pipeline import opening as games
    from pbem.store.entries import Settings
    from pbem.store.gamefile import current_hash

    old = last_of(fast_yaml.safe_load(game.read_text()), "settings")
    replayed = [e for e in fast_yaml.safe_load(game.read_text())["log"] if e.get("block")][-2]
    opened = games.open_game(game)
    change = clock.Change(replayed["deadlines"], None)
    entry = Settings(seq=opened.gf.seq + 1, prev_state=current_hash(opened.gf), post_state="",
                     events=[clock.settings_event(change.deadlines, None)],
                     deadlines=change.deadlines, block=replayed["block"],
                     payload_sha256=replayed["payload_sha256"])
    handover.apply_change(opened.gf, change)
    handover._advance(opened, entry)
    games.commit(opened)
    assert old["deadlines"]["nmr"] == "wait" and fast_yaml.safe_load(
        game.read_text())["roster"]["deadlines"]["nmr"] == "skip"
    verify_fails(game, "the moderator's block was used before")
