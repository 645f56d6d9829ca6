"""Games being played keep working: game files written by pbem before structured events and
typed log entries (format 1, commit 969af1c; tests/fixtures/format1, made by
make_format1.py.txt there) still verify, and still take the next signed block, for each
ruleset and mode."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from pbem.cli import app
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import sign
from pbem.store import seeds

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "format1"
GAMES = ("pax-open", "pax-moderated", "aor-open", "aor-moderated")
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def key_of(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(seeds.make_seed(f"legacy-{name}"))


def copy_game(tmp_path: Path, name: str) -> Path:
    for source in FIXTURES.glob(f"{name}.*"):
        if source.suffix in (".yaml", ".seed"):
            shutil.copy(source, tmp_path / source.name)
    return tmp_path / f"{name}.yaml"


@pytest.mark.parametrize("name", GAMES)
def test_a_format1_game_verifies_and_takes_the_next_block(tmp_path: Path, name: str) -> None:
    game = copy_game(tmp_path, name)
    code, out, err = run("verify", str(game))
    assert code == 0, err
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["format"] == 1
    code, out, err = run("status", str(game), "--json")
    assert code == 0, err
    player = json.loads(out)["waiting_for"][0]
    code, out, err = run("options", str(game), "--json", "--for", player)
    assert code == 0, err
    menu = json.loads(out)
    line = (menu["lines"] or menu.get("seal_lines"))[-1]
    assert not menu.get("seal_lines"), "the fixture's next decision is not sealed by commit"
    roster_name = next(p["name"] for p in data["roster"]["players"] if p["id"] == player)
    payload = canonical_payload(name, player, menu["seq"], menu["state"], [line])
    block = format_block(name, player, menu["seq"], menu["state"], [line],
                         sign(key_of(roster_name), payload))
    orders = tmp_path / "orders.txt"
    orders.write_text(block, encoding="utf-8")
    code, out, err = run("apply", str(game), str(orders))
    assert code == 0, err
    after = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert after["seq"] == data["seq"] + 1
    assert after["log"][:len(data["log"])] == data["log"]  # the old entries stay as they were
    code, out, err = run("verify", str(game))
    assert code == 0, err


@pytest.mark.parametrize("name", ("pax-moderated", "aor-moderated"))
def test_a_format1_moderated_game_verifies_without_the_seed(tmp_path: Path, name: str) -> None:
    game = copy_game(tmp_path, name)
    (tmp_path / f"{name}.seed").unlink()
    code, out, err = run("verify", str(game))
    assert code == 0, err
