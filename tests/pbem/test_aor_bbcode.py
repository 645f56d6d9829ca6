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


def test_reveal_lets_anyone_replay_a_moderated_game(tmp_path: Path) -> None:
    for name in ("ada", "ben", "cy"):
        run("keygen", name, "--dir", str(tmp_path))
    game = tmp_path / "r.yaml"
    run("new", str(game), "--ruleset", "aor", "--seed", "rv", *[
        a for n in ("ada", "ben", "cy") for a in ("--player", str(tmp_path / f"{n}.pub"))])
    seed_text = (tmp_path / "r.seed").read_text()
    assert "ada" in run("status", str(game))
    run("reveal", str(game), "--force")
    (tmp_path / "r.seed").rename(tmp_path / "moved.seed")  # nobody holds the secrets now
    out = run("verify", str(game))
    assert out.startswith("ok:") and "re-derived" in out
    assert seed_text  # the secrets file existed before the reveal
