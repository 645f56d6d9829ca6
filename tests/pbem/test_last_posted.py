"""Issue 15 point 9: a "last posted" mark per channel, so each `pbem post` and each public
report mail covers everything since the channel's last one, not only the last block."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import queue, transport
from pbem.delivery.mail import Book
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import block_for, first_move, make_game, settings_for

runner = CliRunner()


def play(game: Path, tmp_path: Path, blocks: int) -> None:
    for _ in range(blocks):
        path = tmp_path / "block.txt"
        path.write_text(block_for(game, first_move(game)))
        result = runner.invoke(app, ["apply", str(game), str(path)])
        assert result.exit_code == 0, result.stderr


def seqs_told(text: str) -> list[int]:
    return [int(line.split()[1].rstrip(",:")) for line in text.splitlines()
            if line.startswith("seq ") and "state" not in line]


def test_each_post_covers_everything_since_the_channels_last(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    first = runner.invoke(app, ["post", str(game), "--format", "text"])
    assert first.exit_code == 0, first.stderr
    play(game, tmp_path, 3)
    second = runner.invoke(app, ["post", str(game), "--format", "text"]).stdout
    assert seqs_told(second) == [1, 2, 3], "all three blocks since the last post"
    other = runner.invoke(app, ["post", str(game), "--format", "text", "--channel", "bgg"])
    assert seqs_told(other.stdout) == [0, 1, 2, 3], "a new channel covers the whole game"
    play(game, tmp_path, 1)
    third = runner.invoke(app, ["post", str(game), "--format", "text"]).stdout
    assert seqs_told(third) == [4]
    again = runner.invoke(app, ["post", str(game), "--format", "text", "--since", "1"]).stdout
    assert seqs_told(again) == [2, 3, 4]


def test_the_public_mail_covers_everything_since_the_last_public_mail(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    settings = settings_for(1)
    now = datetime(2027, 3, 5, 12, tzinfo=UTC)
    queue.send_reports(game, transport.Outbox(tmp_path / "out"), settings, now, only=["moderator"])
    play(game, tmp_path, 2)
    queue.send_reports(game, transport.Outbox(tmp_path / "out2"), settings, now,
                       only=["moderator"])
    (message,) = sorted((tmp_path / "out2").glob("*public*.eml"))
    assert seqs_told(message.read_text()) == [1, 2]
    assert Book.load(game).data["posted"]["mail"] == gamefile.load(game).seq
