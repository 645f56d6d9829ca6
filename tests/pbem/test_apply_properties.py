"""Property tests (issue 3): whatever text reaches `apply`, the answer is a PbemError (never a
traceback), and every rejection leaves the game file byte-identical."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import api
from pbem.errors import PbemError
from pbem.orders.signatures import load_private_key, parse_public_key, write_keypair
from pbem.orders.signing import sign_orders
from pbem.store import gamefile

WORDS = ["buy", "sell", "play", "fair", "ops", "op", "end", "east", "west", "1", "2", "9",
         "oneshot", "no", "skip", "knight", "pawn", "levy", "victory", "holy", "standing",
         "taxed", "pay", "paris", "france-hre", "augsburg", '"', "#", "é", "done", "kill"]


@pytest.fixture(scope="module")
def origin(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    folder = tmp_path_factory.mktemp("origin")
    keys = {}
    for name in ("ada", "ben", "cy"):
        private, _ = write_keypair(folder / name, name, None)
        keys[name] = private
    publics = [parse_public_key((folder / f"{n}.pub").read_text()) for n in keys]
    game = folder / "g.yaml"
    api.new_game(game, publics, game_id="g", seed_text="props")
    by_bank = {}
    for entry in gamefile.load(game).roster["players"]:
        by_bank[entry["id"]] = keys[entry["name"]]
    return game, by_bank


def fresh_copy(origin: Path, folder: Path) -> Path:
    for suffix in (".yaml", ".seed"):
        shutil.copy(origin.with_suffix(suffix), folder / f"g{suffix}")
    return folder / "g.yaml"


@settings(max_examples=150, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=400))
def test_any_text_is_refused_cleanly(origin: tuple[Path, dict[str, Path]], tmp_path: Path,
                                     text: str) -> None:
    game = fresh_copy(origin[0], tmp_path)
    before = game.read_bytes()
    with pytest.raises(PbemError):
        api.apply_block(game, text)
    assert game.read_bytes() == before


@settings(max_examples=120, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5)
                      .map(" ".join), min_size=1, max_size=6))
def test_signed_nonsense_is_rejected_or_applied_never_half(
        origin: tuple[Path, dict[str, Path]], tmp_path: Path, lines: list[str]) -> None:
    game = fresh_copy(origin[0], tmp_path)
    player = api.status(gamefile.load(game))["waiting_for"][0]
    orders = tmp_path / "orders.txt"
    orders.write_text("\n".join(lines) + "\n")
    try:
        block = sign_orders(orders.read_text(), origin[1][player], game)
    except PbemError:
        return  # e.g. only comments: nothing to sign
    assert load_private_key(origin[1][player])
    before = game.read_bytes()
    try:
        api.apply_block(game, block)
    except PbemError:
        assert game.read_bytes() == before
        return
    after = gamefile.load(game)
    assert after.seq == 1 and after.log[-1]["kind"] == "orders"
