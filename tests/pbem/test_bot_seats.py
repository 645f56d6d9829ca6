"""A seat handed to a bot (issue 24 §3): `bot on SHA256:...` and `bot off` from the player, the
moderator's roster change for a dropout, the bot's key signing beside the player's, logged and
checked by verify, marked in reports; and under cron, `pbem timeout` playing the owed bot seats
whose keys the host keeps in GAME.bots/."""

from __future__ import annotations

from pathlib import Path

import yaml

from pbem import api
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import acting, key_of, make_game
from tests.pbem.test_vacations import cli, life_block


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
    data = yaml.safe_load(game.read_text())
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
