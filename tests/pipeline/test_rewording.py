"""Words are for people, data is for checks (issue 12): rewording every event message changes
what readers see and leaves `verify` green, on games made before the change and on games made
by this pbem, for both rulesets and modes."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core import messages as core_messages
from engine.core.adjudicate import options_now
from engine.core.agenda import waiting_for
from pbem import api, words
from pbem.pipeline.apply import apply_text
from pbem.pipeline.game import from_gamefile
from pbem.pipeline.opening import open_game
from pbem.play.selfplay import new_selfplay_game
from pbem.play.stats import signed_block
from pbem.rulesets import RULESETS, ruleset_for
from pbem.store import gamefile, seeds
from pbem.views.model import report_model
from pbem.views.report import render

FORMAT1 = Path(__file__).resolve().parents[1] / "fixtures" / "format1"
MARK = "Reworded: "


@pytest.fixture
def reworded(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every template of every catalog, and pbem's built messages, say something else."""
    catalogs = [core_messages.MESSAGES, words.PBEM_MESSAGES,
                *(ruleset_for(name).messages for name in RULESETS)]
    for catalog in catalogs:
        for key, template in list(catalog.items()):
            monkeypatch.setitem(catalog, key, MARK + template)
    for key, built in list(words._BUILT.items()):
        monkeypatch.setitem(words._BUILT, key, lambda args, built=built: MARK + built(args))
    words.catalog.cache_clear()
    yield
    words.catalog.cache_clear()


def played(tmp_path: Path, ruleset: str, blocks: int = 12) -> Path:
    """An open game of this pbem on disk, `blocks` random legal blocks in."""
    seed = f"reword-{ruleset}"
    gf, keys = new_selfplay_game(seed, ruleset_for(ruleset).player_counts[0], {}, ruleset)
    game = from_gamefile(gf, seeds.make_seed(seed))
    rng = random.Random(seed)
    for _ in range(blocks):
        table = game.table()
        owed = waiting_for(table.agenda)
        player = rng.choice(owed)
        lines = [c.line for c in options_now(game.ruleset, table, player)]
        if table.agenda[0].get("seals") is not None:
            break  # commit and reveal needs two steps; enough has been played
        apply_text(game, signed_block(gf, player, keys[player], rng.choice(lines)))
    path = tmp_path / f"{ruleset}.yaml"
    gamefile.write_atomic(path, gamefile.dump_text(gf))
    return path


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rewording_every_message_leaves_a_new_game_verified(
        tmp_path: Path, ruleset: str, request: pytest.FixtureRequest) -> None:
    path = played(tmp_path, ruleset)
    before = render(report_model(open_game(path, head_only=False), None), "text")
    assert api.verify(path).entries > 1
    request.getfixturevalue("reworded")
    assert api.verify(path).entries > 1
    after = render(report_model(open_game(path, head_only=False), None), "text")
    assert MARK not in before and MARK in after


@pytest.mark.parametrize("name", ("pax-open", "pax-moderated", "aor-open", "aor-moderated"))
def test_rewording_leaves_games_made_before_verified(tmp_path: Path, name: str,
                                                      reworded: None) -> None:
    for source in FORMAT1.glob(f"{name}.*"):
        shutil.copy(source, tmp_path / source.name)
    assert api.verify(tmp_path / f"{name}.yaml").seed_checked
