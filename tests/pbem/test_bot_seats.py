"""A seat handed to a bot (issue 24 §3): `bot on SHA256:...` and `bot off` from the player, the
moderator's roster change for a dropout, the bot's key signing beside the player's, logged and
checked by verify, marked in reports; `bot on ... until DATE`, which ends by itself; the
moderator's `bot off SEAT`, also by mail; and under cron, `pbem timeout` playing the owed bot
seats whose keys the host keeps in GAME.bots/."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbem import api
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.store import gamefile
from tests import fast_yaml
from tests.pbem.test_mail_helpers import HOST, acting, drop, key_of, make_game, make_maildir, plain
from tests.pbem.test_pauses import moderator_block
from tests.pbem.test_vacations import NO_TZ, cli, life_block
from tests.reliability.kit import ok


def test_a_dropout_s_seat_handed_to_a_bot_plays_on_and_verifies(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    write_keypair(tmp_path / "robot", "Robot", "robot@example.org")
    dropout = gamefile.load(game).player_ids()[1]
    code, _, err = cli("replace-player", str(game), dropout, "--key", str(tmp_path / "max.key"),
                       "--pub", str(tmp_path / "robot.pub"))
    assert code == 0, err
    keys = {p: key_of(game, p) for p in gamefile.load(game).player_ids()}
    keys[dropout] = tmp_path / "robot.key"
    played = 0
    for _ in range(8):  # a few turns round the table; the others are bots of their own
        for seat, key in keys.items():
            code, out, err = cli("bot", str(game), "--seat", seat, "--key", str(key),
                                 "--apply", "--policy", "random" if seat != dropout else "greedy")
            assert code == 0, err
            played += out.count(f": {dropout} (bot): ") if seat == dropout else 0
    assert played >= 3
    robot = parse_public_key((tmp_path / "robot.pub").read_text()).roster_text()
    assert gamefile.load(game).roster_entry(dropout)["key"] == robot  # type: ignore[index]
    assert cli("verify", str(game))[0] == 0


def test_a_player_hands_their_seat_to_a_bot_and_takes_it_back(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    seat = acting(game)
    code, out, _ = cli("keygen", "robot", "--dir", str(tmp_path))
    fingerprint = out.split("its fingerprint is ")[1].strip()  # as `bot on` names it
    assert fingerprint == parse_public_key((tmp_path / "robot.pub").read_text()).fingerprint()
    robot = ["--seat", seat, "--key", str(tmp_path / "robot.key")]
    code, _, err = cli("bot", str(game), *robot, "--apply")
    assert code == 2 and f"'bot on {fingerprint}'" in err  # not handed over yet
    code, out, err = cli("apply", str(game), str(life_block(game, seat, f"bot on {fingerprint}")))
    assert code == 0 and "hands their seat to the bot" in out, err
    code, _, err = cli("bot", str(game), *robot)
    assert code == 2 and "--apply" in err
    code, out, err = cli("bot", str(game), *robot, "--apply", "--policy", "random")
    assert code == 0 and f"{seat} (bot): " in out, err
    bot_entries = [e for e in gamefile.load(game).log if e.get("bot")]
    assert bot_entries and all(e["player"] == seat for e in bot_entries)
    assert f"Played by the bot for {seat.title()}." in cli("log", str(game))[1]
    assert cli("verify", str(game))[0] == 0
    # an edit of the bot's key in its orders entry is caught
    data = fast_yaml.safe_load(game.read_text())
    tampered = tmp_path / "tampered.yaml"
    next(e for e in data["log"] if e.get("bot"))["bot"] = gamefile.load(game).roster_entry(
        seat)["key"]  # type: ignore[index]
    tampered.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, _, err = cli("verify", str(tampered))
    assert code == 5 and "not handed to then" in err
    # taken back: the bot's key no longer signs for the seat
    while acting(game) != seat:
        other = acting(game)
        cli("bot", str(game), "--seat", other, "--key", str(key_of(game, other)), "--apply",
            "--policy", "random")
    assert cli("apply", str(game), str(life_block(game, seat, "bot off")))[0] == 0
    before = game.read_bytes()
    code, _, err = cli("bot", str(game), *robot, "--apply")
    assert code == 2 and f"is not {seat}'s key" in err and game.read_bytes() == before
    assert cli("verify", str(game))[0] == 0


def test_under_cron_timeout_plays_the_bot_seats_whose_keys_the_host_keeps(
        tmp_path: Path) -> None:
    game = make_game(tmp_path)
    seat = gamefile.load(game).player_ids()[0]
    bots = tmp_path / "lisbon.bots"
    bots.mkdir()
    write_keypair(bots / "robot", "Robot", "robot@example.org")
    fingerprint = parse_public_key((bots / "robot.pub").read_text()).fingerprint()
    assert cli("apply", str(game), str(life_block(game, seat, f"bot on {fingerprint}")))[0] == 0
    by_bot = 0
    for _ in range(6):  # hourly cron runs; the other players answer between them
        code, out, err = cli("timeout", str(game))
        assert code == 0, err
        by_bot += out.count(f": {seat} (bot): ")
        assert seat not in api.status(gamefile.load(game))["waiting_for"]  # never waits
        other = acting(game)
        cli("bot", str(game), "--seat", other, "--key", str(key_of(game, other)), "--apply",
            "--policy", "random")
    assert by_bot >= 2
    assert cli("verify", str(game))[0] == 0


def handed_to_robot(game: Path, seat: str, until: str = "") -> list[str]:
    """`bot on` the robot's key (in GAME.bots/, where cron finds it) from `seat`'s player; the
    options to run `pbem bot` with that key."""
    bots = game.with_suffix(".bots")
    bots.mkdir(exist_ok=True)
    write_keypair(bots / "robot", "Robot", "robot@example.org")
    fingerprint = parse_public_key((bots / "robot.pub").read_text()).fingerprint()
    line = f"bot on {fingerprint}" + (f" until {until}" if until else "")
    code, out, err = cli("apply", str(game), str(life_block(game, seat, line)))
    assert code == 0, err
    return ["--seat", seat, "--key", str(bots / "robot.key")]


def test_a_handover_until_a_date_ends_by_itself_at_the_next_cron_run(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    seat = acting(game)
    robot = handed_to_robot(game, seat, "2099-01-02 18:00")
    assert "hands their seat to the bot with the key" in cli("log", str(game))[1]
    assert "until 2099-01-02T18:00:00Z" in cli("log", str(game))[1]
    code, out, err = cli("timeout", str(game), "--now", "2099-01-02T17:59Z")
    assert code == 0 and f": {seat} (bot): " in out, err  # still the bot's
    while acting(game) != seat:  # the others play on
        other = acting(game)
        cli("bot", str(game), "--seat", other, "--key", str(key_of(game, other)), "--apply",
            "--policy", "random")
    code, out, err = cli("timeout", str(game), "--now", "2099-01-02T18:00Z")
    assert code == 0 and "(bot)" not in out, err
    entry = gamefile.load(game).log[-1]
    assert entry["kind"] == "bot" and entry["ended"] and entry["player"] == seat
    assert f"{seat.title()}'s seat returns from the bot" in cli("log", str(game))[1]
    before = game.read_bytes()
    code, _, err = cli("bot", str(game), *robot, "--apply")
    assert code == 2 and f"is not {seat}'s key" in err and game.read_bytes() == before
    assert cli("verify", str(game))[0] == 0
    # an end logged before its date is caught
    data = fast_yaml.safe_load(game.read_text())
    data["log"][-1]["at"] = "2099-01-02T17:00:00Z"
    tampered = tmp_path / "tampered.yaml"
    tampered.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, _, err = cli("verify", str(tampered))
    assert code == 5 and "had not ended" in err, err


def test_a_handover_until_a_past_date_is_refused_with_the_file_unchanged(
        tmp_path: Path) -> None:
    game = make_game(tmp_path)
    seat = acting(game)
    write_keypair(tmp_path / "robot", "Robot", "robot@example.org")
    fingerprint = parse_public_key((tmp_path / "robot.pub").read_text()).fingerprint()
    for until, exit_code, why in (("2001-01-01", 1, "has passed"),
                                  ("2099-02-30", 3, "is not a date")):
        block = life_block(game, seat, f"bot on {fingerprint} until {until}")
        before = game.read_bytes()
        code, _, err = cli("apply", str(game), str(block))
        assert code == exit_code and why in err and game.read_bytes() == before, err


def test_the_moderator_takes_a_seat_back_from_its_bot(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    seat = acting(game)
    robot = handed_to_robot(game, seat)
    code, out, err = cli("bot", str(game), *robot, "--apply")
    assert code == 0 and f"{seat} (bot): " in out, err
    before = game.read_bytes()
    for line, why in (("bot off", "the moderator names the seat"),
                      ("bot off nobody", "the moderator names the seat"),
                      (f"bot on {'x' * 3}", "expected")):
        code, _, err = cli("apply", str(game), str(moderator_block(game, line)))
        assert code == 3 and why in err and game.read_bytes() == before, (line, err)
    other = next(p for p in gamefile.load(game).player_ids() if p != seat)
    code, _, err = cli("apply", str(game), str(life_block(game, other, f"bot off {seat}")))
    assert code == 3 and "the player's own seat" in err and game.read_bytes() == before
    maildir = make_maildir(tmp_path / "Maildir")  # mailed to the host, as a pause is
    drop(maildir, plain(moderator_block(game, f"bot off {seat}").read_text(), "max@example.org"))
    out = ok("inbox", str(game), "--maildir", str(maildir), "--outbox", str(tmp_path / "out"),
             env={"PBEM_MAIL_FROM": HOST})
    assert "from max@example.org: applied as seq" in out, out
    assert f"The moderator takes {seat.title()}'s seat back" in cli("log", str(game))[1]
    code, _, err = cli("bot", str(game), *robot, "--apply")
    assert code == 2 and f"is not {seat}'s key" in err
    assert cli("verify", str(game))[0] == 0


@pytest.mark.skipif(bool(NO_TZ), reason=NO_TZ)
def test_a_handover_s_end_is_read_in_the_player_s_own_zone(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    seat = acting(game)
    assert cli("roster", str(game), "--key", str(tmp_path / "max.key"), "--timezone",
               f"{seat}=Asia/Tokyo")[0] == 0
    handed_to_robot(game, seat, "2099-01-02 09:00")
    entry = gamefile.load(game).log[-1]
    assert (entry["until"], entry["zone"]) == ("2099-01-02T00:00:00Z", "Asia/Tokyo")
    assert cli("verify", str(game))[0] == 0
    data = fast_yaml.safe_load(game.read_text())  # the same date read in another zone is caught
    data["log"][-1]["zone"] = ""
    tampered = tmp_path / "tampered.yaml"
    tampered.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, _, err = cli("verify", str(tampered))
    assert code == 5 and "time zone is not the player's" in err, err
