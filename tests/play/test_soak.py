"""Issue 14: the soak plan covers both games' maps, options and player counts; a short slice
runs clean with checks on, and its shards merge to it; the secrecy check reads card names, not
event kinds."""

from __future__ import annotations

import json
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


def test_soak_refuses_no_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--games", "0"]) == 2
    assert capsys.readouterr().err == "soak: --games must be 1 or more, not 0\n"
    assert soak.main(["--jobs", "0"]) == 2
    assert capsys.readouterr().err == "soak: --jobs must be 1 or more, not 0\n"


def test_an_event_of_kind_war_does_not_show_the_war_card() -> None:
    log = {"log": [{"kind": "war", "msg": "aor.war.roll", "args": {"card": "silk"}}]}
    assert strings_in(log) == {"silk"}


def test_cards_made_obsolete_by_rule_show_no_hand() -> None:
    state = {"obsolete": ["armor", "stirrups"], "removed": ["war"]}
    assert strings_in(state) == {"war"}


def _shard(tmp_path: Path, first: int, games: int) -> Path:
    summary = tmp_path / f"shard-{first}.json"
    assert soak.main(["--first", str(first), "--games", str(games), "--seed", "s1",
                      "--out", str(tmp_path / "failures"), "--summary", str(summary)]) == 0
    return summary


def _game_fields(summary: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "shards")}


def test_a_short_soak_slice_runs_clean_and_its_shards_merge_to_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A two-game slice runs clean with its checks on (no violation, no failing game written);
    the same games 0..1 in two shards (two processes' worth) sum to the same games as that one
    run: game i plays configuration i with seed SEED-i whichever shard plays it. (Seed s1: its
    games play in half the time of some other seeds', issue 17.)"""
    whole = json.loads(_shard(tmp_path / "whole", 0, 2).read_text())
    out = capsys.readouterr().out
    assert '"games": 2' in out and '"invariant_violations": 0' in out
    assert not list((tmp_path / "whole" / "failures").glob("*"))  # no failing game written
    shards = [_shard(tmp_path, 1, 1), _shard(tmp_path, 0, 1)]  # any order
    first = json.loads(shards[1].read_text())
    assert (first["first"], first["count"], first["games"]) == (0, 1, 1)
    capsys.readouterr()
    assert soak.main(["--merge", *map(str, shards)]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert merged["shards"] == 2 and merged["count"] == 2
    assert _game_fields(merged) == _game_fields(whole)
    assert merged["by_configuration"] == whole["by_configuration"]
    assert len(merged["by_configuration"]) == 2  # games 0, 1: configurations 0, 1
    # `--jobs 2`, in pieces of one game: each worker process plays one, the same two games
    shared = soak.soak(2, tmp_path / "shared", "s1", jobs=2, piece=1)
    assert _game_fields(shared) == _game_fields(whole)


def _fake_shard(tmp_path: Path, first: int, count: int, seed: str = "s") -> str:
    path = tmp_path / f"fake-{first}-{count}-{seed}.json"
    path.write_text(json.dumps({
        "seed": seed, "first": first, "count": count, "configurations": 93, "games": count,
        "decisions": 10 * count, "invariant_violations": 0, "seconds": 1.0, "violations": [],
        "repro_files": [], "endings": {"pax: patron": count}, "by_configuration": {"a": count},
        "checked": True}))
    return str(path)


@pytest.mark.parametrize(("ranges", "message"), [
    ([(0, 2), (3, 1)], "soak: merge: games 2..2 are in no shard (gap before {})\n"),
    ([(1, 2)], "soak: merge: games 0..0 are in no shard (gap before {})\n"),
    ([(0, 3), (2, 2)], "soak: merge: {} plays games 2..3, overlapping games 2..2\n"),
])
def test_merge_refuses_a_gap_or_an_overlap(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           ranges: list[tuple[int, int]], message: str) -> None:
    paths = [_fake_shard(tmp_path, first, count) for first, count in ranges]
    assert soak.main(["--merge", *paths]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == message.format(paths[-1])


def test_merge_sums_shards_and_refuses_mixed_runs(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert soak.main(["--merge", _fake_shard(tmp_path, 0, 4), _fake_shard(tmp_path, 4, 6)]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert (merged["games"], merged["decisions"], merged["endings"]) == (10, 100, {"pax: patron": 10})
    assert soak.main(["--merge", _fake_shard(tmp_path, 0, 4), _fake_shard(tmp_path, 4, 6, "t")]) == 2
    assert capsys.readouterr().err == 'soak: merge: the shards are of different runs: seed "s", "t"\n'


def test_merge_refuses_a_file_that_is_no_shard(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert soak.main(["--merge", str(bad)]) == 2
    assert capsys.readouterr().err == f"soak: merge: {bad}: not a soak summary (JSONDecodeError)\n"


def test_a_shard_killed_midway_leaves_no_summary(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A shard loop skips shards whose summary exists, so an interrupted shard must leave none."""
    def interrupted(*_args: object) -> dict[str, object]:
        raise KeyboardInterrupt
    monkeypatch.setattr(soak, "soak", interrupted)
    summary = tmp_path / "shards" / "shard-0.json"
    with pytest.raises(KeyboardInterrupt):
        soak.main(["--first", "0", "--games", "1", "--summary", str(summary)])
    assert list(summary.parent.iterdir()) == []


def test_a_game_that_crashes_is_a_violation_and_the_shard_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash in one game (a bug in pbem: a soak game once crashed in the coverage policy's
    look-ahead) is reported with the game that reproduces it, and the other games still play:
    a shard's hours are not lost to one game."""
    real = soak.run

    def crashing(games: int, players: int, seed: str, *args: object, **kwargs: object) -> object:
        if seed == "s1-0":
            raise KeyError("marchionni")
        return real(games, players, seed, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(soak, "run", crashing)
    summary = soak.soak(2, tmp_path, "s1")
    assert (summary["games"], summary["invariant_violations"]) == (2, 1)
    [violation] = summary["violations"]
    assert violation.endswith(": game 0 crashed (KeyError: 'marchionni'); "
                              "`--first 0 --games 1 --seed s1` shows where")
    assert sum(summary["by_configuration"].values()) == 2
