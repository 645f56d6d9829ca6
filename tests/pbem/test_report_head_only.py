"""Issue 17 §2: `pbem report` reads the game head-only, parsing only the log entries its
history shows (from the end), so its cost stays flat in game length; the history is the same
as from the whole log, for every seat, the public, and the public since a post."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.cli import hot
from pbem.pipeline.opening import open_game
from pbem.store import gamefile
from pbem.views.model import history_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "format1"


@pytest.fixture(params=["pax-open", "pax-moderated", "aor-open", "aor-moderated"])
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    for source in FIXTURES.iterdir():
        if source.name.startswith(request.param):
            shutil.copy(source, tmp_path / source.name)
    return tmp_path / f"{request.param}.yaml"


def test_the_history_read_from_the_end_equals_the_whole_logs(game: Path) -> None:
    whole = open_game(game, head_only=False)
    head = open_game(game)
    assert head.log_text is not None and head.gf.log == []  # nothing of the log parsed yet
    seats = [str(p["id"]) for p in whole.gf.roster["players"]]
    for viewer in [*seats, None]:
        assert history_for(head, viewer) == history_for(whole, viewer), viewer
    for posted in (0, whole.gf.seq // 2, whole.gf.seq - 1, whole.gf.seq):
        assert history_for(head, None, posted) == history_for(whole, None, posted), posted


def test_report_never_parses_the_whole_file(game: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    whole = open_game(game, head_only=False)
    seat = str(whole.gf.roster["players"][0]["id"])

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("pbem report parsed the whole game file")

    monkeypatch.setattr(gamefile, "load", refuse)
    hot.report(game, seat)
    shown = capsys.readouterr().out
    assert f"seq {whole.gf.seq}" in shown
