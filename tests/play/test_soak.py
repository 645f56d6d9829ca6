"""Issue 14: the soak plan covers both games' maps, options and player counts; a short slice
runs clean with checks on; the secrecy check reads card names, not event kinds."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.play import soak
from pbem.play.selfplay_moderated import strings_in


def test_the_plan_covers_every_map_option_and_player_count() -> None:
    configs = soak.plan()
    pax = [c for c in configs if c.ruleset == "pax"]
    aor = [c for c in configs if c.ruleset == "aor"]
    assert {dict(c.options)["map"] for c in pax} == {"default", "1550", "age_of_reformation"}
    assert {c.players for c in pax} == {2, 3, 4} and {c.players for c in aor} == {3, 4, 5, 6}
    for variant in ("astrology", "bankruptcy", "open_hands"):
        assert any(dict(c.options).get(variant) for c in pax), variant
    assert {dict(c.options)["end"] for c in aor} == {"epoch1", "epoch2", "epoch3", "advances"}
    assert {c.moderated for c in aor} == {True, False}


def test_a_short_soak_slice_runs_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--games", "2", "--out", str(tmp_path), "--seed", "slice"]) == 0
    out = capsys.readouterr().out
    assert '"games": 2' in out and '"invariant_violations": 0' in out
    assert not list(tmp_path.iterdir())


def test_soak_refuses_no_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--games", "0"]) == 2
    assert capsys.readouterr().err == "soak: --games must be 1 or more, not 0\n"


def test_an_event_of_kind_war_does_not_show_the_war_card() -> None:
    log = {"log": [{"kind": "war", "msg": "aor.war.roll", "args": {"card": "silk"}}]}
    assert strings_in(log) == {"silk"}


def test_cards_made_obsolete_by_rule_show_no_hand() -> None:
    state = {"obsolete": ["armor", "stirrups"], "removed": ["war"]}
    assert strings_in(state) == {"war"}
