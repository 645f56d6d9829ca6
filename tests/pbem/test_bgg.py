"""Issue 15 point 14: a `bgg` flavour for `pbem post` and `pbem report --format`:
BoardGameGeek's forum markup ([c] for code, [b], [i], [q]; no [list], no [size], no [code]),
with data escaped so that no name can open a tag."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.views import report
from tests.pbem.test_mail_helpers import make_game
from tests.pbem.test_report import scenario_model

PHPBB_ONLY = re.compile(r"\[/?(code|list|size|quote|url|img)\b|\[\*\]")


@pytest.mark.parametrize("viewer", ["acting", None])
def test_a_bgg_report_uses_only_bgg_markup(viewer: str | None) -> None:
    text = report.render(scenario_model("midgame", viewer), "bgg")
    assert PHPBB_ONLY.search(text) is None, PHPBB_ONLY.search(text)
    assert "[b]" in text and "[i]" in text
    if viewer:
        assert text.count("[c]") == text.count("[/c]") >= 2  # the menu and the block
        assert "-----BEGIN PBEM ORDERS-----" in text


def test_a_name_cannot_open_a_bgg_tag() -> None:
    model = scenario_model("setup", None)
    model["header"]["players"][0]["name"] = "Ada [c]x[/c] [url=http://e.vil]"
    text = report.render(model, "bgg")
    assert "[c]x" not in text and "[url=" not in text
    assert "Ada [\u200bc]x[\u200b/c]" in text


def test_post_and_report_take_bgg(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    runner = CliRunner()
    post = runner.invoke(app, ["post", str(game), "--format", "bgg"])
    assert post.exit_code == 0, post.stderr
    assert PHPBB_ONLY.search(post.stdout) is None and "[b]" in post.stdout
    shown = runner.invoke(app, ["report", str(game), "--format", "bgg", "--for", "coeur"])
    assert shown.exit_code == 0, shown.stderr
    bad = runner.invoke(app, ["report", str(game), "--format", "phpbb"])
    assert bad.exit_code == 2 and "bgg" in bad.stderr
