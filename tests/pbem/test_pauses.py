"""Pauses (issue 24 §2): `pause` takes effect once every player signed it (in a moderated
game the moderator's signature alone is enough) and stops every clock until `resume`, from
which every deadline restarts in full; a proposal not unanimous within its deadline lapses, the
log says so, and nothing else changes. Played through the CLI, by mail and by git."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import yaml

from pbem.delivery import inbox, mailboxes
from pbem.delivery.deadlines import iso
from pbem.store import gamefile
from tests import fast_yaml
from tests.pbem.test_deadlines import Recorder
from tests.pbem.test_git import git, init_repo
from tests.pbem.test_mail_helpers import (
    acting,
    drop,
    make_game,
    make_maildir,
    plain,
    settings_for,
)
from tests.pbem.test_vacations import NOW, at, cli, life_block


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = make_game(tmp_path)
    code, _, err = cli("deadlines", str(path), "--key", str(tmp_path / "max.key"),
                       "--set", "default=72h", "--nmr", "skip", "--now", at(0))
    assert code == 0, err
    cli("timeout", str(path), "--now", at(0))  # the mail run that sends the report starts the clock
    return path


def players(game: Path) -> list[str]:
    return gamefile.load(game).player_ids()


def moderator_block(game: Path, line: str) -> Path:
    """`pbem sign` with the moderator's key signs as `player: moderator`."""
    orders = game.parent / f"max-{line}.orders"
    orders.write_text(line + "\n")
    code, out, err = cli("sign", str(orders), "--key", str(game.parent / "max.key"), "--game",
                         str(game))
    assert code == 0 and "player: moderator" in out, err
    path = game.parent / f"max-{line}.txt"
    path.write_text(out)
    return path


def test_a_unanimous_pause_stops_every_clock_until_resume(game: Path) -> None:
    mover = acting(game)
    first, second, third = players(game)
    assert cli("apply", str(game), str(life_block(game, first, "pause")))[0] == 0
    out = cli("status", str(game), "--now", at(0.1))[1]
    waiting = out.split("proposed a pause: waiting for ")[1]
    assert first.title() not in waiting and second.title() in waiting
    assert cli("apply", str(game), str(life_block(game, second, "pause")))[0] == 0
    code, out, err = cli("apply", str(game), str(life_block(game, third, "pause")))
    assert code == 0 and "- The game is paused" in out, err
    assert acting(game) == mover  # no decision was spent
    assert "The game is paused since" in cli("status", str(game), "--now", at(1))[1]
    before = game.read_bytes()
    assert cli("timeout", str(game), "--now", at(20))[1] == \
        f"{mover}: paused: no clock runs until 'resume'\n"
    assert f"{mover} must choose an action: paused" in cli("deadlines", str(game), "--now",
                                                           at(20))[1]
    assert game.read_bytes() == before
    code, out, _ = cli("apply", str(game), str(life_block(game, second, "resume")))
    assert code == 0 and f"- {second.title()} resumes the game" in out
    resumed = datetime.fromisoformat(str(gamefile.load(game).log[-1]["at"]))
    assert cli("timeout", str(game), "--now", iso(resumed + timedelta(hours=71)))[1] == \
        f"{mover}: not overdue (due {iso(resumed + timedelta(hours=72))})\n"
    assert "did not answer in time" in cli("timeout", str(game), "--now", at(3.1))[1]
    assert cli("verify", str(game))[0] == 0


def test_a_lapsed_proposal_changes_nothing_and_the_log_says_so(game: Path,
                                                               tmp_path: Path) -> None:
    mover = acting(game)
    twin = tmp_path / "twin"
    twin.mkdir()
    for name in ("lisbon.yaml", "lisbon.seed", "lisbon.post.json"):
        if (game.parent / name).exists():
            shutil.copy(game.parent / name, twin / name)
    first = players(game)[0]
    assert cli("apply", str(game), str(life_block(game, first, "pause")))[0] == 0
    proposed = gamefile.load(game).log[-1]
    assert proposed["events"][0]["msg"] == "pbem.pause.proposed"
    # past the proposal's deadline (the game's default, 72h): the next cron run lapses it,
    # then times the mover out exactly as it would have without the proposal
    code, out, _ = cli("timeout", str(game), "--now", at(3.5))
    assert code == 0 and "did not answer in time" in out
    assert out.startswith(f"{first}: the pause proposed lapsed")
    log = gamefile.load(game).log
    assert [e["kind"] for e in log[-2:]] == ["pause", "timeout"]
    assert log[-2]["line"] == "lapse" and log[-2]["events"][0]["msg"] == "pbem.pause.lapsed"
    twin_game = twin / "lisbon.yaml"
    assert "did not answer in time" in cli("timeout", str(twin_game), "--now", at(3.5))[1]
    twin_timeout = gamefile.load(twin_game).log[-1]
    assert {k: log[-1][k] for k in ("player", "deadline", "started", "lines")} == \
        {k: twin_timeout[k] for k in ("player", "deadline", "started", "lines")}
    assert gamefile.load(game).state == gamefile.load(twin_game).state
    assert cli("verify", str(game))[0] == 0
    assert acting(game) != mover


def test_the_moderator_alone_pauses_a_moderated_game(game: Path, tmp_path: Path) -> None:
    mover = acting(game)
    code, out, err = cli("apply", str(game), str(moderator_block(game, "pause")))
    assert code == 0 and "- The game is paused" in out, err
    before = game.read_bytes()
    code, _, err = cli("apply", str(game), str(life_block(game, mover, "resume")))
    assert code == 1 and "only the moderator resumes it" in err and game.read_bytes() == before
    code, _, err = cli("apply", str(game), str(life_block(game, mover, "pause")))
    assert code == 1 and "already paused" in err and game.read_bytes() == before
    # the moderator's resume by mail, from the moderator's address
    maildir, outbox = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, plain(moderator_block(game, "resume").read_text(), "max@example.org"))
    lines = inbox.process(mailboxes.read_maildir(maildir), [game], outbox, settings_for(1), NOW)
    assert "applied as seq" in lines[0], lines
    assert gamefile.load(game).log[-1]["line"] == "resume"
    assert cli("verify", str(game))[0] == 0


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_pause_played_through_git(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    init_repo(repo)
    game = make_game(repo)
    (repo / ".gitignore").write_text("*.seed\n*.lock\n*.key\n*.txt\n")
    git(repo, "add", "lisbon.yaml", ".gitignore")
    git(repo, "commit", "--quiet", "-m", "lisbon: setup")
    who = players(game)[1]
    code, out, err = cli("apply", str(game), str(life_block(game, who, "pause")), "--commit")
    assert code == 0 and "committed " in out, err
    message = git(repo, "log", "-1", "--format=%B")
    assert message.startswith(f"lisbon seq 1: {who}\n") and "proposes a pause" in message
    assert git(repo, "show", "HEAD:lisbon.yaml") == game.read_text()


@pytest.mark.parametrize(("edit", "said"), [
    ("line", "the entry is not what its block says"),
    ("drop-lapse", "expected seq"),
    ("roster", "the roster's absences and pauses are not the ones"),
    ("at", "the events do not match what it did")])
def test_verify_catches_an_edit_of_a_pause(game: Path, edit: str, said: str) -> None:
    first = players(game)[0]
    cli("apply", str(game), str(life_block(game, first, "pause")))
    cli("timeout", str(game), "--now", at(3.5))  # lapses it, then times the mover out
    assert cli("verify", str(game))[0] == 0
    data = fast_yaml.safe_load(game.read_text())
    proposal = next(e for e in data["log"] if e["kind"] == "pause" and e["line"] == "pause")
    if edit == "line":
        proposal["line"] = "resume"
    elif edit == "drop-lapse":  # as if it never lapsed: the chain breaks
        data["log"] = [e for e in data["log"] if e.get("line") != "lapse"]
    elif edit == "roster":
        data["roster"]["life"]["pause"] = {"state": "paused", "since": at(1), "by": "players"}
    else:
        proposal["at"] = at(3)  # a later proposal would not have lapsed by then
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, _, err = cli("verify", str(game))
    assert code == 5 and said in err, err
