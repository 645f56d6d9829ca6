"""Age of Renaissance forum posts (issue 7 for the second ruleset): BBCode reports."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_public_post_and_private_report_in_bbcode(tmp_path: Path) -> None:
    for name in ("ada", "ben", "cy"):
        run("keygen", name, "--dir", str(tmp_path))
    game = tmp_path / "g.yaml"
    run("new", str(game), "--ruleset", "aor", "--seed", "bb", *[
        a for n in ("ada", "ben", "cy") for a in ("--player", str(tmp_path / f"{n}.pub"))])
    post = run("post", str(game))
    assert post.startswith("[size=150][b]Age of Renaissance: g[/b][/size]")
    assert "[code]" in post and "**" not in post and "```" not in post
    assert "Your hand" not in post and "BEGIN PBEM ORDERS" not in post
    private = run("report", str(game), "--for", "ada", "--format", "bbcode")
    assert "[b]Your hand[/b]" in private and "[code]\n-----BEGIN PBEM ORDERS-----" in private
    assert private.count("[code]") == private.count("[/code]")
