"""Starting a game: the ruleset's setup, the first log entry, and the files (created, never
replaced: two `pbem new` runs on one name cannot both win)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.core.adjudicate import run_automatic
from engine.core.chance import SeededChance
from engine.core.errors import SetupError
from pbem.delivery.deadlines import parse_duration
from pbem.errors import UsageError
from pbem.orders.signatures import PublicKey
from pbem.pipeline import clock
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import creation, gamefile, secrets, seeds
from pbem.store.entries import Setup, append, public_events
from pbem.store.gamefile import GameFile, current_hash
from pbem.store.projection import projection_for

# Game ids name files (outboxes, queues) and go into mail headers: no paths, no spaces.
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,47}")


def default_game_id(path: Path) -> str:
    """The game id from a file name, with anything not allowed made '-'."""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]", "-", path.stem).lstrip("-_.")[:48]
    return cleaned or "game"


def create_game(
    keys: list[PublicKey], *, game_id: str, seed: bytes, ruleset_name: str,
    open_game: bool = False, options: dict[str, Any] | None = None,
    moderator: PublicKey | None = None, seed_file: str = "", absence: str | None = None,
    language: str | None = None,
) -> GameFile:
    """Set up a game in memory for players seated in the order given. For a game with hidden
    information, `gf.full` holds the whole state (the file holds its public projection)."""
    if not GAME_ID.fullmatch(game_id):
        raise UsageError(f"game id '{game_id[:60]}' is not allowed: use 1 to 48 letters, digits, "
                         "'-', '_' or '.', starting with a letter or digit")
    if len({k.raw for k in keys}) != len(keys):
        raise UsageError("two players have the same key; each player needs a key of their own")
    ruleset = ruleset_for(ruleset_name)
    chance = SeededChance(seed, game_id, 0)
    seats = ruleset.seat_ids([key.name or "" for key in keys])
    try:
        checked = ruleset.check_options(dict(options or {}), players=len(keys),
                                        open_game=open_game)
        table, events = ruleset.setup(catalog_for(ruleset_name), game_id, seats, checked, chance)
    except SetupError as error:
        raise UsageError(str(error)) from None
    events += run_automatic(ruleset, table, chance)
    table.state["draws"] = chance.next_n
    game = {"id": game_id, "ruleset": ruleset_name, "ruleset_version": ruleset.version,
            "players": len(keys), "options": dict(table.state["options"]),
            # The trust anchors: every key that can authorise anything, covered by every state
            # hash; a key changes only through a signed, logged roster change.
            "anchors": {"players": {seat: key.roster_text() for seat, key in
                                    zip(table.state["seats"], keys, strict=True)},
                        "moderator": moderator.roster_text() if moderator else None}}
    roster: dict[str, Any] = {"players": [
        {"id": seat, "name": key.name or seat, "email": key.email or "",
         "key": key.roster_text(),  # a language from the .pub's comment: the seat's own setting
         **({"language": clock.SEAT_SETTINGS["language"](key.language)} if key.language else {})}
        for seat, key in zip(table.state["seats"], keys, strict=True)
    ]}
    if moderator is not None:
        roster["moderator"] = {"name": moderator.name or "moderator",
                               "email": moderator.email or "", "key": moderator.roster_text()}
    randomness: dict[str, Any] = (
        {"mode": "open", "seed": seed.hex()} if open_game
        else {"mode": "moderated", "commitment": seeds.commitment(seed), "seed_file": seed_file}
    )
    if absence is not None:  # each player's absence allowance (issue 24), fixed by the setup
        roster["deadlines"] = {"decisions": {}, "nmr": "wait",
                               "absence": absence.strip().lower()}
        parse_duration(absence)
    if language is not None:  # the game's default language; none: English, as before
        roster[clock.GAME_LANGUAGE] = clock.check_game_language(language)
    gf = GameFile(game, roster, randomness, 0, {}, [], [])
    # deadlines, e-mails, names, the seats' own settings and the game's language, bound by the
    # header's trail
    settings = {**clock.snapshot(gf), **clock.identities(gf), "seats": clock.seat_settings(gf),
                **({clock.GAME_LANGUAGE: roster[clock.GAME_LANGUAGE]} if language else {})}
    game[clock.TRAIL] = clock.start(settings)
    projection = projection_for(ruleset, gf)
    gf.state = projection.state(ruleset, table.state)
    gf.agenda = projection.agenda(table.agenda)
    if projection.hidden:
        gf.full = (table.state, table.agenda)
    append(gf.log, Setup(seq=0, post_state=current_hash(gf), settings=settings,
                         draws=projection.draws(ruleset, chance.draws),
                         events=public_events(events)))
    return gf


def new_game(
    path: Path, keys: list[PublicKey], *, game_id: str, ruleset_name: str,
    seed_text: str | None = None, open_game: bool = False, options: dict[str, Any] | None = None,
    moderator: PublicKey | None = None, absence: str | None = None, language: str | None = None,
) -> GameFile:
    """Start a game and write its file (and, for a moderated game, its seed or secrets file).
    The files are created exclusively and atomically (pbem.store.creation): never replaced,
    and a run killed halfway never blocks the name."""
    seed_file = path.with_suffix(".seed")
    creation.refuse_existing(path, None)  # before the work of setting up
    seed = seeds.make_seed(seed_text)
    gf = create_game(keys, game_id=game_id, seed=seed, ruleset_name=ruleset_name,
                     open_game=open_game, options=options, moderator=moderator,
                     seed_file=seed_file.name, absence=absence, language=language)
    creation.create(path, gamefile.dump_text(gf), companion_for(gf, seed, seed_file))
    return gf


def companion_for(gf: GameFile, seed: bytes, seed_file: Path) -> creation.Companion | None:
    """What a new game's file is created with: nothing (an open game keeps its seed), the seed
    file, or for a game with hidden information the secrets file with its first generation."""
    if gf.randomness.get("mode") == "open":
        return None
    if gf.full is None:
        return creation.Companion(seed_file, seeds.seed_text(seed))
    held = secrets.Secrets(seed)
    held.add(secrets.Generation(current_hash(gf), gf.seq, gf.full[0], gf.full[1]))
    return creation.Companion(seed_file, held.to_text())
