"""A moderator who is not the host mails signed blocks (issue 21 §1): `deadlines ... --print`,
`roster --email/--timezone/--digest ... --print` and `timeout --force --print` make them, and
`pbem inbox` applies them through the same checks as the commands' `--block`, from the
moderator's roster address only; it answers with a receipt, and sets aside a block that fails,
with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import gamefile
from tests import fast_yaml
from tests.pbem.test_inbox import Recorder, run
from tests.pbem.test_mail_helpers import acting, drop, make_game, make_maildir, plain

runner = CliRunner()
MODERATOR = "max@example.org"


def printed(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    assert "player: moderator" in result.stdout
    return result.stdout


def mailed(tmp_path: Path, game: Path, block: str, sender: str = MODERATOR,
           name: str = "1.block") -> tuple[list[str], Recorder]:
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, plain(block, sender), name)
    return run(maildir, [game], out), out


def verified(game: Path) -> None:
    result = runner.invoke(app, ["verify", str(game)])
    assert result.exit_code == 0, result.stderr


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def test_a_mailed_deadlines_block_is_applied_with_a_receipt(game: Path, tmp_path: Path) -> None:
    block = printed("deadlines", str(game), "--set", "default=72h", "--nmr", "skip",
                    "--key", str(tmp_path / "max.key"), "--print")
    lines, out = mailed(tmp_path, game, block)
    assert any("applied as seq 1" in line for line in lines), lines
    entry = gamefile.load(game).log[-1]
    assert entry["kind"] == "settings" and entry["deadlines"]["nmr"] == "skip"
    assert any(m["To"] == MODERATOR and m["X-Pbem-Kind"] == "receipt" for m in out.messages)
    verified(game)
    again, out = mailed(tmp_path, game, block, name="2.again")  # a resent copy: no change
    assert any("already applied as seq 1" in line for line in again), again
    assert gamefile.load(game).seq == 1


def test_a_mailed_email_change_is_applied(game: Path, tmp_path: Path) -> None:
    seat = acting(game)
    block = printed("roster", str(game), "--email", f"{seat}=new@example.org",
                    "--key", str(tmp_path / "max.key"), "--print")
    lines, _ = mailed(tmp_path, game, block)
    assert any("applied as seq 1" in line for line in lines), lines
    entry = gamefile.load(game).roster_entry(seat)
    assert entry is not None and entry["email"] == "new@example.org"
    verified(game)


def test_a_mailed_zone_and_digest_change_is_applied(game: Path, tmp_path: Path) -> None:
    seat = acting(game)
    block = printed("roster", str(game), "--timezone", f"{seat}=Europe/Lisbon", "--digest",
                    f"{seat}=daily", "--key", str(tmp_path / "max.key"), "--print")
    lines, _ = mailed(tmp_path, game, block)
    assert any("applied as seq 1" in line for line in lines), lines
    entry = gamefile.load(game).roster_entry(seat)
    assert entry is not None and (entry["timezone"], entry["digest"]) == ("Europe/Lisbon",
                                                                          "daily")
    verified(game)


def test_a_mailed_forced_timeout_is_applied(game: Path, tmp_path: Path) -> None:
    seat = acting(game)
    skip = runner.invoke(app, ["deadlines", str(game), "--nmr", "skip", "--key",
                               str(tmp_path / "max.key")])  # a main turn: skipped, not waited
    assert skip.exit_code == 0, skip.stderr
    block = printed("timeout", str(game), "--force", "--player", seat,
                    "--key", str(tmp_path / "max.key"), "--print")
    lines, out = mailed(tmp_path, game, block)
    assert any("applied as seq" in line for line in lines), lines
    log = gamefile.load(game).log
    assert log[-1]["kind"] == "timeout" and log[-1]["forced"] and log[-1]["player"] == seat
    assert any(m["To"] == MODERATOR and m["X-Pbem-Kind"] == "receipt" for m in out.messages)
    assert acting(game) != seat
    verified(game)


def test_a_moderators_block_from_another_address_is_set_aside(game: Path,
                                                               tmp_path: Path) -> None:
    before = game.read_bytes()
    block = printed("deadlines", str(game), "--nmr", "skip", "--key",
                    str(tmp_path / "max.key"), "--print")
    lines, out = mailed(tmp_path, game, block, sender="ada@example.org")
    assert any("not from the moderator's address" in line for line in lines), lines
    assert game.read_bytes() == before and not out.messages
    assert list((tmp_path / "Maildir" / "cur").iterdir())  # set aside, not left as new


def test_a_forged_moderators_block_is_set_aside_with_the_reason(game: Path,
                                                                tmp_path: Path) -> None:
    """The moderator's address is in the From line, but a host or a player who forged it has
    no key: an edited line breaks the signature; a key swapped into the roster is refused."""
    before = game.read_bytes()
    block = printed("deadlines", str(game), "--set", "default=72h", "--key",
                    str(tmp_path / "max.key"), "--print")
    lines, out = mailed(tmp_path, game, block.replace("default 72h", "default 1h"))
    assert any("set aside" in line and "signature" in line for line in lines), lines
    assert game.read_bytes() == before and not out.messages
    verified(game)


def test_the_moderators_address_cannot_be_swapped_to_send_blocks(game: Path,
                                                                  tmp_path: Path) -> None:
    """A host who rewrites the moderator's address in the roster (to take the moderator's mail)
    is caught by verify: the setup entry fixed it."""
    data = fast_yaml.safe_load(game.read_text())
    data["roster"]["moderator"]["email"] = "host@example.org"
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    result = runner.invoke(app, ["verify", str(game)])
    assert result.exit_code == 5 and "moderator name or e-mail" in result.stderr


def test_a_mailed_timeout_the_policy_does_not_allow_is_set_aside(game: Path,
                                                                 tmp_path: Path) -> None:
    """Under the NMR policy 'wait' a main turn is never skipped, even by the moderator."""
    before = game.read_bytes()
    block = printed("timeout", str(game), "--force", "--player", acting(game),
                    "--key", str(tmp_path / "max.key"), "--print")
    lines, out = mailed(tmp_path, game, block)
    assert any("applied to no one" in line and "'wait'" in line for line in lines), lines
    assert game.read_bytes() == before and not out.messages


def test_a_mailed_replacement_is_applied(game: Path, tmp_path: Path) -> None:
    seat = acting(game)
    keygen = runner.invoke(app, ["keygen", "dora", "--email", "dora@example.org", "--dir",
                                 str(tmp_path)])
    assert keygen.exit_code == 0, keygen.stderr
    block = printed("replace-player", str(game), seat, "--key", str(tmp_path / "max.key"),
                    "--pub", str(tmp_path / "dora.pub"), "--print")
    lines, _ = mailed(tmp_path, game, block)
    assert any("applied as seq 1" in line for line in lines), lines
    entry = gamefile.load(game).roster_entry(seat)
    assert entry is not None and entry["name"] == "dora"
    verified(game)
