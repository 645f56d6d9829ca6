"""A replaced sealed bid in Age of Renaissance (issue 24 §4). In a moderated game a player may
send a newer signed bid for the same decision until the unseal: the log keeps both commitments,
the unseal opens only the last one, verify checks the chain of replacements, and a bid sent
after the unseal is refused with every file byte-identical. In an open game a newer `seal HEX`
replaces the earlier one until every seal is in. An old copy of a replaced block is stale."""

from __future__ import annotations

from pathlib import Path

from tests import fast_yaml
from tests.pbem.test_aor_bad_input import ok, owed, refused, rejected, snapshot
from tests.pbem.test_aor_cli import apply, lines_for, new_game, run, signed, status
from tests.pbem.test_aor_sealing import opening_block, sealed_block


def log(game: Path) -> list[dict[str, object]]:
    entries: list[dict[str, object]] = fast_yaml.safe_load(game.read_text())["log"]
    return entries


def through_returns(game: Path) -> None:
    for player in ("ada", "ben", "cy"):
        ok(game, player, lines_for(game, player)[0])


def verify(game: Path, *extra: str) -> tuple[int, str]:
    code, out, err = run("verify", str(game), *extra)
    return code, out + err


def test_the_last_bid_counts_and_verify_passes(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    through_returns(game)
    five = signed(game, "ada", ["bid 5"], "five.txt")
    assert apply(game, five)[0] == 0
    ok(game, "ben", "bid 3")
    ok(game, "ada", "bid 2")  # replaces ada's bid of 5
    refused(game, five, 4, "stale block")  # an old copy sent again cannot undo the newer bid
    first, second = (e for e in log(game) if e.get("kind") == "sealed" and e["player"] == "ada")
    assert second["replaces"] == first["commitment"] and "replaces" not in first
    assert "bid 2" not in game.read_text() and "bid 5" not in game.read_text()
    assert owed(game) == ["cy"]
    ok(game, "cy", "bid 4")
    unseal = log(game)[-1]
    assert unseal["kind"] == "unseal" and sorted(unseal["blocks"]) == ["ada", "ben", "cy"]
    blocks: dict[str, str] = unseal["blocks"]  # type: ignore[assignment]
    assert "bid 2" in blocks["ada"] and "bid 5" not in game.read_text()
    assert status(game)["waiting_for"] == ["cy"]  # the highest bid (cy's 4) chooses first
    code, text = verify(game, "--secrets", str(game.with_suffix(".seed")))
    assert code == 0, text
    code, text = verify(game)  # the public check alone
    assert code == 0, text


def test_an_edited_superseded_bid_is_caught(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    through_returns(game)
    ok(game, "ada", "bid 5")
    ok(game, "ada", "bid 1")
    ok(game, "ben", "bid 3")
    ok(game, "cy", "bid 4")
    first = next(e for e in log(game) if e.get("kind") == "sealed" and e["player"] == "ada")
    commitment = str(first["commitment"])
    game.write_text(game.read_text().replace(commitment, "f" * 64, 1))
    code, text = verify(game, "--secrets", str(game.with_suffix(".seed")))
    assert code != 0 and "replace" in text, text


def test_a_bid_after_the_unseal_is_refused(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    through_returns(game)
    for player, bid in (("ada", 5), ("ben", 3), ("cy", 4)):
        ok(game, player, f"bid {bid}")
    before = snapshot(game)
    rejected(game, "ben", ["bid 9"], 4, "not ben's decision")
    rejected(game, "ada", ["bid 9"], 1, "not a legal 'bid' order now")  # ada chooses a capital
    assert snapshot(game) == before


def test_a_replacement_lost_before_the_commit_point_leaves_the_earlier_bid(
        tmp_path: Path) -> None:
    """The secrets take the newer bid first; when the game file's rename never happens the
    logged commitment is still the earlier bid's, and that bid is the one opened."""
    game = new_game(tmp_path)
    through_returns(game)
    ok(game, "ada", "bid 5")
    committed = game.read_bytes()
    ok(game, "ada", "bid 2")
    game.write_bytes(committed)  # as if the rename of the game file never happened
    code, text = verify(game, "--secrets", str(game.with_suffix(".seed")))
    assert code == 0, text
    ok(game, "ben", "bid 3")
    ok(game, "cy", "bid 4")
    blocks: dict[str, str] = log(game)[-1]["blocks"]  # type: ignore[assignment]
    assert "bid 5" in blocks["ada"]
    code, text = verify(game, "--secrets", str(game.with_suffix(".seed")))
    assert code == 0, text


def test_an_open_game_takes_a_newer_seal_until_every_seal_is_in(tmp_path: Path) -> None:
    game = new_game(tmp_path, 3, "--open")
    through_returns(game)
    first = sealed_block(game, "ada", "bid 12")
    old = first.with_name("old-seal.txt")
    old.write_text(first.read_text())
    assert apply(game, old)[0] == 0
    assert apply(game, sealed_block(game, "ada", "bid 3"))[0] == 0  # replaces the seal of 12
    refused(game, old, 4, "already applied")  # sent again, it cannot undo the newer seal
    for player in ("ben", "cy"):
        assert apply(game, sealed_block(game, player, "bid 1"))[0] == 0
    assert status(game)["sealing"] == "open"
    rejected(game, "ada", ["seal " + "ab" * 32], 1, "every seal is in")
    for player in ("ada", "ben", "cy"):
        assert apply(game, opening_block(game, player))[0] == 0
    assert status(game)["waiting_for"] == ["ada"]  # ada's bid of 3 is the highest
    opened = [e for e in log(game) if e.get("kind") == "orders" and e["player"] == "ada"]
    assert "open bid 3 nonce" in str(opened[-1]["block"])
    code, text = verify(game)
    assert code == 0 and "re-derived from the seed" in text, text  # replayed, seals and all
