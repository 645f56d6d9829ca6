"""Helpers for the tests of game files written by older pbem (tests/fixtures/format1,
tests/fixtures/ruleset1): the CLI, the fixtures' keys, and taking the next signed block."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from pbem.cli import app
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import sign
from pbem.store import seeds
from tests import fast_yaml

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def key_of(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(seeds.make_seed(f"legacy-{name}"))


def take_next_block(game: Path, tmp_path: Path) -> dict[str, Any]:
    """Sign the last legal line of the next decision, apply it, check the old log entries
    stay as they were and the game verifies; the game file's data after it."""
    data = fast_yaml.safe_load(game.read_text(encoding="utf-8"))
    game_id = data["game"]["id"]
    code, out, err = run("status", str(game), "--json")
    assert code == 0, err
    player = json.loads(out)["waiting_for"][0]
    code, out, err = run("options", str(game), "--json", "--for", player)
    assert code == 0, err
    menu = json.loads(out)
    line = (menu["lines"] or menu.get("seal_lines"))[-1]
    assert not menu.get("seal_lines"), "the fixture's next decision is not sealed by commit"
    roster_name = next(p["name"] for p in data["roster"]["players"] if p["id"] == player)
    payload = canonical_payload(game_id, player, menu["seq"], menu["state"], [line])
    block = format_block(game_id, player, menu["seq"], menu["state"], [line],
                         sign(key_of(roster_name), payload))
    orders = tmp_path / "orders.txt"
    orders.write_text(block, encoding="utf-8")
    code, out, err = run("apply", str(game), str(orders))
    assert code == 0, err
    after: dict[str, Any] = fast_yaml.safe_load(game.read_text(encoding="utf-8"))
    assert after["seq"] == data["seq"] + 1
    assert after["log"][:len(data["log"])] == data["log"]  # the old entries stay as they were
    code, out, err = run("verify", str(game))
    assert code == 0, err
    return after
