"""A seat's own settings bound by the chain (issue 21 §1, issue 23 §5): since format 4 the setup
entry fixes each seat's time zone and digest choice, and `pbem roster --timezone/--digest` logs
a `settings` entry, signed by the moderator in a game with one (`--key`, or `--print` then
`--block`), unsigned by the host in a game without. verify rebuilds them from the log, and
refuses a roster key that nothing binds. A game begun before format 4 keeps them unbound."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.delivery import deadlines
from pbem.store import gamefile
from tests import fast_yaml
from tests.pbem.test_mail_helpers import make_game
from tests.security.test_names_bound import cli, edited

FORMAT3 = Path(__file__).resolve().parents[1] / "fixtures" / "format3"
NOON = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)  # a deadline: noon in Lisbon, 02:00 on Kiritimati


def seat(data: dict[str, Any], player: str) -> dict[str, Any]:
    return next(p for p in data["roster"]["players"] if p["id"] == player)


def moderated(tmp_path: Path) -> tuple[Path, list[str]]:
    """A moderated game where the moderator set the first seat's zone (Lisbon) and digest
    (each: a mail after every move) and the second seat's zone."""
    game = make_game(tmp_path)
    players = gamefile.load(game).player_ids()
    code, _, err = cli("roster", str(game), "--key", str(tmp_path / "max.key"),
                       "--timezone", f"{players[0]}=Europe/Lisbon",
                       "--digest", f"{players[0]}=each",
                       "--timezone", f"{players[1]}=Asia/Tokyo")
    assert code == 0, err
    return game, players


def test_a_new_game_fixes_its_seats_settings_and_a_change_is_logged(tmp_path: Path) -> None:
    game, players = moderated(tmp_path)
    data = fast_yaml.safe_load(game.read_text())
    assert data["log"][0]["settings"]["seats"] == {
        "timezone": dict.fromkeys(players, ""), "digest": dict.fromkeys(players, ""),
        "language": dict.fromkeys(players, "")}
    change = data["log"][-1]
    assert change["kind"] == "settings" and change["seats"] == {
        "digest": {players[0]: "each"},
        "timezone": {players[0]: "Europe/Lisbon", players[1]: "Asia/Tokyo"}}
    assert f"timezone {players[0]} Europe/Lisbon" in change["block"]  # the moderator signed it
    assert seat(data, players[0])["timezone"] == "Europe/Lisbon"
    assert cli("verify", str(game))[0] == 0
    code, out, _ = cli("log", str(game))
    assert code == 0 and f"new timezone for {players[0]}, {players[1]}" in out


def test_a_host_who_moves_a_deadline_into_the_night_is_caught(tmp_path: Path) -> None:
    """The attack: the player's deadline reads noon in Lisbon; the host gives the seat a zone
    where the same moment is 02:00, so the player's mail says to answer in the night."""
    game, players = moderated(tmp_path)
    ada = players[0]
    shown = deadlines.local_time(NOON, deadlines.zone_of(gamefile.load(game), ada))
    assert "12:00" in shown and "Europe/Lisbon" in shown
    before = game.read_bytes()
    code, _, err = cli("roster", str(game), "--timezone", f"{ada}=Pacific/Kiritimati")
    assert code == 2 and "--key" in err and game.read_bytes() == before  # not without the key
    data = fast_yaml.safe_load(game.read_text())
    seat(data, ada)["timezone"] = "Pacific/Kiritimati"
    night = gamefile.GameFile.from_data(data)
    assert "02:00" in deadlines.local_time(NOON, deadlines.zone_of(night, ada))  # what it did
    code, err = edited(game, lambda d: seat(d, ada).update(timezone="Pacific/Kiritimati"))
    assert code == 5 and "timezone settings" in err and err.count("\n") == 1


def test_a_host_who_flips_a_digest_to_hide_reports_is_caught(tmp_path: Path) -> None:
    """The attack: a player who chose a mail after each move is flipped to one digest a day,
    so the moves between reach them late (or, deleting the choice, the other way)."""
    game, players = moderated(tmp_path)
    ada, honest = players[0], game.read_bytes()
    code, err = edited(game, lambda d: seat(d, ada).update(digest="daily"))
    assert code == 5 and "digest settings" in err
    shown = json.loads(cli("roster", str(game), "--json")[1])
    assert next(r for r in shown if r["id"] == ada)["digest"] == "daily"  # what mail would do
    for key, player in (("digest", ada), ("timezone", players[1])):  # a deleted choice
        game.write_bytes(honest)
        code, err = edited(game, lambda d, key=key, player=player: seat(d, player).pop(key))
        assert code == 5 and f"{key} settings" in err


def test_the_logged_change_itself_cannot_be_edited(tmp_path: Path) -> None:
    game, players = moderated(tmp_path)

    def both(data: dict[str, Any]) -> None:  # the entry and the roster, made to agree
        data["log"][-1]["seats"]["timezone"][players[0]] = "Pacific/Kiritimati"
        seat(data, players[0])["timezone"] = "Pacific/Kiritimati"

    code, err = edited(game, both)
    assert code == 5 and "seq" in err


def test_a_moderator_far_away_signs_the_change_and_the_host_applies_it(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    ada = gamefile.load(game).player_ids()[0]
    code, block, _ = cli("roster", str(game), "--key", str(tmp_path / "max.key"),
                         "--digest", f"{ada}=daily", "--print")
    assert code == 0 and f"digest {ada} daily" in block
    assert seat(fast_yaml.safe_load(game.read_text()), ada).get("digest") is None  # only printed
    (tmp_path / "block.txt").write_text(block)
    assert cli("roster", str(game), "--block", str(tmp_path / "block.txt"))[0] == 0
    assert seat(fast_yaml.safe_load(game.read_text()), ada)["digest"] == "daily"
    code, _, err = cli("roster", str(game), "--block", str(tmp_path / "block.txt"))
    assert code != 0 and "already applied" in err
    assert cli("verify", str(game))[0] == 0


def test_without_a_moderator_the_host_logs_the_change_unsigned(tmp_path: Path) -> None:
    game = make_game(tmp_path, moderator=False)
    ada = gamefile.load(game).player_ids()[0]
    assert cli("roster", str(game), "--timezone", f"{ada}=Europe/Lisbon")[0] == 0
    change = fast_yaml.safe_load(game.read_text())["log"][-1]
    assert change["seats"] == {"timezone": {ada: "Europe/Lisbon"}} and "block" not in change
    assert cli("verify", str(game))[0] == 0
    code, err = edited(game, lambda d: seat(d, ada).update(timezone="Asia/Tokyo"))
    assert code == 5 and "timezone settings" in err


def test_a_replacement_carries_the_zone_over_or_signs_a_new_one(tmp_path: Path) -> None:
    game, players = moderated(tmp_path)
    assert cli("keygen", "dora", "--email", "dora@example.org", "--dir", str(tmp_path))[0] == 0
    code, _, err = cli("replace-player", str(game), players[1], "--key",
                       str(tmp_path / "max.key"), "--pub", str(tmp_path / "dora.pub"),
                       "--timezone", "America/New_York")
    assert code == 0, err
    assert seat(fast_yaml.safe_load(game.read_text()), players[1])["timezone"] == "America/New_York"
    assert cli("verify", str(game))[0] == 0
    code, err = edited(game, lambda d: seat(d, players[1]).update(timezone="Asia/Tokyo"))
    assert code == 5 and "timezone settings" in err


def test_a_roster_key_that_nothing_binds_is_refused(tmp_path: Path) -> None:
    """A key pbem does not know would be a setting nothing binds (a later pbem might read it):
    a format-4 game holds none, in a seat, the moderator's entry or the roster."""
    game = make_game(tmp_path)
    for where in (lambda d: d["roster"]["players"][0], lambda d: d["roster"]["moderator"],
                  lambda d: d["roster"]):
        shutil.copy(game, tmp_path / "kept.yaml")
        code, err = edited(game, lambda d, where=where: where(d).update(colour="red"))
        assert code == 5 and "'colour', which pbem does not know" in err, err
        shutil.copy(tmp_path / "kept.yaml", game)
    assert cli("verify", str(game))[0] == 0


def test_a_format3_game_sets_zones_and_digests_unlogged_as_before(tmp_path: Path) -> None:
    """tests/fixtures/format3 was made by the older pbem: its seats' settings were never
    fixed, so `roster` writes them as it did (no key asked) and verify still passes."""
    folder = tmp_path / "format3"
    shutil.copytree(FORMAT3, folder)
    game = folder / "pax-names.yaml"
    entries = len(fast_yaml.safe_load(game.read_text())["log"])
    ada = gamefile.load(game).player_ids()[0]
    code, _, err = cli("roster", str(game), "--timezone", f"{ada}=Europe/Lisbon",
                       "--digest", f"{ada}=daily")
    assert code == 0, err
    data = fast_yaml.safe_load(game.read_text())
    assert len(data["log"]) == entries and seat(data, ada)["digest"] == "daily"
    assert cli("verify", str(game))[0] == 0
