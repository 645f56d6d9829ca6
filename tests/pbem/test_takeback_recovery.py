"""Takebacks (issue 24 §4) when things go wrong: an unanswered request lapses at the next
deadline, `verify` catches an edit to any takeback entry, and a run killed during any takeback
line leaves a game that the same block, sent again, completes."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.store import gamefile
from tests.pbem.test_aor_cli import signed
from tests.pbem.test_takeback import aor, aor_line, aor_template, refused, verified
from tests.pbem.test_vacations import at, cli

__all__ = ["aor", "aor_template"]  # the fixtures, re-exported for pytest


# --- lapse --------------------------------------------------------------------------------


def test_a_lapse_is_logged_by_the_timeout_run(aor: Path) -> None:
    assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    code, out, err = cli("timeout", str(aor), "--now", at(4))
    assert code == 0 and "the takeback of seq 1 lapsed" in out, err
    log = gamefile.load(aor).log
    assert [(e["kind"], e.get("line")) for e in log[-2:]] == [("takeback", "ask"),
                                                              ("takeback", "lapse")]
    refused(aor, signed(aor, "ben", ["accept takeback 1"], "b2"), 1,
            "no takeback of seq 1 is open")
    assert verified(aor)


def test_a_request_lapses_when_the_next_deadline_times_someone_out(aor: Path) -> None:
    code, _, err = cli("deadlines", str(aor), "--set", "default=24h", "--nmr", "skip",
                       "--now", at(0))
    assert code == 0, err
    assert cli("timeout", str(aor), "--now", at(0))[0] == 0  # the mail run starts the clock
    assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    assert cli("timeout", str(aor), "--now", at(0.5))[0] == 0  # before the deadline: open
    assert gamefile.load(aor).log[-1].get("line") == "ask"
    code, out, err = cli("timeout", str(aor), "--now", at(1.5))  # cy is timed out
    assert code == 0 and "the takeback of seq 1 lapsed" in out, err
    kinds = [(e["kind"], e.get("line")) for e in gamefile.load(aor).log]
    assert ("takeback", "lapse") in kinds and kinds[-1][0] == "timeout"
    assert kinds.index(("takeback", "lapse")) < len(kinds) - 1
    assert verified(aor)


# --- recovery -----------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "key", "value"), [
    ("ask", "needs", []),
    ("ask", "target", 2),
    ("ask", "player", "cy"),
    ("ask", "block", "-----BEGIN PBEM ORDERS-----\n-----END PBEM ORDERS-----\n"),
    ("accept", "player", "cy"),
    ("accept", "line", "refuse"),
    ("accept", "events", []),
    ("undo", "undone", [2]),
    ("undo", "target", 2),
    ("undo", "post_state", "0" * 64),
])
def test_verify_catches_an_edit_to_a_takeback_entry(aor: Path, line: str, key: str,
                                                    value: object) -> None:
    assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    assert aor_line(aor, "ben", "accept takeback 1", "b2")[0] == 0
    assert verified(aor)
    data = gamefile.load(aor)
    entry = next(e for e in data.log if line in (e["kind"], e.get("line")))
    assert entry[key] != value
    entry[key] = value
    aor.write_text(gamefile.dump_text(data))
    code, _, err = cli("verify", str(aor))
    assert code == 5 and "seq" in err and "Traceback" not in err, err


@pytest.mark.parametrize(("seat", "line", "said"), [
    ("ada", "takeback 1", "asks to take back seq 1"),
    ("ben", "accept takeback 1", "the position is what it was at seq 0"),
    ("ben", "refuse takeback 1", "refuses to take back seq 1"),
])
def test_a_crash_during_a_takeback_line_leaves_a_game_the_next_command_completes(
        aor: Path, monkeypatch: pytest.MonkeyPatch, seat: str, line: str, said: str) -> None:
    """The game file's rename is the commit point: a run killed before it leaves the file as
    it was (its leftovers cleared under the next run's lock), and the same block then takes."""
    from tests.reliability.test_commit_point import fail_the_game_file_rename

    if seat != "ada":
        assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    before = aor.read_bytes()
    block = signed(aor, seat, [line], "crash")
    fail_the_game_file_rename(aor, monkeypatch)
    code, _, err = cli("apply", str(aor), str(block))
    assert code == 74 and "No space left" in err
    monkeypatch.undo()
    assert aor.read_bytes() == before and verified(aor)
    code, out, err = cli("apply", str(aor), str(block))  # sent again: it takes
    assert code == 0 and said in out, err
    assert verified(aor)


# A real `pbem apply` that dies (os._exit, as kill -9) at the game file's rename: just before
# it (the commit point not reached) or just after it (committed, the run not finished).
DYING_APPLY = """
import os, sys
from pathlib import Path
game, when = Path(sys.argv[1]).resolve(), sys.argv[2]
real_replace = os.replace
def replace(source, target):
    if Path(target) == game and when == "before":
        os._exit(137)
    real_replace(source, target)
    if Path(target) == game:
        os._exit(137)
os.replace = replace
sys.argv = ["pbem", "apply", str(game), sys.argv[3]]
from pbem.cli import app
app()
"""


@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize(("seat", "line"), [("ada", "takeback 1"),
                                            ("ben", "accept takeback 1"),
                                            ("ben", "refuse takeback 1")])
def test_a_real_apply_killed_at_the_commit_point(aor: Path, when: str, seat: str,
                                                 line: str) -> None:
    import subprocess
    import sys

    from tests.reliability.kit import strays

    if seat != "ada":
        assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    before = aor.read_bytes()
    block = signed(aor, seat, [line], "killed")
    run = subprocess.run([sys.executable, "-c", DYING_APPLY, str(aor), when, str(block)],
                         capture_output=True, check=False)
    assert run.returncode == 137, run.stderr.decode()
    assert (aor.read_bytes() == before) == (when == "before")
    code, out, err = cli("apply", str(aor), str(block))  # the next command completes it
    if when == "before":
        assert code == 0, err
    else:
        assert code == 4 and "already applied" in err
    assert verified(aor) and strays(aor.parent) == []
    assert gamefile.load(aor).log[-1]["kind"] == ("undo" if line.startswith("accept") else
                                                  "takeback")
