"""Every channel works for every ruleset and mode (issue 12): send, inbox (a mangled mail, and
its duplicate applied once), post, remind, timeout, replace-player and apply --commit, on an
open and a moderated game of each ruleset, through the CLI; then verify replays it all."""

from __future__ import annotations

import json
import quopri
import shutil
import subprocess
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from tests import fast_yaml

runner = CliRunner()
NAMES = ("ada", "ben", "cy")
GAMES = [("pax", True), ("pax", False), ("aor", True), ("aor", False)]
T0 = "2027-03-01T00:00:00Z"


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = cli(*args)
    assert code == 0, f"pbem {' '.join(args)}: {err}"
    return out


def start(folder: Path, ruleset: str, open_game: bool) -> Path:
    for name in (*NAMES, "max"):
        ok("keygen", name, "--email", f"{name}@example.org", "--dir", str(folder))
    game = folder / "g.yaml"
    ok("new", str(game), *[a for n in NAMES for a in ("--player", str(folder / f"{n}.pub"))],
       "--moderator", str(folder / "max.pub"), "--seed", f"channels-{ruleset}",
       "--ruleset", ruleset, *(["--open"] if open_game else []))
    return game


def key_file(game: Path, player: str) -> Path:

    roster = fast_yaml.safe_load(game.read_text())["roster"]["players"]
    name = next(p["name"] for p in roster if p["id"] == player)
    return game.parent / f"{name}.key"


def signed_move(game: Path) -> tuple[str, str]:
    """A signed block of the first player owed, answering with their first legal line."""
    player = json.loads(ok("status", str(game), "--json"))["waiting_for"][0]
    menu = json.loads(ok("options", str(game), "--json", "--for", player))
    key = str(key_file(game, player))
    if menu.get("seal_lines"):  # an open game's sealed bid: commit to a line
        return player, ok("sign", "--seal", menu["seal_lines"][0], "--key", key,
                          "--game", str(game))
    assert menu["lines"], menu
    orders = game.parent / f"orders-{player}.txt"
    orders.write_text(menu["lines"][0] + "\n")
    return player, ok("sign", str(orders), "--key", str(key_file(game, player)),
                      "--game", str(game))


def mangled_mail(block: str, sender: str) -> bytes:
    """The block as a mail client sends it: quoted-printable, CRLF, '> ' quoted once."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "host@example.org"
    message["Subject"] = "Re: my move"
    message["Message-ID"] = make_msgid("client", "example.org")
    body = "Here is my move.\n\n" + "".join(f"> {line}\n" for line in block.splitlines())
    message.set_payload(quopri.encodestring(body.replace("\n", "\r\n").encode()))
    message["Content-Type"] = 'text/plain; charset="utf-8"'
    message["Content-Transfer-Encoding"] = "quoted-printable"
    return message.as_bytes()


def seq_of(game: Path) -> int:
    return int(json.loads(ok("status", str(game), "--json"))["seq"])


@pytest.mark.parametrize(("ruleset", "open_game"), GAMES,
                         ids=[f"{r}-{'open' if o else 'moderated'}" for r, o in GAMES])
def test_every_channel_for_every_ruleset_and_mode(tmp_path: Path, ruleset: str, open_game: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "Host <host@example.org>")
    game = start(tmp_path, ruleset, open_game)
    out = tmp_path / "out"

    # send: every player and the moderator get a report
    assert ok("send", str(game), "--outbox", str(out)).count("wrote ") == 4

    # inbox: a mangled mail is applied once; the same block in a new mail is not applied again
    maildir = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    player, block = signed_move(game)
    sender = f"{key_file(game, player).stem}@example.org"
    (maildir / "new" / "1.mail").write_bytes(mangled_mail(block, sender))
    lines = ok("inbox", str(game), "--maildir", str(maildir), "--outbox", str(out))
    assert "applied as seq 1" in lines, lines
    (maildir / "new" / "2.mail").write_bytes(mangled_mail(block, sender))
    lines = ok("inbox", str(game), "--maildir", str(maildir), "--outbox", str(out))
    assert "already applied as seq 1" in lines and seq_of(game) == 1

    # post: the public forum post
    assert "[b]" in ok("post", str(game), "--format", "bbcode")

    # remind: after the deadline, the owing player is reminded
    ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", "--now", T0,
       "--key", str(tmp_path / "max.key"))
    reminded = ok("remind", str(game), "--outbox", str(out), "--now", "2027-03-01T02:00:00Z")
    assert "reminder" in reminded

    # timeout: the moderator's forced defaults
    before = seq_of(game)
    ok("timeout", str(game), "--force", "--now", "2027-03-01T03:00:00Z",
       "--key", str(tmp_path / "max.key"))
    assert seq_of(game) > before

    # replace-player: a moderator-signed roster change
    ok("keygen", "dora", "--email", "dora@example.org", "--dir", str(tmp_path))
    seat = json.loads(ok("status", str(game), "--json"))["waiting_for"][0]
    ok("replace-player", str(game), seat, "--key", str(tmp_path / "max.key"),
       "--pub", str(tmp_path / "dora.pub"))

    # apply --commit: git play
    if shutil.which("git") is not None:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
        player, block = signed_move(game)
        (tmp_path / "block.txt").write_text(block)
        assert "committed" in ok("apply", str(game), str(tmp_path / "block.txt"), "--commit")

    secrets = [] if open_game else ["--secrets", str(game.with_suffix(".seed"))]
    assert ok("verify", str(game), *secrets).startswith("ok: ")
    assert len(list(out.glob("*.eml"))) >= 9
