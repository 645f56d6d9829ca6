"""The game file: deterministic dumps, strict loading, the state hash, the lock, atomic writes."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.chance import SeededChance
from engine.pax.ruleset import PAX
from pbem.errors import BusyError, CorruptGameError
from pbem.rulesets import pax_catalog
from pbem.store import gamefile
from pbem.store.gamefile import GameFile


def sample_game(steps: int = 30) -> GameFile:
    chance = SeededChance(b"gf", "gf", 0)
    table, _ = PAX.setup(pax_catalog(), "gf", ["a", "b", "c"], {}, chance)
    for index in range(steps):
        options = options_now(PAX, table)
        answer(PAX, table, options[index % len(options)], chance)
        run_automatic(PAX, table, chance)
    table.state["draws"] = chance.next_n
    game = {"id": "gf", "ruleset": "pax", "ruleset_version": 1, "players": 3,
            "options": table.state["options"]}
    roster = {"players": [{"id": b, "name": b, "email": "", "key": "ed25519 AAAA"}
                          for b in table.state["seats"]]}
    return GameFile(game, roster, {"mode": "open", "seed": "00"}, 0, table.state, table.agenda,
                    [{"seq": 0, "kind": "setup", "summary": ["line one", "two\nlines"]}])


def test_dump_is_deterministic_and_round_trips() -> None:
    gf = sample_game()
    text = gamefile.dump_text(gf)
    assert gamefile.dump_text(gamefile.load_text(text)) == text
    assert "&id" not in text and "*id" not in text  # no anchors or aliases


def test_c_and_python_yaml_backends_write_identical_bytes() -> None:
    gf = sample_game()
    assert gamefile.dump_text(gf, "c") == gamefile.dump_text(gf, "py")
    text = gamefile.dump_text(gf)
    assert gamefile.load_text(text, loader=yaml.SafeLoader).to_data() == gf.to_data()


def test_multiline_strings_use_literal_style() -> None:
    text = gamefile.dump_text(sample_game())
    assert "- |-\n" in text or "- |\n" in text


def test_unknown_top_level_key_is_rejected() -> None:
    text = gamefile.dump_text(sample_game()) + "extra: 1\n"
    with pytest.raises(CorruptGameError, match="unknown top-level key 'extra'"):
        gamefile.load_text(text)


def test_invalid_yaml_names_the_line() -> None:
    with pytest.raises(CorruptGameError, match="line"):
        gamefile.load_text("format: 1\ngame: [unclosed\n")


def test_state_hash_changes_with_state_and_seq() -> None:
    gf = sample_game()
    first = gamefile.current_hash(gf)
    gf.seq += 1
    assert gamefile.current_hash(gf) != first
    gf.seq -= 1
    gf.state["players"][gf.state["order"][0]]["florins"] += 1
    assert gamefile.current_hash(gf) != first


def test_atomic_write_replaces_content(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    gamefile.write_atomic(target, "one\n")
    gamefile.write_atomic(target, "two\n")
    assert target.read_text() == "two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["g.yaml"]


def _hold_lock(path: str, held: Any, release: Any) -> None:
    """Hold the game's lock from another process: say so, then keep it until told to let go."""
    with gamefile.locked(Path(path)):
        held.set()
        release.wait(30)


def test_second_run_is_busy_while_the_lock_is_held(tmp_path: Path) -> None:
    target = tmp_path / "g.yaml"
    target.write_text("x\n")
    held, release = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.Process(target=_hold_lock, args=(str(target), held, release))
    holder.start()
    try:
        assert held.wait(30), "the other process never took the lock"
        with pytest.raises(BusyError, match="busy"), gamefile.locked(target, wait_seconds=0.2):
            pass
    finally:
        release.set()  # (it held the lock until now: events, not a fixed 2 s, issue 17)
        holder.join()
    with gamefile.locked(target, wait_seconds=0.2):
        pass


def test_appending_to_the_log_text_equals_a_full_dump(tmp_path: Path) -> None:
    gf = sample_game()
    gf.log += [{"seq": n, "kind": "orders", "block": f"line {n}\nmore", "summary": ["x"]}
               for n in range(1, 4)]
    gf.seq = 3  # the tail is checked on a head-only read: the last entry names the state
    gf.log[-1]["post_state"] = gamefile.current_hash(gf)
    path = tmp_path / "g.yaml"
    path.write_text(gamefile.dump_text(gf))
    head, old_log = gamefile.load_head(path)
    assert head.log == [] and old_log is not None and head.state == gf.state
    head.log.append({"seq": 4, "kind": "orders", "block": "b\nc", "summary": ["y", "z"]})
    gf.log.append(head.log[0])
    assert gamefile.dump_appended(head, old_log) == gamefile.dump_text(gf)
