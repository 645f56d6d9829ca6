"""`pbem fork`: a what-if sandbox of a game at a seq (issue 24).

A sandbox is a new game (its own id, marked `sandbox` in the header: pbem.store.sandbox) that
begins at the position the real game had after log entry `at`, with a fresh seed, and holds
only what the person forking may see:
- an open game, or a game whose rules hide nothing: the whole position (it is all public);
- a moderated game with hidden information, forked by the moderator (who holds the secrets):
  everything, or with `--for SEAT` that seat's projection: its own hand and answers, while
  what it cannot see (other hands, the deck) is dealt afresh from the fresh seed by the
  ruleset's `redeal`, and other players' sealed answers to the pending decision are taken
  back (the forker answers for them again).
The sandbox keeps the real game's mode (an open game's sandbox is open, a moderated game's is
moderated, its secrets or seed file beside it), so it plays as the real game does. Every seat,
and the moderator, is keyed to the forker's one key: they sign any seat's block with it. The
files are created as `pbem new` creates them, exclusively and atomically.
"""

from __future__ import annotations

import copy
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.chance import SeededChance
from engine.core.errors import InvariantViolation
from engine.core.table import Table
from pbem.errors import UsageError
from pbem.orders.signatures import PublicKey, parse_public_key
from pbem.pipeline import clock
from pbem.pipeline.game import Game
from pbem.pipeline.opening import open_game
from pbem.pipeline.seals import withdraw_others
from pbem.pipeline.setup import GAME_ID, companion_for, default_game_id
from pbem.rulesets import catalog_of
from pbem.store import creation, gamefile, seeds
from pbem.store.entries import Setup, append
from pbem.store.gamefile import GameFile, current_hash
from pbem.store.projection import projection_for
from pbem.store.sandbox import SANDBOX
from pbem.views.past import check_seq, game_at


@dataclass(frozen=True)
class ForkRequest:
    at: int | None = None  # the seq to fork at (None: the game as it stands)
    seat: str | None = None  # whose view (None: everything this run may see)
    key: PublicKey | None = None  # the forker's key (None: the seat's, else the moderator's)
    seed_text: str | None = None  # for reproducible tests; else os.urandom
    game_id: str | None = None


def fork_seed(seed_text: str | None) -> bytes:
    """A fresh seed: random, or from `--seed` under a domain of its own, so that no seed text
    gives a sandbox the seed of the game it copies (whose draws it would then foretell)."""
    if seed_text is None:
        return os.urandom(32)
    return hashlib.sha256(f"pbem-fork-seed:{seed_text}".encode()).digest()


def fork(path: Path, out: Path, request: ForkRequest) -> GameFile:
    """Write the sandbox of the game at `path` to `out` (and its seed or secrets file)."""
    creation.refuse_existing(out, None)  # before the work of replaying
    game = open_game(path, head_only=False)
    gf = game.gf
    seat = request.seat.lower() if request.seat else _seat_of(gf, request.key)
    if seat is not None and gf.roster_entry(seat) is None:
        raise UsageError(f"unknown player '{request.seat}'; players: {', '.join(gf.player_ids())}")
    at = gf.seq if request.at is None else request.at
    check_seq(game, at, "--at")
    if game.projection.hidden and game.secrets is None:
        raise UsageError("this moderated game hides cards, and only its moderator holds them: "
                         "the moderator forks it (a player's fork: pbem fork GAME --for SEAT)")
    past = game_at(game, at)
    state, agenda = copy.deepcopy(past.gf.full or (past.gf.state, past.gf.agenda))
    game_id = _sandbox_id(out, request.game_id, gf.game_id)
    seed = fork_seed(request.seed_text)
    if game.projection.hidden and seat is not None:
        state, agenda = _seat_view(game, state, agenda, seat, seed, game_id)
    key = _forker_key(gf, seat, request.key)
    name = str(gf.roster_entry(seat)["name"]) if seat else key.name  # type: ignore[index]
    sandbox = _sandbox_file(gf, key, name or "moderator", game_id, seed,
                            out.with_suffix(".seed").name)
    sandbox.game[SANDBOX] = {"of": gf.game_id, "at": at, "for": seat,
                             "start": copy.deepcopy({"state": state, "agenda": agenda})}
    _begin(game, sandbox, state, agenda)
    creation.create(out, gamefile.dump_text(sandbox),
                    companion_for(sandbox, seed, out.with_suffix(".seed")))
    return sandbox


def _sandbox_id(out: Path, wanted: str | None, real: str) -> str:
    game_id = wanted or default_game_id(out)
    if not GAME_ID.fullmatch(game_id):
        raise UsageError(f"game id '{game_id[:60]}' is not allowed: use 1 to 48 letters, digits, "
                         "'-', '_' or '.', starting with a letter or digit")
    if game_id.lower() == real.lower():
        raise UsageError(f"a sandbox needs an id of its own, not '{real}': choose another "
                         "--id or --out file name")
    return game_id


def _seat_of(gf: GameFile, key: PublicKey | None) -> str | None:
    """The seat whose key `key` is (a player named by their key alone), if any."""
    if key is None:
        return None
    return next((str(p["id"]) for p in gf.roster["players"]
                 if parse_public_key(str(p["key"])).raw == key.raw), None)


def _forker_key(gf: GameFile, seat: str | None, key: PublicKey | None) -> PublicKey:
    """The one key that signs for every seat of the sandbox."""
    if key is not None:
        return key
    if seat is not None:
        return parse_public_key(str(gf.roster_entry(seat)["key"]))  # type: ignore[index]
    moderator = gf.roster.get("moderator")
    if moderator:
        return parse_public_key(str(moderator["key"]))
    raise UsageError("say whose sandbox it is: --for SEAT (that seat's key signs for every "
                     "seat) or --key FILE.pub")


def _seat_view(game: Game, state: dict[str, Any], agenda: list[dict[str, Any]], seat: str,
               seed: bytes, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What `seat` may know, made whole again: the rest dealt afresh by the ruleset, other
    players' sealed answers taken back."""
    redeal = getattr(game.ruleset, "redeal", None)
    if redeal is None:
        raise UsageError(f"{game.ruleset.title} cannot deal afresh what a seat does not see, so "
                         "this game has no player's fork; fork it without --for")
    state = redeal(state, seat, SeededChance(seed, f"{game_id}/redeal", 0))
    withdraw_others(agenda, seat)
    try:
        game.ruleset.check_invariants(Table(state, agenda, catalog_of(game.gf)))
    except InvariantViolation:
        raise UsageError(f"the position at this seq cannot be dealt afresh for {seat}; fork at "
                         "another seq") from None
    return state, agenda


def _sandbox_file(gf: GameFile, key: PublicKey, forker: str, game_id: str, seed: bytes,
                  seed_file: str) -> GameFile:
    """The sandbox's header, roster and randomness: the real game's rules and seats, every
    seat keyed to the forker (its moderator named `forker`), no e-mail addresses, the real
    game's mode with a fresh seed."""
    keyed = key.roster_text()
    moderated = gf.randomness.get("mode") != "open"
    header: dict[str, Any] = {
        "id": game_id, "ruleset": gf.game["ruleset"],
        "ruleset_version": gf.game.get("ruleset_version", 1), "players": len(gf.player_ids()),
        "options": copy.deepcopy(gf.game["options"]),
        "anchors": {"players": {p: keyed for p in gf.player_ids()},
                    "moderator": keyed if moderated else None}}
    roster: dict[str, Any] = {"players": [
        {"id": p["id"], "name": p["name"], "email": "", "key": keyed,
         **{k: p[k] for k in clock.SEAT_SETTINGS if p.get(k)}} for p in gf.roster["players"]]}
    if moderated:
        roster["moderator"] = {"name": forker, "email": "", "key": keyed}
    randomness: dict[str, Any] = (
        {"mode": "moderated", "commitment": seeds.commitment(seed), "seed_file": seed_file}
        if moderated else {"mode": "open", "seed": seed.hex()})
    return GameFile(header, roster, randomness, 0, {}, [], [])


def _begin(game: Game, sandbox: GameFile, state: dict[str, Any],
           agenda: list[dict[str, Any]]) -> None:
    """The sandbox's setup entry: its settings fixed by the trail, the position it begins at
    (no draws, no events: it was forked, not dealt)."""
    settings = {**clock.snapshot(sandbox), **clock.identities(sandbox),
                "seats": clock.seat_settings(sandbox)}
    sandbox.game[clock.TRAIL] = clock.start(settings)
    projection = projection_for(game.ruleset, sandbox)
    sandbox.state = projection.state(game.ruleset, state)
    sandbox.agenda = projection.agenda(agenda)
    if projection.hidden:
        sandbox.full = (state, agenda)
    append(sandbox.log, Setup(seq=0, post_state=current_hash(sandbox), settings=settings,
                              draws=[], events=[]))
