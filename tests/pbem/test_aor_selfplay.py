"""Issue 8 "Self-play": complete Age of Renaissance games for 3 to 6 players through the real
pipeline, open (commit and reveal) and moderated (hidden hands, secrets file, sealed bids),
ending with an Epoch; every step keeps the invariants, the YAML round trip and secrecy, and
verify replays each game at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.play.selfplay import run


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_open_games_play_to_the_end_of_epoch_one(players: int, tmp_path: Path) -> None:
    stats = run(1, players, "issue8", {"end": "epoch1"}, out_dir=tmp_path, ruleset="aor")
    assert stats.violations == []
    assert stats.games == 1 and stats.endings["Epoch 1 cards used up"] == 1
    assert stats.verbs["seal"] == stats.verbs["open"] > 0  # the bids went through both halves


def test_a_moderated_game_plays_to_the_end_keeping_hands_and_bids_secret(tmp_path: Path) -> None:
    stats = run(1, 4, "issue8", {"end": "epoch1"}, out_dir=tmp_path, ruleset="aor",
                moderated=True)
    assert stats.violations == []
    assert stats.games == 1 and stats.endings["Epoch 1 cards used up"] == 1
    assert stats.verbs["tokens"] >= 4 and stats.verbs["seal"] == 0
