"""`pbem bot`: a seat's pending decisions answered by a self-play policy (issue 24, section 3).

The bot writes what a player would: a signed block of legal lines for the position the game
file holds. It decides one line at a time on a copy of the position and stops where the next
position depends on a draw (its outcome is the seed's, which the bot never sees), where the
seat owes nothing more, or at a sealed answer (a block of its own).

What the policy may read: in a game whose file holds everything (open games, Pax Renaissance)
the position itself, as any player could; in a moderated game with hidden hands the seat's own
legal lines, which its report lists anyway, and for greedy the seat's own view of the position
(pbem.play.seat_greedy: hidden cards as placeholders, other sealed answers taken back, no
draws), so no other player's cards, the deck or the seed can reach it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine.core import sealing
from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.agenda import is_parallel, next_pending, waiting_for
from engine.core.chance import NoChance, SeedNeeded
from engine.core.choice import Choice
from engine.core.table import Table
from pbem.errors import UsageError
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.sealed_orders import open_orders, seal_orders
from pbem.orders.signatures import PublicKey, load_private_key, parse_public_key, sign
from pbem.pipeline.game import Game
from pbem.pipeline.life import Life
from pbem.play.policy import FREE_VERB, GreedyPolicy, Policy, make_policy
from pbem.play.seat_greedy import choose_on_view
from pbem.store.gamefile import GameFile, fingerprint

BOT_POLICIES = ("greedy", "random", "coverage")
MAX_LINES = 40  # one block; a longer turn goes on in the next block


@dataclass(frozen=True)
class Decided:
    lines: list[str]
    why_stopped: str  # "draw", "done", "sealed", "simultaneous" or "long"


def check_key(game: Game, seat: str, key: Ed25519PrivateKey,
              at: datetime | None = None) -> PublicKey | None:
    """The key must be the seat's own (None), or a bot's key the player handed the seat to
    with `bot on SHA256:...` and still holds at `at` (default: now) (that key: its blocks are
    applied naming it, issue 24)."""
    entry = game.gf.roster_entry(seat)
    if entry is None:
        raise UsageError(f"unknown seat '{seat}'; seats: {', '.join(game.gf.player_ids())}")
    raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    if parse_public_key(entry["key"]).raw == raw:
        return None
    handed = PublicKey("ed25519", raw)
    if Life.of(game.gf.roster).bot_signs(seat, handed.fingerprint(), at or datetime.now(UTC)):
        return handed
    raise UsageError(f"the key is not {seat}'s key in this game; the bot signs with the key of "
                     f"the seat it plays, or a bot key the seat was handed to (the player "
                     f"sends 'bot on {handed.fingerprint()}')")


def owes(game: Game, seat: str) -> bool:
    table = game.table()
    return not table.state.get("over") and seat in waiting_for(table.agenda)


def check_policy(name: str) -> str:
    if name not in BOT_POLICIES:
        raise UsageError(f"unknown policy '{name}'; policies: {', '.join(BOT_POLICIES)}")
    return name


def new_policy(name: str, game: Game, seat: str) -> Policy:
    """A policy whose choices follow from the position: the same game, seq and seat give the
    same block, so a bot's play can be replayed."""
    policy = make_policy(check_policy(name))
    policy.new_game(f"bot|{game.gf.game_id}|{game.gf.seq}|{seat}")
    return policy


def playable(options: list[Choice]) -> list[Choice]:
    """The options but standing answers (`standing ...`: settings for later decisions, which a
    bot that answers each decision as it comes has no use for), unless nothing else is left."""
    moves = [c for c in options if c.verb != FREE_VERB]
    return moves or options


def pick(policy: Policy, game: Game, table_seat: str, options: list[Choice],
         table: Table) -> Choice:
    """The policy's choice: on the position where the file holds it all; with hidden hands,
    greedy on the seat's own view (pbem.play.seat_greedy), and any other policy (or a ruleset
    without a view) among the lines alone."""
    if not game.projection.hidden:
        return policy.choose(game.ruleset, table, table_seat, options)
    if isinstance(policy, GreedyPolicy):
        chosen = choose_on_view(policy, game.ruleset, table, table_seat, options)
        if chosen is not None:
            return chosen
    return policy.rng.choice(options)


def decide(game: Game, seat: str, policy: Policy) -> Decided:
    """The lines the seat sends now (game.table() must be whole: the host's run)."""
    game.require_whole("let the bot decide")
    ruleset, table = game.ruleset, game.table().copy()
    lines: list[str] = []
    while len(lines) < MAX_LINES:
        if table.state.get("over") or seat not in waiting_for(table.agenda):
            return Decided(lines, "done")
        node = next_pending(table.agenda)
        if lines and sealing.is_committing(node):
            return Decided(lines, "sealed")  # a sealed answer is sent in a block of its own
        options = playable(options_now(ruleset, table, seat))
        if not options:
            return Decided(lines, "done")
        choice = pick(policy, game, seat, options, table)
        lines.append(choice.line)
        if sealing.is_committing(node):
            return Decided(lines, "sealed")
        if node is not None and is_parallel(node):
            return Decided(lines, "simultaneous")  # the others' answers come between
        try:
            answer(ruleset, table, choice, NoChance(), seat)
            run_automatic(ruleset, table, NoChance())
        except SeedNeeded:
            return Decided(lines, "draw")
    return Decided(lines, "long")


def orders_for(game: Game, seat: str, policy: Policy, key_path: Path) -> list[str]:
    """The order lines to sign: in an open game's commit and reveal, the sealed form
    (`seal HEX`, its opening kept beside the key as `pbem sign --seal` does) or the opening."""
    assert game.path is not None
    node = next_pending(game.gf.agenda)
    if sealing.is_committing(node) and not game.projection.hidden:
        assert node is not None
        if sealing.stage(node) == sealing.OPEN:
            return [open_orders(game.path, key_path).strip()]
        line = decide(game, seat, policy).lines[0]
        return [seal_orders(game.path, key_path, line).strip()]
    return decide(game, seat, policy).lines


def signed(game: Game, seat: str, key: Ed25519PrivateKey, lines: list[str]) -> str:
    """The armored block of `lines`, written against the game file's current state."""
    gf = game.gf
    state = fingerprint(game.state_hash())
    payload = canonical_payload(gf.game_id, seat, gf.seq, state, lines)
    return format_block(gf.game_id, seat, gf.seq, state, lines, sign(key, payload))


# --- under cron: the seats whose keys the host keeps (issue 24) -----------------------------


def bots_folder(path: Path) -> Path:
    """Where the host keeps the bots' keys for a game: `lisbon.bots/` beside `lisbon.yaml`."""
    return path.with_suffix(".bots")


def ready_seat(gf: GameFile, keys: dict[str, Path], now: datetime) -> tuple[str, Path] | None:
    """An owed seat whose own key, or the bot key it was handed to (and holds at `now`), is
    among `keys` (fingerprint, lower-cased -> key file)."""
    life = Life.of(gf.roster)
    for seat in waiting_for(gf.agenda):
        entry = gf.roster_entry(seat)
        own = parse_public_key(entry["key"]).fingerprint().lower() if entry else ""
        handed = life.bots.get(seat, "")
        for found in (handed if life.bot_signs(seat, handed, now) else "", own):
            if found in keys:
                return seat, keys[found]
    return None


def folder_keys(path: Path) -> dict[str, Path]:
    keys: dict[str, Path] = {}
    folder = bots_folder(path)
    for key_file in sorted(folder.glob("*.key")) if folder.is_dir() else []:
        raw = load_private_key(key_file).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        keys[PublicKey("ed25519", raw).fingerprint().lower()] = key_file
    return keys


def play_bot_seats(path: Path, *, policy_name: str = "greedy", limit: int = 400,
                   now: datetime | None = None) -> list[tuple[int, str, list[str]]]:
    """Under cron (`pbem inbox`, `pbem timeout`, at `now`, default the clock's): every owed
    seat whose key, or the bot key it was handed to, is in the game's bots folder plays at
    once; (seq, seat, lines) of each block applied. A seat the bot cannot play now (its game's
    secrets are not here) waits for its deadline."""
    from pbem.pipeline import opening as games  # start-up: only a game with bots plays them
    from pbem.pipeline.apply import apply_block

    keys, moment = folder_keys(path), now or datetime.now(UTC)
    played: list[tuple[int, str, list[str]]] = []
    while keys and len(played) < limit:
        opened = games.open_game(path)
        found = None if opened.gf.state.get("over") else ready_seat(opened.gf, keys, moment)
        if found is None:
            break
        seat, key_file = found
        private = load_private_key(key_file)
        handed = check_key(opened, seat, private, moment)
        try:
            lines = orders_for(opened, seat, new_policy(policy_name, opened, seat), key_file)
        except UsageError:
            break
        if not lines:
            break
        applied = apply_block(path, signed(opened, seat, private, lines), bot=handed)
        played.append((applied.gf.seq, seat, lines))
    return played
