"""Games made by older pbem formats and ruleset versions (tests/fixtures) fork, and their
sandboxes verify and take their next block (issue 24 §5): the sandbox mark needs no new
format, and a sandbox keeps the rulings of the ruleset version its game began with."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.pbem.test_fork import keys, ok

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GAMES = sorted(p.relative_to(FIXTURES) for p in FIXTURES.glob("*/*.yaml"))


@pytest.mark.parametrize("name", GAMES, ids=str)
def test_an_older_game_forks_and_its_sandbox_plays(tmp_path: Path, name: Path) -> None:
    keys(tmp_path)
    shutil.copytree(FIXTURES / name.parent, tmp_path / "old")
    game = tmp_path / "old" / name.name
    real = game.read_bytes()
    sandbox = tmp_path / "what-if.yaml"
    ok("fork", game, "--out", sandbox, "--key", tmp_path / "ada.pub", "--seed", "f")
    assert game.read_bytes() == real
    owed = json.loads(ok("status", sandbox, "--json"))["waiting_for"]
    if owed:
        line = json.loads(ok("options", sandbox, "--json", "--for", owed[0]))["lines"][0]
        (tmp_path / "orders.txt").write_text(f"player: {owed[0]}\n{line}\n")
        block = tmp_path / "block.txt"
        block.write_text(ok("sign", tmp_path / "orders.txt", "--key", tmp_path / "ada.key",
                            "--game", sandbox))
        ok("apply", sandbox, block)
    assert "log entries verified" in ok("verify", sandbox)
