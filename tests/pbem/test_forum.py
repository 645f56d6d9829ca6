"""Forums (issue 7): BBCode reports, `pbem post` for the public thread, and whole copied forum
posts accepted by `pbem apply`. The BBCode golden files are checked by test_report.py."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import gamefile
from pbem.views.report import FORMATS
from tests.pbem.test_mail_helpers import acting, block_for, first_move, make_game

runner = CliRunner()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_bbcode_is_a_report_format(game: Path) -> None:
    assert "bbcode" in FORMATS
    mover = acting(game)
    code, out, _ = cli("report", str(game), "--for", mover, "--format", "bbcode")
    assert code == 0
    assert out.startswith("[size=150][b]Pax Renaissance: lisbon[/b][/size]\n")
    assert "[code]\n-----BEGIN PBEM ORDERS-----\ngame: lisbon\nplayer: " + mover in out
    assert out.count("[list]") == out.count("[/list]") and out.count("[code]") == \
        out.count("[/code]")


def test_post_is_the_public_report_without_private_hands(game: Path, tmp_path: Path) -> None:
    path = tmp_path / "move.txt"
    path.write_text(block_for(game, first_move(game)))
    assert cli("apply", str(game), str(path))[0] == 0
    code, out, _ = cli("post", str(game))
    assert code == 0 and "[b]Public report[/b]" in out
    assert "[b][u]Latest moves[/u][/b]" in out and "buys" in out
    assert f"Waiting for {acting(game).title()}" in out
    assert "BEGIN PBEM ORDERS" not in out and "Your hand" not in out
    assert not re.search(r"^\[\*\]Hand:", out, re.MULTILINE)
    # Another channel's first post covers the same (the whole game so far).
    assert cli("post", str(game), "--out", str(tmp_path / "post.txt"), "--channel", "two")[0] == 0
    assert (tmp_path / "post.txt").read_text() == out
    code, md, _ = cli("post", str(game), "--format", "markdown")
    assert code == 0 and "**Public report**" in md


def test_post_shows_the_deadline(game: Path) -> None:
    assert cli("deadlines", str(game), "--set", "default=48h", "--now", "2027-03-05T12:00Z",
               "--key", str(game.parent / "max.key"))[0] == 0
    code, out, _ = cli("post", str(game), "--now", "2027-03-05T12:00:00Z")
    assert code == 0
    assert f"[b]Deadline:[/b] {acting(game).title()} (" in out
    assert "must answer by Sun 07 Mar 2027 12:00 UTC." in out


def forum_post(block: str, quoted_post: str) -> str:
    """A reply on a phpBB/BGG thread: a quote of the host's post, text, the block in [code]."""
    return (f"[quote=\"host\"]{quoted_post}[/quote]\n\nOk, here is my move. "
            f"[b]Finally![/b]\n\n[code]{block.rstrip()}[/code]\n\n[i]-- sent from my phone[/i]\n")


def rendered_html(post: str) -> str:
    """Roughly what the forum's page source shows for that post: <br> outside code boxes."""
    pieces = re.split(r"\[code\](.*?)\[/code\]", post, flags=re.DOTALL)
    out = []
    for index, piece in enumerate(pieces):
        text = html.escape(piece)
        if index % 2:
            out.append(f'<div class="codebox"><pre><code>{text}</code></pre></div>')
            continue
        text = re.sub(r"\[quote=&quot;host&quot;\]", "<blockquote>", text)
        text = re.sub(r"\[(/?)([bi])\]", r"<\1\2>", text.replace("[/quote]", "</blockquote>"))
        out.append(text.replace("\n", "<br>\n"))
    return "".join(out)


@pytest.mark.parametrize("shape", ["bbcode", "html", "copied text"])
def test_a_whole_copied_forum_post_is_accepted(game: Path, tmp_path: Path, shape: str) -> None:
    _, public, _ = cli("post", str(game))
    post = forum_post(block_for(game, first_move(game)), public)
    if shape == "html":
        post = rendered_html(post)
    elif shape == "copied text":
        post = re.sub(r"\[/?(?:quote[^\]]*|b|i|code)\]", "", post)
    path = tmp_path / "post.txt"
    path.write_text(post)
    code, out, err = cli("apply", str(game), str(path))
    assert code == 0, err
    assert gamefile.load(game).seq == 1
