"""Names and settings bound by the chain (issue 21 §1): since format 4 the setup entry fixes
each seat's name and the moderator's name and e-mail; a seat's name changes only by a
moderator-signed replacement, and verify rebuilds the roster's names, e-mails and deadlines from
the log. A game begun before format 4 (tests/fixtures/format3, made by the older pbem) still
verifies and takes blocks, with its names unbound as they always were."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import gamefile
from tests import fast_yaml
from tests.pbem.test_mail_helpers import acting, block_for, first_move, make_game

FORMAT3 = Path(__file__).resolve().parents[1] / "fixtures" / "format3"
runner = CliRunner()


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def edited(game: Path, edit: Callable[[dict[str, Any]], None]) -> tuple[int, str]:
    """Apply `edit` to the file as a host would, then verify it."""
    data = fast_yaml.safe_load(game.read_text())
    edit(data)
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, _, err = cli("verify", str(game))
    return code, err


def replaced(tmp_path: Path) -> Path:
    """A game where the acting seat was handed to dora, by the moderator."""
    game = make_game(tmp_path)
    assert cli("keygen", "dora", "--email", "dora@example.org", "--dir", str(tmp_path))[0] == 0
    code, _, err = cli("replace-player", str(game), acting(game), "--key",
                       str(tmp_path / "max.key"), "--pub", str(tmp_path / "dora.pub"))
    assert code == 0, err
    return game


def test_a_new_game_fixes_its_names_in_the_setup_entry(tmp_path: Path) -> None:
    data = fast_yaml.safe_load(make_game(tmp_path).read_text())
    settings = data["log"][0]["settings"]
    assert data["format"] == gamefile.FORMAT == 4
    assert settings["names"] == {p["id"]: p["name"] for p in data["roster"]["players"]}
    assert settings["moderator"] == {"name": "Max", "email": "max@example.org"}


def test_a_host_who_renames_a_seat_is_caught(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    code, err = edited(game, lambda d: d["roster"]["players"][1].update(name="Eve"))
    assert code == 5 and "player names" in err


def test_a_host_who_reorders_the_seats_is_caught(tmp_path: Path) -> None:
    """The roster's order is the order mail and reports list the seats in: the game's."""
    game = make_game(tmp_path)
    code, err = edited(game, lambda d: d["roster"]["players"].reverse())
    assert code == 5 and "seats" in err


def test_a_host_who_swaps_the_moderators_address_is_caught(tmp_path: Path) -> None:
    """The moderator's address is where a host would divert the moderator's mail (the signed
    blocks a moderator sends, the moderator's reports): no command changes it."""
    game = make_game(tmp_path)
    code, err = edited(game, lambda d: d["roster"]["moderator"].update(email="eve@evil.example"))
    assert code == 5 and "moderator name or e-mail" in err
    code, err = edited(game, lambda d: d["roster"]["moderator"].update(name="Eve"))
    assert code == 5 and "moderator name or e-mail" in err


def test_names_cannot_be_unbound_by_editing_the_setup_entry(tmp_path: Path) -> None:
    game = make_game(tmp_path)

    def unbind(data: dict[str, Any]) -> None:
        del data["log"][0]["settings"]["names"]
        data["roster"]["players"][0]["name"] = "Eve"

    code, err = edited(game, unbind)
    assert code == 5 and "log entry seq 0" in err


def test_a_replacement_renames_the_seat_and_still_verifies(tmp_path: Path) -> None:
    game = replaced(tmp_path)
    code, out, err = cli("verify", str(game))
    assert code == 0 and out.startswith("ok: "), err
    seat = gamefile.load(game).log[-1]["player"]
    entry = gamefile.load(game).roster_entry(seat)
    assert entry is not None and entry["name"] == "dora"


def test_a_replacements_old_name_or_a_name_it_did_not_sign_is_caught(tmp_path: Path) -> None:
    game = replaced(tmp_path)
    good = game.read_text()
    code, err = edited(game, lambda d: d["log"][-1]["old"].update(name="Eve"))
    assert code == 5 and "its old name" in err
    game.write_text(good)

    def shout(data: dict[str, Any]) -> None:  # the signed name is 'dora'; events fixed too
        seat = data["log"][-1]["player"]
        data["log"][-1]["new"]["name"] = "DORA"
        data["log"][-1]["events"][0]["args"]["name"] = "DORA"
        next(p for p in data["roster"]["players"] if p["id"] == seat)["name"] = "DORA"

    code, err = edited(game, shout)
    assert code == 5 and "new name is not the one the moderator signed" in err


def test_deleting_the_deadlines_a_logged_change_wrote_is_caught(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    assert "deadlines" not in fast_yaml.safe_load(game.read_text())["roster"]  # the default: omitted
    code, _, err = cli("deadlines", str(game), "--set", "default=72h", "--nmr", "skip",
                       "--key", str(tmp_path / "max.key"))
    assert code == 0, err
    good = game.read_text()
    for edit in (lambda d: d["roster"].pop("deadlines"),
                 lambda d: d["roster"]["deadlines"].pop("nmr"),
                 lambda d: d["roster"]["deadlines"]["decisions"].clear()):
        game.write_text(good)
        code, err = edited(game, edit)
        assert code == 5 and "deadlines or NMR policy" in err
    # back to the default policy: pbem writes it, so deleting it is still a change to the file
    game.write_text(good)
    code, _, err = cli("deadlines", str(game), "--unset", "default", "--nmr", "wait",
                       "--key", str(tmp_path / "max.key"))
    assert code == 0, err
    code, err = edited(game, lambda d: d["roster"].pop("deadlines"))
    assert code == 5 and "deadlines or NMR policy" in err


@pytest.fixture
def format3_game(tmp_path: Path) -> Path:
    for source in FORMAT3.iterdir():
        shutil.copy(source, tmp_path / source.name)
    return tmp_path / "pax-names.yaml"


def test_a_format3_game_still_verifies_and_takes_blocks(format3_game: Path) -> None:
    data = fast_yaml.safe_load(format3_game.read_text())
    assert data["format"] == 3 and "names" not in data["log"][0]["settings"]
    assert {e["kind"] for e in data["log"]} >= {"settings", "timeout", "replacement"}
    code, out, err = cli("verify", str(format3_game))
    assert code == 0 and out.startswith("ok: "), err
    orders = format3_game.parent / "orders.txt"
    orders.write_text(block_for(format3_game, first_move(format3_game)))
    code, _, err = cli("apply", str(format3_game), str(orders))
    assert code == 0, err
    code, out, err = cli("verify", str(format3_game))
    assert code == 0 and out.startswith("ok: "), err
    assert fast_yaml.safe_load(format3_game.read_text())["format"] == gamefile.FORMAT


def test_a_format3_game_still_binds_its_e_mails_and_deadlines(format3_game: Path) -> None:
    """Its names were never fixed (documented in docs/security.md), but its settings were."""
    good = format3_game.read_text()
    code, err = edited(format3_game, lambda d: d["roster"]["players"][0].update(
        email="eve@evil.example"))
    assert code == 5 and "e-mail addresses" in err
    format3_game.write_text(good)
    code, err = edited(format3_game, lambda d: d["roster"].pop("deadlines"))
    assert code == 5 and "deadlines or NMR policy" in err
