"""A seat's language as a setting (issue 18, step 2), through the CLI: from the .pub
(`pbem keygen --language hu`), `pbem roster --language` or a replacement's .pub; refused without
a catalog; bound like the other seat settings (the moderator signs it, verify rebuilds it, a
format-3 game sets it unlogged). The mails it chooses: test_seat_language.py."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests import fast_yaml
from tests.pbem.test_seat_language import Table, roster, seat
from tests.security.test_names_bound import cli, edited
from tests.security.test_seat_settings_bound import FORMAT3


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    """The same 4-player game as test_seat_language.py's (two seats read Hungarian)."""
    monkeypatch.setenv("PBEM_MAIL_FROM", "Lisbon host <host@example.org>")
    return Table(tmp_path)


def test_keygen_writes_the_language_into_the_pub_and_new_takes_it(table: Table) -> None:
    line = (table.folder / "ada.pub").read_text()
    assert line.endswith(" ada (lang=hu) <ada@example.org>\n")
    rows = roster(table.game)
    assert rows["ada"]["language"] == "hu" and rows["ada"]["name"] == "ada"
    assert rows["cy"]["language"] in (None, "hu")
    data = fast_yaml.safe_load(table.game.read_text())
    assert data["log"][0]["settings"]["seats"]["language"][table.seats["ada"]] == "hu"
    code, out, _ = cli("roster", str(table.game))
    assert f"{table.seats['ada']}: ada <ada@example.org> UTC" in out and " reads hu" in out


def test_keygen_refuses_a_language_without_a_catalog(tmp_path: Path) -> None:
    code, _, err = cli("keygen", "eve", "--dir", str(tmp_path), "--language", "xx")
    assert code == 2 and err == "error: unknown language 'xx'; languages: en, hu\n"
    assert list(tmp_path.iterdir()) == []


def test_roster_refuses_an_unknown_language_and_changes_nothing(table: Table) -> None:
    game, ben = table.game, table.seats["ben"]
    before = game.read_bytes()
    for value in ("xx", "../../etc", "x" * 300):
        code, _, err = cli("roster", str(game), "--key", str(table.folder / "max.key"),
                           "--language", f"{ben}={value}")
        assert code == 2 and "languages: en, hu" in err and err.count("\n") == 1, err
        assert game.read_bytes() == before
    code, _, err = cli("roster", str(game), "--language", f"{ben}=hu")  # no moderator's key
    assert code == 2 and "--key" in err and game.read_bytes() == before


def test_a_forged_language_change_is_caught_by_verify(table: Table) -> None:
    """The attack: the host flips a seat's language, so the player gets reports they cannot
    read (or deletes the choice, or edits the logged change to match)."""
    game, ada = table.game, table.seats["ada"]
    english = next(s for s in table.seats.values() if table.language(s) == "en")
    honest = game.read_bytes()
    assert cli("verify", str(game))[0] == 0
    code, err = edited(game, lambda d: seat(d, english).update(language="hu"))
    assert code == 5 and "language settings" in err and err.count("\n") == 1
    game.write_bytes(honest)
    code, err = edited(game, lambda d: seat(d, ada).pop("language"))
    assert code == 5 and "language settings" in err
    game.write_bytes(honest)

    def both(data: dict[str, Any]) -> None:  # the logged change and the roster, made to agree
        change = data["log"][-1]["seats"]["language"]
        (player,) = change
        change[player] = "en"
        seat(data, player)["language"] = "en"

    code, err = edited(game, both)
    assert code == 5 and "seq" in err


def test_a_replacement_from_a_pub_with_a_language_gives_the_seat_that_language(
        table: Table) -> None:
    game = table.game
    english = next(s for s in table.seats.values() if table.language(s) == "en")
    code, _, err = cli("keygen", "eve", "--email", "eve@example.org", "--dir",
                       str(table.folder), "--language", "hu")
    assert code == 0, err
    code, _, err = cli("replace-player", str(game), english, "--key",
                       str(table.folder / "max.key"), "--pub", str(table.folder / "eve.pub"))
    assert code == 0, err
    data = fast_yaml.safe_load(game.read_text())
    assert seat(data, english)["language"] == "hu" and "language hu" in data["log"][-1]["block"]
    assert cli("verify", str(game))[0] == 0
    code, out, _ = cli("report", str(game), "--for", english)
    assert code == 0 and "Játékosok (ülésrend)" in out
    code, err = edited(game, lambda d: seat(d, english).update(language="en"))
    assert code == 5 and "language settings" in err


def test_a_moderator_far_away_signs_a_language_change_the_host_applies(table: Table) -> None:
    game, cy = table.game, table.seats["cy"]
    code, block, err = cli("roster", str(game), "--key", str(table.folder / "max.key"),
                           "--language", f"{cy}=hu", "--print")
    assert code == 0 and f"language {cy} hu" in block, err
    (table.folder / "block.txt").write_text(block)
    assert cli("roster", str(game), "--block", str(table.folder / "block.txt"))[0] == 0
    assert seat(fast_yaml.safe_load(game.read_text()), cy)["language"] == "hu"
    assert cli("verify", str(game))[0] == 0


def test_new_refuses_a_pub_asking_for_a_language_without_a_catalog(tmp_path: Path) -> None:
    for name in ("ann", "bob", "cy"):
        assert cli("keygen", name, "--dir", str(tmp_path))[0] == 0
    pub = tmp_path / "bob.pub"
    pub.write_text(pub.read_text().replace(" bob", " bob (lang=xx)"))
    players = [arg for name in ("ann", "bob", "cy") for arg in ("--player", str(tmp_path / f"{name}.pub"))]
    code, _, err = cli("new", str(tmp_path / "g.yaml"), *players)
    assert code == 2 and err == "error: unknown language 'xx'; languages: en, hu\n"
    assert not (tmp_path / "g.yaml").exists()


def test_a_format3_game_sets_a_language_unlogged_as_its_other_seat_settings(
        tmp_path: Path) -> None:
    folder = tmp_path / "format3"
    shutil.copytree(FORMAT3, folder)
    game = folder / "pax-names.yaml"
    entries = len(fast_yaml.safe_load(game.read_text())["log"])
    first = fast_yaml.safe_load(game.read_text())["roster"]["players"][0]["id"]
    code, _, err = cli("roster", str(game), "--language", f"{first}=hu")
    assert code == 0, err
    data = fast_yaml.safe_load(game.read_text())
    assert len(data["log"]) == entries and seat(data, first)["language"] == "hu"
    assert cli("verify", str(game))[0] == 0
    code, out, _ = cli("report", str(game), "--for", first)
    assert code == 0 and "Játékosok (ülésrend)" in out
