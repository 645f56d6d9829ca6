"""Resignation by signed block (11.3): accepted at any time from a player still in the game,
in a moderated game too, and replayed by verify."""

from __future__ import annotations

from pathlib import Path

from tests.pbem.test_aor_cli import apply, lines_for, new_game, run, signed, status


def to_turn_one(game: Path) -> None:
    """Answer setup with each player's first legal line until turn 1 begins."""
    while status(game)["turn"] == 0:
        player = str(status(game)["waiting_for"][0])  # type: ignore[index]
        assert apply(game, signed(game, player, [lines_for(game, player)[0]]))[0] == 0


def test_a_player_resigns_out_of_turn_in_a_moderated_game(tmp_path: Path) -> None:
    game = new_game(tmp_path, 4)
    to_turn_one(game)
    data = status(game)
    owed = data["waiting_for"]
    quitter = next(p for p in ("ada", "ben", "cy", "dee") if p not in owed)  # type: ignore[operator]
    code, out, err = apply(game, signed(game, quitter, ["resign"]))
    assert code == 0, err
    assert f"{quitter} resigns (11.3)" in out
    assert status(game)["waiting_for"] == owed
    code, _, err = apply(game, signed(game, quitter, ["resign"], "again.txt"))
    assert code == 1 and "not in the game" in err
    code, out, err = run("verify", str(game))
    assert code == 0, err
