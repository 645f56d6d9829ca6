"""`pbem timeout` in moderated Age of Renaissance games (issue 8; aor-pbem 4.5): defaults are
applied on the moderator's whole state and logged like blocks; a timed-out sealed bid is
published as a default; the last answer to a sealed decision, given by a timeout, unseals the
others; `verify --secrets` replays every timeout."""

from __future__ import annotations

import json
from pathlib import Path

from tests.pbem.test_aor_cli import apply, lines_for, new_game, run, signed, status


def with_moderator(tmp_path: Path) -> Path:
    """A game with a moderator, whose key signs the forced timeouts (issue 21)."""
    assert run("keygen", "max", "--dir", str(tmp_path))[0] == 0
    return new_game(tmp_path, 3, "--moderator", str(tmp_path / "max.pub"))


def moderator(game: Path) -> list[str]:
    return ["--key", str(game.parent / "max.key")]


def timeout(game: Path, player: str) -> str:
    code, out, err = run("timeout", str(game), "--force", "--player", player, *moderator(game))
    assert code == 0, err
    return out


def verified(game: Path) -> None:
    code, out, err = run("verify", str(game), "--secrets", str(game.with_suffix(".seed")))
    assert code == 0, err
    code, out, err = run("verify", str(game))  # the public checks, without the seed
    assert code == 0, err


def test_timeouts_answer_returns_and_sealed_bids_and_verify_replays_them(tmp_path: Path) -> None:
    game = with_moderator(tmp_path)
    out = timeout(game, "ben")  # 8.1: the default return
    assert "Ben did not answer in time" in out
    for player in ("ada", "cy"):
        assert apply(game, signed(game, player, [lines_for(game, player)[0]]))[0] == 0
    assert status(game)["sealed"] is True
    assert apply(game, signed(game, "ada", ["bid 6"]))[0] == 0
    out = timeout(game, "cy")  # a sealed bid, not the last: the default is public
    assert "bid 0" in out and "bid 6" not in game.read_text()
    code, out, err = apply(game, signed(game, "ben", ["bid 2"]))
    assert code == 0, err
    assert "ada: bid 6; ben: bid 2; cy: bid 0 (default, timed out)" in out
    verified(game)


def test_the_last_sealed_answer_given_by_a_timeout_unseals_the_others(tmp_path: Path) -> None:
    game = with_moderator(tmp_path)
    for player in ("ada", "ben", "cy"):
        assert apply(game, signed(game, player, [lines_for(game, player)[0]]))[0] == 0
    assert apply(game, signed(game, "cy", ["bid 4"]))[0] == 0
    assert apply(game, signed(game, "ada", ["bid 9"]))[0] == 0
    out = timeout(game, "ben")
    assert "ada: bid 9; ben: bid 0 (default, timed out); cy: bid 4" in out
    log = run("status", str(game), "--json")
    assert json.loads(log[1])["waiting_for"] == ["ada"]  # ada chooses a capital first
    verified(game)


def test_a_missed_main_turn_waits_unless_the_policy_skips_it(tmp_path: Path) -> None:
    game = with_moderator(tmp_path)
    while status(game)["turn"] == 0:
        player = str(status(game)["waiting_for"][0])  # type: ignore[index]
        assert apply(game, signed(game, player, [lines_for(game, player)[0]]))[0] == 0
    data = status(game)
    while data["decision"] and "play" not in str(data["decision"]):
        player = str(data["waiting_for"][0])  # type: ignore[index]
        assert apply(game, signed(game, player, [lines_for(game, player)[-1]]))[0] == 0
        data = status(game)
    player = str(data["waiting_for"][0])  # type: ignore[index]
    assert "NMR policy is 'wait'" in timeout(game, player)
    assert run("deadlines", str(game), "--nmr", "skip", *moderator(game))[0] == 0
    out = timeout(game, player)
    assert "did not answer in time, so the default answer 'pass' was applied." in out
    assert status(game)["waiting_for"] != [player]
    verified(game)
