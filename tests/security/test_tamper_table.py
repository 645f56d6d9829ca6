"""The tamper table (issue 21 §5): every single edit of a systematic family (tamper_edits.py)
to a long game of each ruleset, the Pax open game and the moderated Age of Renaissance game
(verified with the moderator's secrets file), must be caught by verify: exit 5, one line.

The only edits verify may miss are listed below, each with its reason: a commitment edit before
the seed is revealed (see the last tests) and edits that change nothing a player relies on. A
failure prints the table's rows that got through, so it names the edit."""

from __future__ import annotations

import copy
import pickle
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.errors import PbemError
from pbem.pipeline import replay
from pbem.store import gamefile
from pbem.store.entry_reader import read_all
from tests import fast_yaml
from tests.conftest import built_once
from tests.security.attack_games import Built, Snapshot
from tests.security.tamper_edits import Data, altered, every_edit

# Edits verify may let through, each with why it does not matter.
HARMLESS = {
    re.compile(r"randomness\.seed_file$"):
        "only where the moderator's secrets file is looked for (--secrets names it anyway); "
        "whatever seed is read there must match the commitment",
}
# Edits that were once let through, bound since (issue 21 §1): each family must still be in the
# table, and every row of it caught.
BOUND = {
    "timeouts": re.compile(r"\(timeout\) (change|delete) log\[\d+\]\.(automatic|deadline|"
                           r"forced)$"),
    "settings": re.compile(r"roster\.(players\[0\]\.email|deadlines(\.\w+)?)$"),
    "seats": re.compile(r"(roster\.players\[0\]\.(timezone|digest)|add an unknown key to roster"
                        r"(\.players\[0\]|\.moderator)?|\(setup\) (change|delete) log\[0\]"
                        r"\.settings\.seats.*|\(settings\) (change|delete) log\[\d+\]\.seats)$"),
    "names": re.compile(r"(roster\.(players\[0\]\.name|moderator(\.name|\.email)?)|"
                        r"\(replacement\) change log\[\d+\]\.old)$"),
}


@dataclass
class Row:
    edit: str
    code: int  # 0: verify passed
    message: str

    def __str__(self) -> str:
        return f"{self.edit}: " + (f"exit {self.code}: {self.message}" if self.code else
                                   "NOT DETECTED")


def _normal(data: Data) -> Any:
    """The file as pbem reads it, so an edit that changes nothing read (deleting a key whose
    default is its value) is not counted as a tamper."""
    try:
        return {**data, "log": [e.to_data() for e in read_all(data["log"])]}
    except (PbemError, ValueError, KeyError, TypeError):
        return None


def verify_edited(game: Snapshot, data: Data) -> tuple[int, str]:
    """verify as `pbem verify FILE [--secrets FILE]` runs it, on the edited data (in process:
    each row replays the log, so the YAML text is skipped; a sample goes through the CLI)."""
    try:
        gamefile.check_plain_data(data)
        gf = gamefile.GameFile.from_data(data)
        replay.verify(game.path, gf, game.secrets)
    except PbemError as error:
        return int(error.exit_code), str(error)
    return 0, ""


def _copy(data: Data) -> Data:
    """A deep copy of the file's plain data (a pickle round trip: twice as fast as deepcopy,
    and the table copies the whole game for each of its hundreds of rows)."""
    copied: Data = pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
    return copied


def run_table(game: Snapshot) -> list[Row]:
    data = fast_yaml.safe_load(game.path.read_text(encoding="utf-8"))
    assert verify_edited(game, _copy(data)) == (0, ""), "the untouched game verifies"
    original = _normal(data)
    rows = []
    for name, edit in every_edit(data):
        edited = _copy(data)
        edit(edited)
        if _normal(edited) == original and original is not None:
            continue  # nothing pbem reads changed
        rows.append(Row(name, *verify_edited(game, edited)))
    return rows


class Tables(dict[str, list[Row]]):
    """Each ruleset's table, made when a test first asks for it, once per run (built_once):
    pytest-xdist may run a ruleset's tests on both workers, and each table replays the whole
    game for every row."""

    def __init__(self, attacked: dict[str, Built], factory: pytest.TempPathFactory) -> None:
        super().__init__()
        self.attacked, self.factory = attacked, factory

    def __missing__(self, ruleset: str) -> list[Row]:
        self[ruleset] = built_once(self.factory, f"tamper-table-{ruleset}",
                                   lambda _: run_table(self.attacked[ruleset].done))
        return self[ruleset]


@pytest.fixture(scope="module")
def tables(attacked: dict[str, Built], tmp_path_factory: pytest.TempPathFactory
           ) -> dict[str, list[Row]]:
    return Tables(attacked, tmp_path_factory)


def _reason(row: Row) -> str | None:
    return next((why for pattern, why in HARMLESS.items() if pattern.search(row.edit)), None)


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_every_edit_is_caught(tables: dict[str, list[Row]], ruleset: str) -> None:
    rows = tables[ruleset]
    kinds = {m.group(1) for r in rows if (m := re.search(r"^log\[\d+\] \((\w+)\)", r.edit))}
    expected = {"setup", "orders", "timeout", "replacement"} | (
        {"sealed", "unseal", "reveal"} if ruleset == "aor" else set())
    assert kinds >= expected, f"entry kinds not edited: {expected - kinds}"
    missed = [str(r) for r in rows if r.code != 5 and _reason(r) is None]
    assert not missed, f"{len(missed)} of {len(rows)} edits got through:\n" + "\n".join(missed)
    assert all("\n" not in r.message and r.message for r in rows if r.code == 5)
    print(f"\n{ruleset}: {len(rows)} edits, {sum(r.code == 5 for r in rows)} caught")


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_the_harmless_edits_verify(tables: dict[str, list[Row]], ruleset: str) -> None:
    harmless = [r for r in tables[ruleset] if any(p.search(r.edit) for p in HARMLESS)]
    assert all(r.code in (0, 5) for r in harmless), [str(r) for r in harmless]


@pytest.mark.parametrize("family", list(BOUND))
@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_the_edits_once_missed_are_caught(tables: dict[str, list[Row]], ruleset: str,
                                          family: str) -> None:
    """The roster's names, the moderator's name and e-mail, a replacement's old entry, the
    deadlines (deleting them included), the seats' time zones and digests (and no key nothing
    binds) and a timeout's clock: rebuilt from the log by verify."""
    rows = [r for r in tables[ruleset] if BOUND[family].search(r.edit)]
    assert len(rows) >= 3, f"the table no longer makes the '{family}' edits"
    missed = [str(r) for r in rows if r.code != 5]
    assert not missed, "; ".join(missed)


def _dump(data: Data) -> str:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1_000_000)


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_a_sample_of_the_edits_through_the_cli(attacked: dict[str, Built], tmp_path: Path,
                                               ruleset: str) -> None:
    """One edit of each family through `pbem verify` itself: exit 5, one line on stderr."""
    game = attacked[ruleset].done.copy_to(tmp_path)
    data = fast_yaml.safe_load(game.path.read_text(encoding="utf-8"))
    sample: dict[str, Any] = {}
    for name, edit in every_edit(data):
        kind = re.match(r"log\[\d+\] \((\w+)\)", name)
        section = re.match(r"(?:change|delete) (\w+)", name)
        family = kind.group(1) if kind else section.group(1) if section else name.split(":")[0]
        sample.setdefault(family, (name, edit))
    secrets = ["--secrets", str(game.secrets)] if game.secrets else []
    assert 10 < len(sample) < 30, sorted(sample)
    for name, edit in sample.values():
        edited = copy.deepcopy(data)
        edit(edited)
        if _normal(edited) == _normal(data) or _reason(Row(name, 0, "")):
            continue
        game.path.write_text(_dump(edited), encoding="utf-8")
        result = CliRunner().invoke(app, ["verify", str(game.path), *secrets])
        assert result.exit_code == 5, f"{name}: exit {result.exit_code} {result.stdout}"
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, name


# --- rollback: a truncated log with its matching state --------------------------------------


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_a_rollback_is_caught_only_against_a_receipt(attacked: dict[str, Built],
                                                     ruleset: str) -> None:
    """A log truncated with the state that matches it is a whole, earlier game: no file can
    prove it is the latest. A player's receipt (seq and state) can: `verify --expect`."""
    built = attacked[ruleset]
    earlier, later = built.extra["early"], built.done
    gf = gamefile.load(later.path)
    receipt = f"{gf.seq}:{gamefile.fingerprint(gamefile.current_hash(gf))}"
    assert gamefile.load(earlier.path).log == gf.log[:len(gamefile.load(earlier.path).log)]
    secrets = ["--secrets", str(earlier.secrets)] if earlier.secrets else []
    runner = CliRunner()
    assert runner.invoke(app, ["verify", str(earlier.path), *secrets]).exit_code == 0
    result = runner.invoke(app, ["verify", str(earlier.path), *secrets, "--expect", receipt])
    assert result.exit_code == 5 and "rolled back" in result.stderr, result.stderr


# --- the one tamper that needs the secrets: a commitment before its secret is public --------


def test_a_commitment_edit_before_the_reveal_is_caught_only_with_the_secrets(
        attacked: dict[str, Built], tmp_path: Path) -> None:
    """Why this one edit is allowed through: a commitment is a hash of a secret only the
    moderator holds until it is published (the seed, until the reveal; a sealed answer and its
    salt, until the unseal). Without that secret nobody can tell one hash from another; with
    the secrets file verify checks both, and once they are published (reveal and unseal
    entries) every reader can: the table's rows on those entries are caught."""
    bidding = attacked["aor"].bidding
    assert bidding is not None
    game = bidding.copy_to(tmp_path)
    assert game.secrets is not None
    data = fast_yaml.safe_load(game.path.read_text(encoding="utf-8"))
    pending = max(i for i, e in enumerate(data["log"]) if e["kind"] == "sealed")
    seed_edit = copy.deepcopy(data)
    seed_edit["randomness"]["commitment"] = altered(seed_edit["randomness"]["commitment"])
    seal_edit = copy.deepcopy(data)
    seal_edit["log"][pending]["commitment"] = "0" * 64
    held = game.secrets.rename(tmp_path / "moderator-only.json")
    runner = CliRunner()
    for edited in (seed_edit, seal_edit):
        assert edited != data
        game.path.write_text(_dump(edited), encoding="utf-8")
        public = runner.invoke(app, ["verify", str(game.path)])
        assert public.exit_code == 0 and "public checks only" in public.stdout
        full = runner.invoke(app, ["verify", str(game.path), "--secrets", str(held)])
        assert full.exit_code == 5 and full.stderr.count("\n") == 1, full.stderr


def test_a_seat_handed_over_during_a_sealed_bid_still_verifies(attacked: dict[str, Built]) -> None:
    """Found building the table: a seat that had sealed its bid was handed over before the
    unseal, and verify refused the honest game (its seal was checked against the new key and a
    window restarted by the roster change). Each seal now keeps the key and states it was
    logged with."""
    game = attacked["aor"].extra["unrevealed"]
    log = gamefile.load(game.path).log
    handed = next(i for i, e in enumerate(log) if e["kind"] == "replacement")
    seat, node = log[handed]["player"], log[handed - 1].get("node")
    assert any(e["kind"] == "sealed" and e["player"] == seat and e["node"] == node
               for e in log[:handed])
    assert any(e["kind"] == "unseal" and e["node"] == node and seat in e["blocks"]
               for e in log[handed:])
    result = CliRunner().invoke(app, ["verify", str(game.path), "--secrets", str(game.secrets)])
    assert result.exit_code == 0, result.stderr  # the public pass holds the check that failed
