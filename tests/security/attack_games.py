"""The two games the forgery and tamper tables attack (issue 21 §5), built once per session:

- a Pax Renaissance open game (the seed in the file) with a moderator, played through the
  real pipeline for a while, with a timeout and a moderator-signed replacement in its log;
- a moderated Age of Renaissance game with hidden hands and a secrets file, played for a while
  (sealed bids committed and unsealed, a timeout as a sealed answer, a replacement in the middle
  of a sealed bid), then its seed revealed (`reveal --force`: a finished game's log only has
  more entries of the same kinds, and every row of the tamper table replays the whole log).

Each build keeps snapshots: `live` (someone must act), `done` (the game the tamper table
edits), for AoR also `bidding` (a sealed bid is open, some seals are in, ada still owes hers)
and `unrevealed` (`done` just before its seed was revealed).
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from engine.core.agenda import next_pending
from pbem import api
from pbem.cli import app
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import parse_public_key, private_key_file_text, public_key_line, sign
from pbem.pipeline.opening import open_game
from pbem.store import gamefile, seeds

PEOPLE = ("ada", "ben", "cy")
OTHERS = ("max", "dora", "eve")  # the moderator, the replacement, a stranger
GAME_ID = "siege"


def key_of(name: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(seeds.make_seed(f"attack-key-{name}"))


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, f"pbem {' '.join(args)}: {result.stderr}"
    return result.stdout


@dataclass
class Snapshot:
    """A game's files at one moment, and whose key signs for each seat then."""

    folder: Path
    seat_keys: dict[str, str]  # seat -> person (a name in PEOPLE or OTHERS)
    ruleset: str

    @property
    def path(self) -> Path:
        return self.folder / "g.yaml"

    @property
    def secrets(self) -> Path | None:
        seed = self.folder / "g.seed"
        return seed if seed.exists() and seed.read_text().lstrip().startswith("{") else None

    def copy_to(self, folder: Path) -> Snapshot:
        shutil.copytree(self.folder, folder, dirs_exist_ok=True)
        return Snapshot(folder, dict(self.seat_keys), self.ruleset)

    def files(self) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(self.folder.iterdir()) if p.is_file()}

    def block(self, seat: str, lines: list[str], *, signer: str | None = None,
              seq: int | None = None, state: str | None = None, game: str = GAME_ID) -> str:
        """A signed block for `seat` (by default against the state now, by its own key)."""
        gf = gamefile.load(self.path)
        seq = gf.seq if seq is None else seq
        state = state or gamefile.fingerprint(gamefile.current_hash(gf))
        payload = canonical_payload(game, seat, seq, state, lines)
        private = key_of(signer or self.seat_keys[seat])
        return format_block(game, seat, seq, state, lines, sign(private, payload))


@dataclass
class Built:
    live: Snapshot
    done: Snapshot
    bidding: Snapshot | None = None
    extra: dict[str, Snapshot] = field(default_factory=dict)


def _write_keys(folder: Path) -> None:
    for name in PEOPLE + OTHERS:
        private = key_of(name)
        (folder / f"{name}.key").write_text(private_key_file_text(private))
        raw = private.public_key().public_bytes_raw()
        (folder / f"{name}.pub").write_text(
            public_key_line(raw, name.title(), f"{name}@example.org") + "\n")


class _Player:
    """Random legal play through the real pipeline (api.apply_block, as `pbem apply`)."""

    def __init__(self, snapshot: Snapshot, seed: int) -> None:
        self.snapshot, self.rng = snapshot, random.Random(seed)

    def step(self) -> bool:
        gf = open_game(self.snapshot.path).gf
        if gf.state["over"]:
            return False
        seat = self.rng.choice(api.status(gf)["waiting_for"])
        lines = api.legal_lines(gf, seat)["lines"]
        if lines[0].startswith(("tokens", "bid")):  # keep bids small, so the game moves
            lines = [x for x in lines if 0 <= int(x.split()[1]) <= 12]
        api.apply_block(self.snapshot.path, self.snapshot.block(seat, [self.rng.choice(lines)]))
        return True


def _timeout(path: Path) -> None:
    """A timeout whose deadline has passed (no --force: the deadline, not the moderator)."""
    key = ["--key", str(path.parent / "max.key")]  # settings are the moderator's (issue 21)
    cli("deadlines", str(path), "--set", "default=1h", "--nmr", "skip", "--now",
        "2027-01-01T00:00:00Z", *key)
    cli("timeout", str(path), "--now", "2027-01-01T00:00:00Z")  # a mail run starts the clock
    out = cli("timeout", str(path), "--now", "2027-01-03T00:00:00Z")
    assert "did not answer in time" in out, out
    cli("deadlines", str(path), "--unset", "default", "--nmr", "wait", *key)


def _seat_settings(snapshot: Snapshot) -> None:
    """Time zones and digests, the moderator's logged changes (issue 21, 23 §5): the first
    seat's both, so the tamper table's roster rows edit them, and another seat's zone."""
    first, second = list(snapshot.seat_keys)[:2]
    cli("roster", str(snapshot.path), "--key", str(snapshot.folder / "max.key"),
        "--timezone", f"{first}=Europe/Lisbon", "--digest", f"{first}=daily",
        "--timezone", f"{second}=Asia/Tokyo")


def _replace(snapshot: Snapshot, seat: str) -> None:
    folder = snapshot.folder
    cli("replace-player", str(snapshot.path), seat, "--key", str(folder / "max.key"),
        "--pub", str(folder / "dora.pub"))
    snapshot.seat_keys[seat] = "dora"


def _snap(snapshot: Snapshot, folder: Path) -> Snapshot:
    shutil.rmtree(folder, ignore_errors=True)
    return snapshot.copy_to(folder)


def _new(folder: Path, ruleset: str, *, open_game_: bool, options: dict[str, str]) -> Snapshot:
    folder.mkdir(parents=True)
    _write_keys(folder)
    publics = [parse_public_key((folder / f"{n}.pub").read_text()) for n in PEOPLE]
    path = folder / "g.yaml"
    api.new_game(path, publics, game_id=GAME_ID, ruleset_name=ruleset, seed_text="attack",
                 open_game=open_game_, options=options,
                 moderator=parse_public_key((folder / "max.pub").read_text()))
    seats = [p["id"] for p in gamefile.load(path).roster["players"]]
    return Snapshot(folder, dict(zip(seats, PEOPLE, strict=True)), ruleset)


def _play_until(player: _Player, done: Callable[[], bool], cap: int = 400) -> None:
    for _ in range(cap):
        if done() or not player.step():
            return
    raise AssertionError("the game did not reach the point the attacks need")


def build_pax(base: Path) -> Built:
    game = _new(base / "pax-work", "pax", open_game_=True, options={})
    player = _Player(game, 5)
    for _ in range(6):
        player.step()
    _timeout(game.path)
    _seat_settings(game)
    for _ in range(3):
        player.step()
    _replace(game, next(iter(game.seat_keys)))
    early = _snap(game, base / "pax-early")
    for _ in range(25):
        player.step()
    live = _snap(game, base / "pax-live")
    return Built(live=live, done=live, extra={"early": early})


def _pending(snapshot: Snapshot) -> dict[str, object]:
    node = next_pending(open_game(snapshot.path).gf.agenda)
    return node or {}


def build_aor(base: Path) -> Built:
    game = _new(base / "aor-work", "aor", open_game_=False, options={"end": "epoch1"})
    player = _Player(game, 5)
    for _ in range(5):
        player.step()
    _timeout(game.path)
    _seat_settings(game)
    live = _snap(game, base / "aor-live")

    def ada_owes_a_sealed_bid_and_someone_sealed() -> bool:
        node = _pending(game)
        answers = dict(node.get("answers") or {})  # type: ignore[call-overload]
        return bool(node.get("sealed")) and bool(answers) and "ada" not in answers and \
            "ada" in api.status(gamefile.load(game.path))["waiting_for"]

    _play_until(player, ada_owes_a_sealed_bid_and_someone_sealed)
    bidding = _snap(game, base / "aor-bidding")
    # A seat that has sealed is handed over before the unseal: its seal was signed by the old
    # key, against a state before the roster change.
    _replace(game, str(next(iter(dict(_pending(game)["answers"])))))  # type: ignore[call-overload]
    for _ in range(30):
        player.step()
    unrevealed = _snap(game, base / "aor-unrevealed")
    cli("reveal", str(game.path), "--force")
    done = _snap(game, base / "aor-done")
    return Built(live=live, done=done, bidding=bidding,
                 extra={"unrevealed": unrevealed, "early": bidding})
