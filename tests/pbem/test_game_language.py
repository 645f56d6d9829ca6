"""A game's own language (issue 18): `pbem new --language hu` or the moderator's signed
`pbem roster --game-language hu`; it is the public post's and every seat's without a language
of its own. Bound like the other settings (the setup entry or a logged settings entry; verify
rebuilds it and catches a forged one); refusals leave the file as it was; games from before
it read English."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests import fast_yaml
from tests.pbem.test_seat_language import MARKERS, assert_in_language, mails, text_of
from tests.security.test_names_bound import cli, edited
from tests.security.test_seat_settings_bound import FORMAT3

NOW = "2027-03-05T12:00Z"


class Game:
    """A moderated 3-player Pax game; `language` is given to `pbem new` when not None."""

    def __init__(self, folder: Path, language: str | None) -> None:
        self.folder, self.path = folder, folder / "porto.yaml"
        for name in ("ann", "bob", "cy", "max"):
            code, _, err = cli("keygen", name, "--email", f"{name}@example.org", "--dir",
                               str(folder))
            assert code == 0, err
        players = [arg for name in ("ann", "bob", "cy")
                   for arg in ("--player", str(folder / f"{name}.pub"))]
        extra = ["--language", language] if language is not None else []
        self.code, _, self.err = cli("new", str(self.path), *players, "--moderator",
                                     str(folder / "max.pub"), "--seed", "porto", *extra)
        self.moderator = folder / "max.key"

    def seats(self) -> list[str]:
        return [str(p["id"]) for p in fast_yaml.safe_load(self.path.read_text())["roster"]["players"]]

    def sent(self, folder: str) -> dict[str, Any]:
        code, _, err = cli("send", str(self.path), "--outbox", str(self.folder / folder),
                           "--now", NOW)
        assert code == 0, err
        return {str(m["X-Pbem-For"]): m for m in mails(self.folder / folder)}


@pytest.fixture(autouse=True)
def mail_from(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "Porto host <host@example.org>")


def test_new_with_a_language_gives_the_public_and_every_seat_without_one_that_language(
        tmp_path: Path) -> None:
    game = Game(tmp_path, "hu")
    assert game.code == 0, game.err
    data = fast_yaml.safe_load(game.path.read_text())
    assert data["roster"]["language"] == "hu" and data["log"][0]["settings"]["language"] == "hu"
    assert cli("verify", str(game.path))[0] == 0
    ann, bob, cy = game.seats()
    # bob keeps English for himself: his own setting beats the game's
    code, _, err = cli("roster", str(game.path), "--key", str(game.moderator),
                       "--language", f"{bob}=en")
    assert code == 0, err
    sent = game.sent("first")
    assert set(sent) == {ann, bob, cy, "public"}
    for reader, lang in ((ann, "hu"), (cy, "hu"), ("public", "hu"), (bob, "en")):
        assert_in_language(sent[reader], lang)
    assert MARKERS["hu"][1] in text_of(sent["public"])  # the public report itself
    code, out, _ = cli("report", str(game.path))  # the public report on the command line
    assert code == 0 and MARKERS["hu"][1] in out


def test_a_game_without_a_language_stays_english_and_stores_nothing_new(tmp_path: Path) -> None:
    game = Game(tmp_path, None)
    assert game.code == 0, game.err
    data = fast_yaml.safe_load(game.path.read_text())
    assert "language" not in data["roster"] and "language" not in data["log"][0]["settings"]
    sent = game.sent("first")
    assert all(MARKERS["en"][0] in text_of(m) for m in sent.values())


def test_new_refuses_a_language_without_a_catalog(tmp_path: Path) -> None:
    game = Game(tmp_path, "xx")
    assert game.code == 2 and game.err == "error: unknown language 'xx'; languages: en, hu\n"
    assert not game.path.exists()


def test_the_moderator_changes_the_games_language_in_a_signed_logged_entry(
        tmp_path: Path) -> None:
    game = Game(tmp_path, None)
    path = game.path
    before = path.read_bytes()
    refusals = ((["--game-language", "hu"], "--key"),  # no moderator's key
                (["--key", str(game.moderator), "--game-language", "xx"], "languages: en, hu"))
    for args, needle in refusals:
        code, _, err = cli("roster", str(path), *args)
        assert code == 2 and needle in err and err.count("\n") == 1, err
        assert path.read_bytes() == before
    code, block, err = cli("roster", str(path), "--key", str(game.moderator),
                           "--game-language", "hu", "--print")
    assert code == 0 and "\nlanguage hu\n" in block, err
    assert path.read_bytes() == before
    (tmp_path / "block.txt").write_text(block)  # the moderator far away signed it
    code, _, err = cli("roster", str(path), "--block", str(tmp_path / "block.txt"))
    assert code == 0, err
    data = fast_yaml.safe_load(path.read_text())
    assert data["roster"]["language"] == "hu"
    assert data["log"][-1]["kind"] == "settings" and data["log"][-1]["language"] == "hu"
    code, _, err = cli("verify", str(path))
    assert code == 0, err
    sent = game.sent("after")
    assert all(MARKERS["hu"][0] in text_of(m) for m in sent.values())
    code, out, _ = cli("log", str(path))
    assert code == 0 and "the game's language: hu" in out
    changed = path.read_bytes()  # the same again: nothing to log, the file unchanged
    code, _, err = cli("roster", str(path), "--key", str(game.moderator),
                       "--game-language", "hu")
    assert code == 0 and path.read_bytes() == changed, err


def test_a_forged_game_language_is_caught_by_verify(tmp_path: Path) -> None:
    """The attack: the host switches the game's language (the public post, and every seat
    that chose none), alone or with the logged value made to agree."""
    game = Game(tmp_path, "hu")
    path = game.path
    honest = path.read_bytes()
    code, err = edited(path, lambda d: d["roster"].update(language="en"))
    assert code == 5 and "game language" in err and err.count("\n") == 1, err
    path.write_bytes(honest)
    code, err = edited(path, lambda d: d["roster"].pop("language"))
    assert code == 5 and "game language" in err
    path.write_bytes(honest)

    def both(data: dict[str, Any]) -> None:  # the setup's settings and the roster agree
        data["log"][0]["settings"]["language"] = "en"
        data["roster"]["language"] = "en"

    code, err = edited(path, both)
    assert code == 5, err


def test_an_older_game_reads_english_and_a_language_slipped_into_it_is_caught(
        tmp_path: Path) -> None:
    folder = tmp_path / "format3"
    shutil.copytree(FORMAT3, folder)
    path = folder / "pax-names.yaml"
    assert cli("verify", str(path))[0] == 0
    code, out, _ = cli("report", str(path))
    assert code == 0 and MARKERS["en"][1] in out
    code, err = edited(path, lambda d: d["roster"].update(language="hu"))
    assert code == 5, err


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_commit_message_is_in_the_games_language(tmp_path: Path) -> None:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=tmp_path, capture_output=True, text=True,
                              check=True).stdout

    game = Game(tmp_path, "hu")
    git("init", "--quiet")
    git("config", "user.name", "Moderator")
    git("config", "user.email", "max@example.org")
    git("config", "commit.gpgsign", "false")
    code, out, _ = cli("status", str(game.path), "--json")
    mover = fast_yaml.safe_load(out)["waiting_for"][0]
    code, out, _ = cli("options", str(game.path), "--json")
    pick = next(line for line in fast_yaml.safe_load(out)["lines"] if line.startswith("buy"))
    orders = tmp_path / "orders.txt"
    orders.write_text(f"{pick}\nend\n")
    name = next(p["name"] for p in fast_yaml.safe_load(game.path.read_text())["roster"]["players"]
                if p["id"] == mover)  # the .pub's name, which names its .key
    code, block, err = cli("sign", str(orders), "--key", str(tmp_path / f"{name}.key"),
                           "--game", str(game.path))
    assert code == 0, err
    orders.write_text(block)
    code, out, err = cli("apply", str(game.path), str(orders), "--commit")
    assert code == 0, err
    message = git("log", "-1", "--format=%B")
    assert message.startswith(f"porto seq 1: {mover}\n\n- ")  # the first line: data
    assert "megveszi" in message and "Várakozás" in message and "(állapot " in message
    assert "buys" not in message and "Waiting for" not in message
