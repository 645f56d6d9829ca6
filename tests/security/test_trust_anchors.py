"""Every trust anchor is bound into the chain (issue 21 §1): the players' and the moderator's
keys are fixed in the game header, which every state hash covers; a key changes only through
a signed, logged roster change, so a host who swaps the moderator's key cannot take a seat."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from pbem.cli import app
from tests import fast_yaml
from tests.pbem.test_mail_helpers import acting, make_game

runner = CliRunner()


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_swapped_moderator_key_cannot_hand_over_a_seat(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    assert cli("keygen", "eve", "--dir", str(tmp_path))[0] == 0
    data = fast_yaml.safe_load(game.read_text())
    eve = (tmp_path / "eve.pub").read_text().split()
    data["roster"]["moderator"]["key"] = f"{eve[0].removeprefix('ssh-')} {eve[1]}"
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    seat = acting(game)
    code, _, err = cli("replace-player", str(game), seat, "--key", str(tmp_path / "eve.key"),
                       "--pub", str(tmp_path / "eve.pub"))
    assert code != 0 and "moderator" in err
    code, _, err = cli("verify", str(game))
    assert code == 5 and "moderator key is not the one the game began with" in err


def test_editing_the_anchors_themselves_breaks_every_state_hash(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    assert cli("keygen", "eve", "--dir", str(tmp_path))[0] == 0
    data = fast_yaml.safe_load(game.read_text())
    eve = (tmp_path / "eve.pub").read_text().split()
    forged = f"{eve[0].removeprefix('ssh-')} {eve[1]}"
    data["roster"]["moderator"]["key"] = forged
    data["game"]["anchors"]["moderator"] = forged
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    code, _, err = cli("verify", str(game))
    assert code == 5 and "log entry seq 0" in err


def test_a_real_replacement_still_verifies(tmp_path: Path) -> None:
    game = make_game(tmp_path)
    assert cli("keygen", "dora", "--dir", str(tmp_path))[0] == 0
    seat = acting(game)
    code, _, err = cli("replace-player", str(game), seat, "--key", str(tmp_path / "max.key"),
                       "--pub", str(tmp_path / "dora.pub"))
    assert code == 0, err
    code, out, err = cli("verify", str(game))
    assert code == 0 and out.startswith("ok: "), err


def test_a_rollback_past_a_receipt_fails_verify_expect(tmp_path: Path) -> None:
    from pbem.store import gamefile
    from tests.pbem.test_mail_helpers import block_for, first_move

    game = make_game(tmp_path)
    old = game.read_text()
    orders = tmp_path / "block.txt"
    orders.write_text(block_for(game, first_move(game)))
    assert cli("apply", str(game), str(orders))[0] == 0
    gf = gamefile.load(game)
    anchor = f"{gf.seq}:{gamefile.fingerprint(gamefile.current_hash(gf))}"
    assert cli("verify", str(game), "--expect", anchor)[0] == 0
    game.write_text(old)  # the host restores the file from before the block: a whole chain
    assert cli("verify", str(game))[0] == 0
    code, _, err = cli("verify", str(game), "--expect", anchor)
    assert code == 5 and "rolled back" in err
