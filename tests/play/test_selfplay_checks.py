"""The per-block checks of checked self-play (pbem.play.selfplay._round_trip): a state that is
not plain data, or one the game file's YAML would not give back, is a violation."""

from __future__ import annotations

import dataclasses

import pytest

from engine.core.errors import InvariantViolation
from pbem.play import selfplay
from pbem.store import gamefile


def test_a_played_state_passes_both_checks() -> None:
    gf, _ = selfplay.new_selfplay_game("checks", 3, {})
    selfplay._round_trip(gf, exact=True)


def test_a_tuple_in_the_state_is_not_plain_data() -> None:
    gf, _ = selfplay.new_selfplay_game("checks", 3, {})
    gf.state["probe"] = (1, 2)
    with pytest.raises(InvariantViolation, match="not plain data"):
        selfplay._round_trip(gf, exact=False)


@pytest.mark.parametrize("changed", [1.0, True, "1"])
def test_yaml_giving_back_another_type_is_caught(monkeypatch: pytest.MonkeyPatch,
                                                   changed: object) -> None:
    """1, 1.0, True and "1" compare or hash alike in pairs; the check must tell each from 1."""
    gf, _ = selfplay.new_selfplay_game("checks", 3, {})
    gf.state["probe"] = {"value": 1}
    real = gamefile.load_text

    def altered(text: str) -> gamefile.GameFile:
        loaded = real(text)
        state = {**loaded.state, "probe": {"value": changed}}
        return dataclasses.replace(loaded, state=state)

    monkeypatch.setattr(gamefile, "load_text", altered)
    with pytest.raises(InvariantViolation, match="YAML round trip"):
        selfplay._round_trip(gf, exact=True)


@pytest.mark.parametrize("changed", [1, 1.0, True])
def test_yaml_giving_back_another_key_type_is_caught(monkeypatch: pytest.MonkeyPatch,
                                                       changed: object) -> None:
    """Keys are strings in plain data (the JSON check); a key read back as 1 is caught."""
    gf, _ = selfplay.new_selfplay_game("checks", 3, {})
    gf.state["probe"] = {"1": "x"}
    real = gamefile.load_text

    def altered(text: str) -> gamefile.GameFile:
        loaded = real(text)
        return dataclasses.replace(loaded, state={**loaded.state, "probe": {changed: "x"}})

    monkeypatch.setattr(gamefile, "load_text", altered)
    with pytest.raises(InvariantViolation, match="YAML round trip"):
        selfplay._round_trip(gf, exact=True)
