"""Games being played keep working: game files written by pbem before structured events and
typed log entries (format 1, commit 969af1c; tests/fixtures/format1, made by
make_format1.py.txt there) still verify, and still take the next signed block, for each
ruleset and mode."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests import fast_yaml
from tests.legacy_games import run, take_next_block

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "format1"
GAMES = ("pax-open", "pax-moderated", "aor-open", "aor-moderated")


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
    data = fast_yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["format"] == 1
    take_next_block(game, tmp_path)


@pytest.mark.parametrize("name", ("pax-moderated", "aor-moderated"))
def test_a_format1_moderated_game_verifies_without_the_seed(tmp_path: Path, name: str) -> None:
    game = copy_game(tmp_path, name)
    (tmp_path / f"{name}.seed").unlink()
    code, out, err = run("verify", str(game))
    assert code == 0, err
