"""Property (issue 13 point 9, issue 21 §1): timeouts at random points of self-play games, for
both rulesets, with and without a moderator, always log legal answers and leave a game that
`verify` accepts. A legal answer is one of the decision's options, or at a main turn under the
NMR policy `skip`, the pass of ruling R-701."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import sealing
from engine.core.adjudicate import options_now
from engine.core.agenda import next_pending
from pbem.delivery.deadlines import MAIN_TURN_ACTIONS
from pbem.orders.signatures import load_private_key, parse_public_key, write_keypair
from pbem.pipeline import replay
from pbem.pipeline.apply import apply_block
from pbem.pipeline.handover import apply_settings
from pbem.pipeline.opening import open_game
from pbem.pipeline.queries import status
from pbem.pipeline.setup import new_game
from pbem.pipeline.timeout import run_timeout
from pbem.play.stats import signed_block
from pbem.store import gamefile, seeds

T0 = datetime(2027, 3, 1, tzinfo=UTC)
STEPS = 24
CASES = [("pax", True), ("pax", False), ("aor", True), ("aor", False)]  # (ruleset, moderator)


def new(folder: Path, ruleset: str, moderated: bool, seed: str) -> tuple[Path, dict[str, Path]]:
    keys = {}
    for name in ("ada", "ben", "cy", "max"):
        write_keypair(folder / name, name, f"{name}@example.org")
        keys[name] = folder / f"{name}.key"
    publics = [parse_public_key((folder / f"{n}.pub").read_text()) for n in ("ada", "ben", "cy")]
    path = folder / "g.yaml"
    # With a moderator the randomness is the moderator's too (AoR: hidden hands, sealed bids).
    new_game(path, publics, game_id="g", ruleset_name=ruleset, seed_text=seed,
             open_game=not moderated,
             moderator=parse_public_key((folder / "max.pub").read_text()) if moderated else None)
    apply_settings(path, changes={"default": "1h"}, nmr="skip", emails={},
                   key=keys["max"] if moderated else None)
    by_seat = {p["id"]: keys[p["name"]] for p in gamefile.load(path).roster["players"]}
    return path, by_seat


def legal_now(path: Path, player: str) -> tuple[list[str], str | None]:
    game = open_game(path)
    table = game.table()
    node = next_pending(table.agenda)
    return ([c.line for c in options_now(game.ruleset, table, player)],
            str(node["action"]) if node is not None else None)


def time_out(path: Path, moderated: bool, rng: random.Random, hour: int) -> None:
    game = open_game(path)
    owed = list(status(game)["waiting_for"])
    player = rng.choice(owed)
    legal, action = legal_now(path, player)
    start = T0 + timedelta(hours=hour)
    if moderated and rng.random() < 0.5:
        _, results = run_timeout(path, start, start, force=True, only=[player],
                                 key=path.parent / "max.key")
    else:
        _, results = run_timeout(path, start, start + timedelta(hours=2), only=[player])
    for result in results:
        if result.lines:
            first = result.lines[0]
            assert first in legal or action in MAIN_TURN_ACTIONS and first == "end", (
                f"{player}'s default '{first}' to {action} is not legal: {legal}")


@pytest.mark.parametrize(("ruleset", "moderated"), CASES)
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_random_timeouts_log_legal_answers_and_verify(tmp_path_factory: pytest.TempPathFactory,
                                                      ruleset: str, moderated: bool,
                                                      seed: int) -> None:
    folder = tmp_path_factory.mktemp("timeouts")
    path, keys = new(folder, ruleset, moderated, f"t{seed}")
    rng = random.Random(seed)
    for step in range(STEPS):
        game = open_game(path)
        if game.gf.state.get("over"):
            break
        node = next_pending(game.table().agenda)
        committing = sealing.is_committing(node)  # an open game's sealed bid: time it out
        if committing or rng.random() < 0.3:
            time_out(path, moderated, rng, 3 * step)
            continue
        player = rng.choice(list(status(game)["waiting_for"]))
        lines, _ = legal_now(path, player)
        block = signed_block(game.gf, player, load_private_key(keys[player]), rng.choice(lines))
        apply_block(path, block)
    gf = gamefile.load(path)
    assert replay.verify(path, gf, seeds.seed_path(path, gf)).entries == len(gf.log)
