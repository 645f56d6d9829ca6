"""Benchmark games: a seeded 4-player game driven to block N through the real apply pipeline.

Blocks are signed one-line blocks applied with `pbem.pipeline.apply.apply_text`, exactly as
`pbem.play.selfplay.play_full` does. A uniformly random game ends (Patron victory: the decks run
out) after 100-ish blocks, so the policy here stretches the game: every market draw should buy
as many decisions as it can.

- On a turn: `end` as soon as one action is taken (one action per turn gives the most blocks
  per action); else `play` a card from hand, else `sell` one (a tableau card once the hand is
  empty); buy only when there is nothing to play or sell, then the affordable card that asks
  for the most follow-up decisions (agents, one-shot, coronation), the cheapest column first;
  trade fairs only as a last resort (a fair discards a card and so costs a draw).
- Other decisions: an agent placement, levy or kill when there is one (not `skip`), else any.

Each card then yields buy, play and sell (three actions, six blocks) plus its placements. The
decks hold 48 cards, so a 4-player game ends near block 340 whatever the policy: block 400 is
out of reach today and the benchmark reports how far it got (`reached`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.adjudicate import options_now
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import Chance, SeededChance
from engine.core.choice import Choice
from engine.core.table import Table
from engine.pax.catalog import Card
from pbem.pipeline.apply import apply_text
from pbem.pipeline.game import from_gamefile
from pbem.play.selfplay import new_selfplay_game, signed_block
from pbem.store import gamefile, seeds
from pbem.store.gamefile import GameFile

PLAYERS = 4
PLACEMENTS = frozenset({"knight", "rook", "pawn", "bishop", "pirate", "levy", "kill"})


def _follow_ups(table: Table, choice: Choice) -> int:
    """How many decisions playing the card on sale will ask for (a rough count)."""
    card: Card = table.catalog.cards[choice.args[0]]
    return len(card.agents) + 2 * (card.one_shot is not None) + 2 * (card.kind == "queen")


def _column(choice: Choice) -> int:
    return int(choice.line.split()[-1])  # "buy east 2"


def choose(rng: random.Random, table: Table, options: Sequence[Choice]) -> Choice:
    """The prolonging policy described in the module docstring."""
    node = next_pending(table.agenda)
    if node is not None and node["action"] == "turn":
        if table.state["turn"]["actions"] >= 1:
            ends = [c for c in options if c.verb == "end"]
            if ends:
                return ends[0]
        for verb in ("play", "sell"):
            picks = [c for c in options if c.verb == verb]
            if picks:
                return rng.choice(picks)
        buys = [c for c in options if c.verb == "buy"]
        if buys:
            def rank(c: Choice) -> tuple[int, int]:
                return -_follow_ups(table, c), _column(c)

            best = min(rank(c) for c in buys)
            return rng.choice([c for c in buys if rank(c) == best])
        return rng.choice(list(options))
    placements = [c for c in options if c.verb in PLACEMENTS]
    return rng.choice(placements or list(options))


@dataclass
class Snapshot:
    """The game file after `seq` blocks, and the signed block that comes next."""

    seq: int
    text: str
    block: str
    ends_game: bool  # the next block ends the game (the game ran out before the target)


@dataclass
class Built:
    seed: str
    final_seq: int  # blocks applied when building stopped
    over: bool  # the game ended before the largest target
    snapshots: dict[int, Snapshot] = field(default_factory=dict)  # by target


def _copy_at(gf: GameFile, seq: int, state: dict[str, Any], agenda: list[dict[str, Any]],
             log_length: int) -> GameFile:
    return GameFile(gf.game, gf.roster, gf.randomness, seq, state, agenda, gf.log[:log_length])


def build(seed: str, targets: Sequence[int]) -> Built:
    """Play `seed` with the policy up to max(targets) blocks; snapshot each target.

    A target the game does not reach gets the last playable position instead: the game after
    `reached` blocks, and the block that ends it.
    """
    gf, keys = new_selfplay_game(seed, PLAYERS, {})
    master = seeds.make_seed(seed)
    rng = random.Random(seed)
    goal = max(targets)
    built = Built(seed, 0, False)
    # apply_text replaces gf.state/agenda with new objects and only appends to the log, so
    # keeping references to the previous position is enough to rebuild it later.
    previous: tuple[int, dict[str, Any], list[dict[str, Any]], int, str] | None = None

    def make_chance(n: int) -> Chance:
        return SeededChance(master, gf.game_id, n)

    game = from_gamefile(gf, master)
    while not gf.state["over"]:
        ruleset, table = game.ruleset, game.table()
        player = waiting_for(table.agenda)[0]
        choice = choose(rng, table, options_now(ruleset, table))
        block = signed_block(gf, player, keys[player], choice.line)
        if gf.seq in targets:
            built.snapshots[gf.seq] = Snapshot(gf.seq, gamefile.dump_text(gf), block, False)
        if gf.seq >= goal:
            break
        previous = (gf.seq, gf.state, gf.agenda, len(gf.log), block)
        apply_text(game, block)
    built.final_seq = gf.seq
    built.over = bool(gf.state["over"])
    if built.over and previous is not None:
        seq, state, agenda, log_length, block = previous
        text = gamefile.dump_text(_copy_at(gf, seq, state, agenda, log_length))
        for target in targets:
            if target not in built.snapshots:
                built.snapshots[target] = Snapshot(seq, text, block, True)
    return built


def longest(seeds_to_try: Sequence[str], targets: Sequence[int]) -> tuple[Built, list[int]]:
    """The first seed that reaches every target, else the one that gets furthest."""
    best: Built | None = None
    lengths: list[int] = []
    for seed in seeds_to_try:
        built = build(seed, targets)
        lengths.append(built.final_seq)
        if best is None or built.final_seq > best.final_seq:
            best = built
        if not built.over:
            break
    assert best is not None, "no seeds to try"
    return best, lengths
