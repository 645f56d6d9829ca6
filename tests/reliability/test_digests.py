"""Mail a player keeps reading (issue 15 §10, issue 23 §5): the full report goes to whoever
must act; the others get a short digest with the full report attached; a player who chose a
daily digest gets no mail for other players' moves, and one digest a day of all of them."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import digests, mail
from pbem.pipeline.opening import open_game
from tests.pbem.test_inbox import NOW, Recorder, address, run
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    first_move,
    make_game,
    make_maildir,
    settings_for,
)
from tests.pbem.test_mail_helpers import plain as plain_mail

runner = CliRunner()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def play_one(game: Path, maildir: Path, out: Recorder) -> None:
    drop(maildir, plain_mail(block_for(game, first_move(game)), address(game, acting(game))))
    lines = run(maildir, [game], out)
    assert "applied as seq" in lines[-1], lines


def by_kind(messages: list[EmailMessage], kind: str) -> list[EmailMessage]:
    return [m for m in messages if m["X-Pbem-Kind"] == kind]


def test_whoever_must_act_gets_the_report_the_others_a_digest(game: Path,
                                                             tmp_path: Path) -> None:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    play_one(game, maildir, out)
    owed = open_game(game).gf.agenda[0].get("player")
    reports = {str(m["X-Pbem-For"]) for m in by_kind(out.messages, "report")}
    assert reports == {str(owed), "public"}
    for message in by_kind(out.messages, "digest"):
        text = message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        assert "seq 1 (" in text and "Waiting for" in text and "BEGIN PBEM" not in text
        attached = [part for part in message.iter_attachments()]
        assert len(attached) == 1 and "legal lines" not in str(message["Subject"])
        assert "seq 1" in attached[0].get_content()


def test_a_daily_digest_gathers_the_day_and_nothing_comes_in_between(game: Path,
                                                                    tmp_path: Path) -> None:
    first = acting(game)
    gf = open_game(game).gf
    waiting = [p for p in gf.player_ids() if p != first]
    reader = waiting[-1]  # someone who does not act next
    result = runner.invoke(app, ["roster", str(game), "--digest", f"{reader}=daily",
                                 "--key", str(game.parent / "max.key")])  # a logged change
    assert result.exit_code == 0, result.stderr
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    play_one(game, maildir, out)
    if acting(game) == reader:  # this seat acts now: it must get its full report at once
        assert [m["X-Pbem-Kind"] for m in out.messages if m["X-Pbem-For"] == reader] == ["report"]
        return
    assert [m for m in out.messages if m["X-Pbem-For"] == reader] == []
    with mail.open_book(game) as book:
        sent = digests.due_digests(open_game(game, head_only=False), book, settings_for(1), NOW)
    assert [str(m["X-Pbem-For"]) for m in sent] == [reader]
    with mail.open_book(game) as book:  # once a day: nothing more within 24 hours
        assert digests.due_digests(open_game(game, head_only=False), book, settings_for(1),
                                   NOW) == []


def test_a_digest_choice_is_checked_before_it_is_written(game: Path) -> None:
    before = game.read_bytes()
    result = runner.invoke(app, ["roster", str(game), "--digest", f"{acting(game)}=weekly"])
    assert result.exit_code == 2 and "unknown digest 'weekly'" in result.stderr
    assert game.read_bytes() == before
