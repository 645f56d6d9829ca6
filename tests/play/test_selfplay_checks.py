"""The per-block checks of checked self-play (pbem.play.selfplay._round_trip): a state that is
not plain data, or one the game file's YAML would not give back, is a violation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.core.choice import Choice
from engine.core.errors import IllegalOrder, InvariantViolation
from engine.core.ruleset import Ruleset
from engine.core.table import Table
from pbem.play import selfplay
from pbem.play.policy import Policy
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


def test_a_refusal_while_looking_ahead_is_a_violation_with_its_game(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A policy that looks ahead answers the engine's own legal options on a copy; the engine
    refusing one of them is a broken rule, recorded with the game file, not a crash of the run
    (a soak shard died of one: the War cession of ruling R64)."""
    played = {"count": 0}
    real = Policy.choose

    def refusing(self: Policy, ruleset: Ruleset, table: Table, who: str,
                 options: list[Choice]) -> Choice:
        played["count"] += 1
        if played["count"] == 5:
            raise IllegalOrder("lyons cannot be ceded to bot2")
        return real(self, ruleset, table, who, options)

    monkeypatch.setattr(Policy, "choose", refusing)
    stats = selfplay.run(1, 3, "lookahead", {}, out_dir=tmp_path, policy="random")
    assert stats.games == 1
    [violation] = stats.violations
    assert violation.startswith("lookahead-3p-0 block 5 (")  # the bank to move
    assert violation.endswith(", looking ahead): lyons cannot be ceded to bot2")
    assert [Path(f).name for f in stats.failures] == ["selfplay-lookahead-3p-0.yaml"]
    assert gamefile.load_text(Path(stats.failures[0]).read_text(encoding="utf-8")).seq == 4


def test_a_block_broken_after_changing_the_state_leaves_the_state_before_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Checked self-play applies each block to the game's own state (no copy): a block that
    fails after the rules changed it restores the state before it, so the repro file is the
    game just before the failing block, its hash the one the log's last entry recorded."""
    from engine.pax.ruleset import PaxRuleset

    checked = {"count": 0}
    real = PaxRuleset.check_invariants

    def breaking(self: PaxRuleset, t: Table) -> None:
        checked["count"] += 1
        if checked["count"] == 7:  # the state already holds this block's answer
            raise InvariantViolation("probe: broken after the answer")
        real(self, t)

    monkeypatch.setattr(PaxRuleset, "check_invariants", breaking)
    stats = selfplay.run(1, 3, "inplace", {}, out_dir=tmp_path, policy="random")
    [violation] = stats.violations
    assert violation.startswith("inplace-3p-0 block 7 (")
    assert violation.endswith("probe: broken after the answer")
    repro = gamefile.load_text(Path(stats.failures[0]).read_text(encoding="utf-8"))
    assert repro.seq == 6 == repro.log[-1]["seq"]
    assert gamefile.current_hash(repro) == repro.log[-1]["post_state"]


def test_applying_in_place_writes_the_files_a_copy_per_block_writes(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Checked self-play applies blocks to the game's own state; `pbem apply` works on a copy.
    The same seeded games must end in the same game files, byte for byte."""
    from pbem.pipeline import apply as applying

    def final_files(in_place: bool) -> list[str]:
        files: list[str] = []
        real_verify = selfplay.replay.verify

        def keep(path: Path, gf: gamefile.GameFile, *args: object, **kwargs: object) -> object:
            files.append(gamefile.dump_text(gf))
            return real_verify(path, gf, *args, **kwargs)  # type: ignore[arg-type]

        def apply_text(game: object, text: str, **kwargs: object) -> object:
            return applying.apply_text(game, text, **{**kwargs, "in_place": in_place})  # type: ignore[arg-type]

        with monkeypatch.context() as patch:
            patch.setattr(selfplay.replay, "verify", keep)
            patch.setattr(selfplay, "apply_text", apply_text)
            stats = selfplay.run(2, 3, "in-place-files", {}, out_dir=tmp_path)
        assert stats.violations == [] and len(files) == 2
        return files

    assert final_files(True) == final_files(False)
