"""Vacations (issue 24 §1): `away until DATE` and `back` in a signed block, taken at any time
and never spent on a game decision; an away player's clocks stop, `remind` and `timeout` skip
them, `status` and reports say who is away until when; an allowance per player and game; the
clock restarts from the full deadline when the absence ends; verify re-checks every entry.

The entries are logged at the wall clock's time, so the tests' `--now` moments are taken from
it too (a few days on, as a cron job would see them)."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import inbox, mailboxes
from pbem.delivery.deadlines import iso
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import load_private_key, sign
from pbem.orders.signing import sign_orders
from pbem.store import gamefile
from pbem.store.gamefile import current_hash, fingerprint
from tests import fast_yaml
from tests.pbem.test_deadlines import NO_TZ, Recorder
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    first_move,
    key_of,
    make_game,
    make_maildir,
    plain,
    settings_for,
)
from tests.reliability.test_commit_point import fail_the_game_file_rename, to_the_last_bid

runner = CliRunner()
NOW = datetime.now(UTC).replace(microsecond=0)


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def at(days: float) -> str:
    return iso(NOW + timedelta(days=days))


def day(days: int) -> str:
    """A date `days` on, as a player writes it."""
    return (NOW + timedelta(days=days)).strftime("%Y-%m-%d")


def life_block(game: Path, player: str, line: str) -> Path:
    path = game.parent / f"{player}-{line.split()[0]}.txt"
    path.write_text(sign_orders(line + "\n", key_of(game, player), game))
    return path


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A moderated 3-player game: 72h deadlines, missed turns skipped, an absence allowance
    of 21 days each."""
    path = make_game(tmp_path)
    code, _, err = cli("deadlines", str(path), "--key", str(tmp_path / "max.key"),
                       "--set", "default=72h", "--nmr", "skip", "--absence", "21d",
                       "--now", at(0))
    assert code == 0, err
    return path


def log_kinds(game: Path) -> list[str]:
    return [str(entry["kind"]) for entry in gamefile.load(game).log]


def test_an_away_player_s_clock_stops_and_remind_and_timeout_skip_them(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "host@example.org")
    mover = acting(game)
    code, out, err = cli("apply", str(game), str(life_block(game, mover, f"away until {day(10)}")))
    assert code == 0, err
    assert f"- {mover.title()} is away until {day(10)}T00:00:00Z" in out
    assert log_kinds(game)[-1] == "absence" and acting(game) == mover  # no decision spent
    assert f"is away until {(NOW + timedelta(days=10)).strftime('%a %d %b %Y')}" in \
        cli("status", str(game), "--now", at(1))[1]
    assert "is away until" in cli("report", str(game))[1]
    # five days on, long past the 72h deadline: the clock waits for the absence to end
    before = game.read_bytes()
    code, out, _ = cli("timeout", str(game), "--now", at(5))
    assert out == f"{mover}: away until {day(10)}T00:00:00Z\n"
    code, out, _ = cli("timeout", str(game), "--force", "--key", str(tmp_path / "max.key"),
                       "--now", at(5))
    assert out == f"{mover}: away until {day(10)}T00:00:00Z\n"  # never, not even forced
    assert game.read_bytes() == before
    assert cli("remind", str(game), "--outbox", str(tmp_path / "out"), "--now", at(5))[1] == \
        "no one is late\n"
    # back by the date: the full 72 hours from then
    end = datetime.fromisoformat(f"{day(10)}T00:00:00+00:00")
    assert "not overdue (due " + iso(end + timedelta(hours=72)) in \
        cli("timeout", str(game), "--now", iso(end + timedelta(hours=71)))[1]
    code, out, _ = cli("timeout", str(game), "--now", iso(end + timedelta(hours=73)))
    assert code == 0 and "did not answer in time" in out
    assert cli("verify", str(game))[0] == 0


def test_a_request_past_the_allowance_is_refused_and_says_what_is_left(game: Path) -> None:
    mover = acting(game)
    assert cli("apply", str(game), str(life_block(game, mover, f"away until {day(6)}")))[0] == 0
    block = life_block(game, mover, f"away until {day(30)}")
    before = game.read_bytes()
    code, _, err = cli("apply", str(game), str(block))
    assert code == 1 and err.count("\n") == 1
    assert f"but {mover} has " in err and " of absence left in this game (of 21d)" in err
    assert game.read_bytes() == before
    # within what is left: taken, and the first absence is only extended
    assert cli("apply", str(game), str(life_block(game, mover, f"away until {day(20)}")))[0] == 0
    assert cli("verify", str(game))[0] == 0


def test_a_game_without_an_allowance_takes_no_absence(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    mover = acting(game)
    before = game.read_bytes()
    code, _, err = cli("apply", str(game), str(life_block(game, mover, f"away until {day(3)}")))
    assert code == 1 and "this game allows no absence" in err and "--absence 21d" in err
    assert game.read_bytes() == before


def test_back_restarts_the_clock_from_the_full_deadline(game: Path) -> None:
    mover = acting(game)
    cli("apply", str(game), str(life_block(game, mover, f"away until {day(10)}")))
    cli("timeout", str(game), "--now", at(0))  # the mail run that sends the report starts the clock
    code, out, err = cli("apply", str(game), str(life_block(game, mover, "back")))
    assert code == 0 and f"- {mover.title()} is back" in out, err
    back = datetime.fromisoformat(str(gamefile.load(game).log[-1]["at"]))
    code, out, _ = cli("timeout", str(game), "--now", iso(back + timedelta(hours=71)))
    assert out == f"{mover}: not overdue (due {iso(back + timedelta(hours=72))})\n"
    assert "did not answer in time" in cli("timeout", str(game), "--now", at(3.1))[1]
    assert cli("verify", str(game))[0] == 0
    # `back` when not away is refused, the file untouched
    before = game.read_bytes()
    code, _, err = cli("apply", str(game), str(life_block(game, mover, "back")))
    assert code == 1 and f"{mover} is not away" in err and game.read_bytes() == before


def test_anyone_may_go_away_at_any_time_by_mail(game: Path, tmp_path: Path) -> None:
    idle = next(p for p in gamefile.load(game).player_ids() if p != acting(game))
    entry = gamefile.load(game).roster_entry(idle)
    assert entry is not None
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, plain(life_block(game, idle, f"away until {day(4)} 18:30").read_text(),
                        str(entry["email"])))
    lines = inbox.process(mailboxes.read_maildir(maildir), [game], out, settings_for(1), NOW)
    assert "applied as seq" in lines[0], lines
    logged = gamefile.load(game).log[-1]
    assert logged["kind"] == "absence" and logged["until"] == f"{day(4)}T18:30:00Z"
    assert cli("verify", str(game))[0] == 0


@pytest.mark.skipif(bool(NO_TZ), reason=NO_TZ)
def test_the_date_is_read_in_the_player_s_own_zone(game: Path, tmp_path: Path) -> None:
    mover = acting(game)
    assert cli("roster", str(game), "--key", str(tmp_path / "max.key"), "--timezone",
               f"{mover}=Asia/Tokyo")[0] == 0
    cli("apply", str(game), str(life_block(game, mover, f"away until {day(5)} 09:00")))
    assert gamefile.load(game).log[-1]["until"] == f"{day(5)}T00:00:00Z"  # 09:00 JST
    assert cli("verify", str(game))[0] == 0


def test_bad_lines_are_one_line_errors(game: Path) -> None:
    mover = acting(game)
    before = game.read_bytes()
    for line, code, said in [
            (f"away until {day(40)[:4]}-13-40", 3, "is not a date and time"),
            ("away for a while", 3, "expected 'away until YYYY-MM-DD'"),
            (f"away until {(NOW - timedelta(days=2)).strftime('%Y-%m-%d')}", 1, "has passed")]:
        result = cli("apply", str(game), str(life_block(game, mover, line)))
        assert result[0] == code and said in result[2] and result[2].count("\n") == 1, result
    mixed = game.parent / "mixed.txt"
    mixed.write_text(sign_orders(f"away until {day(3)}\nend\n", key_of(game, mover), game))
    code, _, err = cli("apply", str(game), str(mixed))
    assert code == 3 and "goes in a block of its own" in err
    assert game.read_bytes() == before


@pytest.mark.parametrize(("edit", "said"), [
    ("until", "its end is not the signed date in the player's zone"),
    ("at", "it was refused when it came"),
    ("player", "the block is not this game's or this player's"),
    ("roster", "the roster's absences and pauses are not the ones")])
def test_verify_catches_an_edit_of_an_absence(game: Path, edit: str, said: str) -> None:
    mover = acting(game)
    cli("apply", str(game), str(life_block(game, mover, f"away until {day(5)}")))
    assert cli("verify", str(game))[0] == 0
    data = fast_yaml.safe_load(game.read_text())
    entry = data["log"][-1]
    if edit == "until":
        entry["until"] = f"{day(9)}T00:00:00Z"
    elif edit == "at":
        entry["at"] = at(-30)  # an earlier start would use more of the allowance
    elif edit == "player":
        entry["player"] = next(p for p in data["roster"]["players"] if p["id"] != mover)["id"]
    else:
        data["roster"]["life"]["away"][mover]["until"] = f"{day(2)}T00:00:00Z"
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, _, err = cli("verify", str(game))
    assert code == 5 and said in err, err


def test_the_allowance_is_set_at_new_and_logged_with_deadlines(tmp_path: Path) -> None:
    for name in ("ada", "ben", "cy"):
        assert cli("keygen", name, "--dir", str(tmp_path))[0] == 0
    game = tmp_path / "g.yaml"
    code, _, err = cli("new", str(game), "--open", "--absence", "14d",
                       *(x for n in ("ada", "ben", "cy") for x in ("--player", str(tmp_path / f"{n}.pub"))))
    assert code == 0, err
    assert gamefile.load(game).roster["deadlines"]["absence"] == "14d"
    assert "absence allowance: 14d" in cli("deadlines", str(game))[1]
    assert cli("deadlines", str(game), "--absence", "30d")[0] == 0
    assert gamefile.load(game).log[-1]["deadlines"]["absence"] == "30d"
    code, _, err = cli("deadlines", str(game), "--absence", "soon")
    assert code == 2 and "is not a duration" in err
    assert cli("verify", str(game))[0] == 0


def test_a_block_written_before_someone_went_away_still_applies(game: Path) -> None:
    mover = acting(game)
    idle = next(p for p in gamefile.load(game).player_ids() if p != mover)
    orders = game.parent / "orders.txt"
    orders.write_text(block_for(game, first_move(game)))  # signed before the absence
    assert cli("apply", str(game), str(life_block(game, idle, f"away until {day(3)}")))[0] == 0
    assert cli("apply", str(game), str(life_block(game, idle, "back")))[0] == 0
    code, _, err = cli("apply", str(game), str(orders))  # an absence changes no rule
    assert code == 0, err
    assert log_kinds(game)[-3:] == ["absence", "absence", "orders"]
    resent = cli("apply", str(game), str(game.parent / f"{idle}-away.txt"))  # the same block
    assert resent[0] == 4 and "already applied as seq" in resent[2]
    assert cli("verify", str(game))[0] == 0


def test_a_crash_on_an_absence_in_a_moderated_hidden_game_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Age of Renaissance, moderated, a sealed bid pending: the absence is committed like any
    entry (the secrets' generation first, the game file's rename the commit point)."""
    game, last = to_the_last_bid(tmp_path)
    secrets = ["--secrets", str(game.with_suffix(".seed"))]
    assert cli("deadlines", str(game), "--absence", "10d", "--key",
               str(tmp_path / "max.key"))[0] == 0
    before = game.read_bytes()
    # the start of the third day on: still ahead at 1.5 days whatever the hour the test runs
    away = life_block(game, last, f"away until {day(3)}")
    fail_the_game_file_rename(game, monkeypatch)
    code, _, err = cli("apply", str(game), str(away))
    assert code == 74 and "No space left" in err
    monkeypatch.undo()
    assert game.read_bytes() == before
    assert cli("verify", str(game), *secrets)[0] == 0
    code, out, err = cli("apply", str(game), str(away))  # sent again: it takes
    assert code == 0 and "is away until" in out, err
    assert f"{last}: away until" in cli("timeout", str(game), "--now", at(1.5))[1]  # no bid
    assert cli("verify", str(game), *secrets)[0] == 0
    assert "is away until" in cli("post", str(game), "--now", at(1))[1]


@pytest.mark.skipif(bool(NO_TZ), reason=NO_TZ)
def test_an_older_game_takes_absences_too(tmp_path: Path) -> None:
    """A game begun before format 4 sets time zones unlogged: the absence is read in the
    roster's zone, and verify passes (tests/fixtures stay as they are)."""
    fixtures = Path(__file__).parents[1] / "fixtures" / "format3"
    for item in fixtures.iterdir():
        shutil.copy(item, tmp_path / item.name)
    game = tmp_path / "pax-names.yaml"
    ada = next(p["id"] for p in gamefile.load(game).roster["players"] if p["name"] == "ada")
    assert cli("roster", str(game), "--timezone", f"{ada}=Asia/Tokyo")[0] == 0
    assert cli("deadlines", str(game), "--absence", "10d", "--key",
               str(tmp_path / "max.key"))[0] == 0
    away = tmp_path / "away.txt"
    away.write_text(sign_orders(f"away until {day(4)} 09:00\n", tmp_path / "ada.key", game))
    code, out, err = cli("apply", str(game), str(away))
    assert code == 0 and "is away until" in out, err
    assert gamefile.load(game).log[-1]["until"] == f"{day(4)}T00:00:00Z"
    assert cli("verify", str(game))[0] == 0


def test_a_forged_absence_is_refused_and_changes_nothing(game: Path) -> None:
    """A block that names one player but is signed with another's key."""
    mover = acting(game)
    other = next(p for p in gamefile.load(game).player_ids() if p != mover)
    gf = gamefile.load(game)
    state = fingerprint(current_hash(gf))
    lines = [f"away until {day(5)}"]
    payload = canonical_payload(gf.game_id, mover, gf.seq, state, lines)
    forged = game.parent / "forged.txt"
    forged.write_text(format_block(gf.game_id, mover, gf.seq, state, lines,
                                   sign(load_private_key(key_of(game, other)), payload)))
    before = game.read_bytes()
    code, _, err = cli("apply", str(game), str(forged))
    assert code == 3 and "signature" in err and game.read_bytes() == before
