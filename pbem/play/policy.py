"""How a self-play bot picks among the engine's legal options (issue 14).

`random` picks uniformly. `coverage` and `greedy` look one decision ahead through the engine
itself: each candidate (a sample of at most LOOKAHEAD, WIDE for a coverage player holding an
ability never fired) is answered on `table.copy()` with a throw-away chance, and the events it
makes, or the state after it, are scored. No rules knowledge lives here: what counts is what
the engine emits (event kinds and card names), shows (its view, its tableau), holds as data
(the catalog's cards and ability summaries, pbem.play.coverage_keys) or measures itself (a
victory's shortfall, an Age of Renaissance score and income).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.agenda import next_pending, waiting_for
from engine.core.chance import SeededChance
from engine.core.choice import Choice
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table
from pbem.play.coverage_keys import (
    PLAYED,
    cards_of,
    coverage_keys,
    held_abilities,
    is_bought,
    named_keys,
    pairs_held,
    serving_cards,
    serving_pairs,
    set_cards,
    steps_toward,
    trial_cards,
)
from pbem.play.coverage_places import (
    named_places,
    named_verbs,
    place_cards,
    places_held,
    places_open,
)
from pbem.play.coverage_victory import Aim, made_active, nearest_wanted, notes_reached, shortfall_of
from pbem.store import seeds

__all__ = ["PLAYED", "POLICIES", "CoveragePolicy", "GreedyPolicy", "Policy", "is_bought",
           "make_policy", "value"]  # PLAYED and is_bought: read by pbem.play.stats

POLICIES = ("coverage", "greedy", "random")
LOOKAHEAD = 6  # candidates tried per decision: keeps a game within a few times a random one
WIDE = 16  # coverage: candidates tried by a player holding an ability never fired
NAMED = 4  # coverage: worth of each unseen key a follow-up names (10 for each one reached)
STEP = 2  # coverage: worth of each count gained toward a square declaring reaches news with
FOLLOW_UPS = 3  # greedy looks this many follow-up answers of its own deeper
# follow-ups deep in a game the engine scores by points (`worth`): there turns are long runs of
# one player's answers (buy, then buy again), and its decisions are cheap; bench/README.md
FOLLOW_DEPTH_SCORED = 2
FREE_VERB = "standing"  # orders.md: a standing answer, a setting that moves no game forward
FREE_IN_A_ROW = 8  # a player's standing answers in a row before a policy must move the game


class Policy:
    """Random choice; subclasses score candidates by looking one decision ahead."""

    def __init__(self) -> None:
        self.rng = random.Random()
        self.seed = ""
        self.seen: set[str] = set()  # coverage keys met so far in this run (all its games)
        self.looks = 0
        self.width = LOOKAHEAD  # candidates tried per decision
        self.free_in_a_row: dict[str, int] = {}  # each player's standing answers since a move

    def new_game(self, seed: str) -> None:
        """Each game replays from its own seed, whatever was played before it."""
        self.rng = random.Random(seed)
        self.seed = seed
        self.looks = 0
        self.free_in_a_row = {}

    def pick_player(self, owed: list[str]) -> str:
        """The only player owed, or any of a parallel node's (random order)."""
        return owed[0] if len(owed) == 1 else self.rng.choice(owed)

    def choose(self, ruleset: Ruleset, table: Table, who: str, options: list[Choice]) -> Choice:
        """The policy's pick (`pick`), but after FREE_IN_A_ROW standing answers in a row only a
        line that moves the game: a standing answer is free and leaves the same decision, so a
        policy that scored them best would set them forever (soak game 8929)."""
        streak = self.free_in_a_row.get(who, 0)
        if streak >= FREE_IN_A_ROW:
            options = [c for c in options if c.verb != FREE_VERB] or options
        choice = self.pick(ruleset, table, who, options)
        self.free_in_a_row[who] = streak + 1 if choice.verb == FREE_VERB else 0
        return choice

    def pick(self, ruleset: Ruleset, table: Table, who: str, options: list[Choice]) -> Choice:
        return self.rng.choice(options)

    def saw(self, events: Iterable[Event]) -> None:
        self.seen |= coverage_keys(events)

    def _ahead(self, ruleset: Ruleset, table: Table, who: str, choice: Choice
               ) -> tuple[Table, list[Event]]:
        """The table and events after `choice`, on a copy; draws come from a throw-away seed so
        the bot never peeks at the real dice or deck."""
        self.looks += 1
        text = f"{self.seed}|look|{self.looks}"
        chance = SeededChance(seeds.make_seed(text), text, 0)
        probe = table.copy()
        events = answer(ruleset, probe, choice, chance, who)
        events += run_automatic(ruleset, probe, chance)
        return probe, events

    def _best(self, options: list[Choice], score: Callable[[Choice], float],
              width: int | None = None) -> Choice:
        width = width or self.width
        sample = options if len(options) <= width else self.rng.sample(options, width)
        scored = [(score(c), self.rng.random(), c) for c in sample]  # random tie-break
        return max(scored, key=lambda s: (s[0], s[1]))[2]


class Serving(NamedTuple):
    """What serves the abilities a coverage player owns that never fired: the cards that carry
    what their summaries name, and the prestige sets the one-shots they name list together."""
    cards: frozenset[str]
    pairs: frozenset[frozenset[str]]
    deep: bool = False  # the decision is about a serving card: worth its best follow-up
    aim: Aim | None = None  # the nearest victory declaring reaches news with, and how far it
    # is (pbem.play.coverage_victory)
    notes: frozenset[str] | None = None  # what declarations here would count that never fired
    # (None: no ability never fired is laid out, so none can count)
    trials: frozenset[str] = frozenset()  # one-shots that put every tableau on the trial an
    # ability never fired, laid out anywhere, reads (pbem.play.coverage_keys.trial_cards)
    beside: frozenset[frozenset[str]] = frozenset()  # the prestige sets that trial reads, for
    # a player not owning the ability: a step toward one counts, losing one in the trial does not
    places: frozenset[str] = frozenset()  # the routes its summary names (Spice Islands): a
    # concession of its owner's on one counts (pbem.play.coverage_places)
    opens: frozenset[str] = frozenset()  # those routes, for an ability laid out anywhere: every
    # player counts the route's emporium opened
    plays: frozenset[str] = frozenset()  # serving cards of an ability laid out in its own
    # tableau: playing one is worth its best follow-up (a queen's coronation, its suitor)


def _victories(options: list[Choice]) -> list[Choice]:
    return [c for c in options if c.verb == "victory"]


class CoveragePolicy(Policy):
    """Prefers what reaches something not yet seen in this run: the events of each candidate
    (one step ahead on a copy), then abilities never fired that its tableau would newly hold
    (cards laid out, so their ops are tried) or its hand (cards bought), then cards that serve
    such an ability it owns (`serving_cards`: what the ability's own summary names), and a
    tableau holding whole a prestige set the one-shots named there list together (an
    apostasy's two religions, `serving_pairs`). A candidate naming an unseen ability that
    leaves the same player to answer again (a queen played, then crowned) is worth its best
    follow-up too, and so is every candidate of a decision about a serving card (an
    apostasy's trial follows its agent's placement). Candidates naming something unseen
    or a serving card are always among those tried; a player whose tableau holds an ability
    never fired tries up to WIDE candidates, so the answer that fires it is rarely left out.
    Declares a legal victory at once when its declaration reaches something new (its kind, or
    an ability counted in it); a victory already seen is one option among the others, so games
    run on and meet more. Before that, a candidate scores for each count it gains toward such a
    declaration as the engine measures it (its shortfall, pbem.play.coverage_victory), for making
    its square active, and for a position in which a declaration would count an ability never
    fired (the first green pirate under Zionist State); when the engine would count it in any
    player's declaration, the nearest declarer's shortfall is the measure. While an ability
    never fired is laid out, every player is steered toward the prestige sets its one-shots
    read (`beside`: others' trial) and keeps those one-shots (`trials`), and a candidate playing
    one looks two answers past the play, to the trial. A route such a summary names (the Spice
    Islands) counts its owner's concessions on it and, for everyone, its emporium opened
    (`places`, `opens`, pbem.play.coverage_places); options whose verb it names (a trade fair)
    are always tried; and playing a serving card of an ability laid out in the player's own
    tableau is worth its best follow-up (Star Chamber's queen, then her suitor)."""

    def pick(self, ruleset: Ruleset, table: Table, who: str, options: list[Choice]) -> Choice:
        victories = _victories(options)
        if len(options) == 1:
            return options[0]
        if victories:  # a declaration that reaches something new ends the game at once
            reach = [(len(coverage_keys(self._ahead(ruleset, table, who, c)[1]) - self.seen), c)
                     for c in victories]
            most, best = max(reach, key=lambda r: r[0])
            if most:
                return best
        held = held_abilities(table, who) - self.seen
        owned = held_abilities(table, who, hand=True) - self.seen
        out = {a for p in table.state.get("players") or {} for a in held_abilities(table, p)}
        unseen = out - self.seen  # laid out in any tableau, never fired
        pairs = serving_pairs(table.catalog, owned)
        places, opens = named_places(table.catalog, owned), named_places(table.catalog, unseen)
        serving = Serving(serving_cards(table.catalog, owned) | place_cards(table.catalog, places),
                          pairs, self._about_serving(table, unseen),
                          nearest_wanted(table, who, self.seen),
                          frozenset(notes_reached(table, who, self.seen)) if unseen else None,
                          trial_cards(table.catalog, unseen) | place_cards(table.catalog, opens),
                          serving_pairs(table.catalog, unseen) - pairs, places, opens,
                          serving_cards(table.catalog, held))
        width = WIDE if held or serving.beside or opens else self.width
        verbs = named_verbs(table.catalog, unseen, {c.verb for c in options})
        sample = self._sample(table, options, width, serving.cards | serving.trials
                              | set_cards(table.catalog, serving.pairs | serving.beside), verbs)
        return self._best(sample, lambda c: self._score(ruleset, table, who, c, serving), width)

    def _score(self, ruleset: Ruleset, table: Table, who: str, choice: Choice,
               serving: Serving, *, level: int = 0, depth: int = 0) -> float:
        """`level` 0 is the decision itself; follow-ups are looked at down to `depth` (1, or 2
        for a card putting tableaux on a trial: its one-shot, then its agents, then the trial)."""
        follow = level == 0
        named = {a.partition("/")[0] for a in choice.args}  # the cards the option names
        depth = depth or 1 + bool(serving.trials & named)
        probe, events = self._ahead(ruleset, table, who, choice)
        fresh = len(coverage_keys(events) - self.seen)
        holds = len(held_abilities(probe, who) - held_abilities(table, who) - self.seen)
        gains = len(held_abilities(probe, who, hand=True)
                    - held_abilities(table, who, hand=True) - self.seen)
        (laid, hand), (laid_now, hand_now) = cards_of(table, who), cards_of(probe, who)
        serves = 2 * len(serving.cards & (laid_now - laid)) \
            + len(serving.cards & (hand_now - hand - laid)) \
            + len(serving.trials & (hand_now - hand - laid))  # kept for the trial, not laid out
        if serving.pairs:  # a step toward (or away from) a prestige set held whole
            serves += sum(pairs_held(probe, who, serving.pairs, hand=h)
                          - pairs_held(table, who, serving.pairs, hand=h) for h in (False, True))
        if serving.beside:  # others' trial: toward it only (being condemned in it is the point)
            serves += sum(max(0, pairs_held(probe, who, serving.beside, hand=h)
                              - pairs_held(table, who, serving.beside, hand=h)) for h in (False, True))
        if serving.places:  # its owner's concessions on a route its summary names
            serves += 2 * (places_held(probe, who, serving.places)
                           - places_held(table, who, serving.places))
        if serving.opens:  # that route's emporium opened, by anyone
            serves += 3 * (places_open(probe, serving.opens) - places_open(table, serving.opens))
        toward = len(steps_toward(table.catalog, choice) - self.seen)
        total: float = fresh * 10 + holds * 3 + gains * 2 + serves + toward * 3
        if serving.aim and follow:  # nearer a declaration that would reach news, as the engine
            square, short, declarers = serving.aim  # counts it
            total += STEP * (short - shortfall_of(probe, declarers, square)) \
                + 3 * made_active(table, probe, who, square)
        if serving.notes is not None and follow:  # a declaration would newly count an ability
            total += 3 * len(notes_reached(probe, who, self.seen) - serving.notes)
        if level < depth and _opened(table, probe, who):
            after = options_now(ruleset, probe, who)
            plays = bool(serving.plays & named)
            if serving.deep or depth > 1 or plays or {k for k in named_keys(table.catalog, choice)
                                                      - self.seen if k.startswith("ability:")}:
                tried = self._sample(probe, after, self.width if plays else FOLLOW_UPS,
                                     serving.cards)  # a queen to crown, her suitor...
                total += max((self._score(ruleset, probe, who, c, serving, level=level + 1,
                                          depth=depth) for c in tried), default=0.0)
            else:  # ops to run: worth what the best of them names that was never seen
                total += NAMED * max((len(named_keys(table.catalog, c) - self.seen)
                                      for c in after), default=0)
        return total

    def _about_serving(self, table: Table, unseen: set[str]) -> bool:
        """The decision is about a card (its node's `card`: a one-shot to trigger, an agent to
        place) that serves an ability never fired laid out in any tableau, so whoever answers
        looks one follow-up deeper: an apostasy's trial comes after its agent is placed."""
        node = next_pending(table.agenda)
        card = (node or {}).get("args", {}).get("card")
        if not card:
            return False
        return card in serving_cards(table.catalog, unseen)

    def _sample(self, table: Table, options: list[Choice], width: int,
                serving: frozenset[str] = frozenset(), verbs: frozenset[str] = frozenset()
                ) -> list[Choice]:
        """At most `width` options: up to half of them naming something unseen, those whose
        verb a summary of an ability never fired names first (a trade fair), then those naming
        it outright, then a serving card, then steps toward an unseen Advance."""
        if len(options) <= width:
            return options
        picked: list[Choice] = []
        for named in ([c for c in options if c.verb in verbs],
                      [c for c in options if named_keys(table.catalog, c) - self.seen],
                      [c for c in options if serving & {a.partition("/")[0] for a in c.args}],
                      [c for c in options if steps_toward(table.catalog, c) - self.seen]):
            named = [c for c in named if c not in picked]
            picked += self.rng.sample(named, min(len(named), width // 2 - len(picked)))
        rest = [c for c in options if c not in picked]
        return picked + self.rng.sample(rest, width - len(picked))


def _opened(table: Table, probe: Table, who: str) -> bool:
    """The choice opened a decision of its own for the same player (ops to run, a queen to
    crown): the probe's next node is new and owed by `who` alone."""
    node = next_pending(probe.agenda)
    return node is not None and waiting_for(probe.agenda) == [who] \
        and node["id"] not in {n["id"] for n in table.agenda} and not probe.state.get("over")


class GreedyPolicy(Policy):
    """Plays to win: declares as soon as it can, else the option after which it is closest to
    any victory (Pax: the engine's own shortfall for each active square, engine.pax.victory;
    AoR: its lead by the engine's own final score and income, see `margin`), then the view's
    counts."""

    def pick(self, ruleset: Ruleset, table: Table, who: str, options: list[Choice]) -> Choice:
        victories = _victories(options)
        if victories:
            return self.rng.choice(victories)
        if len(options) == 1:
            return options[0]

        depth = FOLLOW_DEPTH_SCORED if getattr(ruleset, "worth", None) else 1
        return self._best(options, lambda choice: self._score(ruleset, table, who, choice, depth))

    def _score(self, ruleset: Ruleset, table: Table, who: str, choice: Choice, depth: int
               ) -> float:
        """A won game, a victory on offer, then the closest victory; while the same player
        decides again (a follow-up of the same action), the best of a few of those follow-ups,
        so a purchase is worth what it leads to."""
        probe, _ = self._ahead(ruleset, table, who, choice)
        if probe.state.get("over"):
            return 1e6 if who in probe.state.get("winners", []) else -1e6
        follow = options_now(ruleset, probe, who)
        if any(c.verb == "victory" for c in follow):
            return 1e4
        if depth and follow and len(follow) > 1:
            sample = follow if len(follow) <= FOLLOW_UPS else self.rng.sample(follow, FOLLOW_UPS)
            return max(self._score(ruleset, probe, who, c, depth - 1) for c in sample)
        return value(ruleset, probe, who)


def value(ruleset: Ruleset, table: Table, who: str) -> float:
    """How good the position is for `who`: the closest victory, the lead, then the counts."""
    return (closeness(table, who) * 50 + margin(ruleset, table, who) * 10
            + progress(ruleset.view_for(table, None), who))


def closeness(table: Table, who: str) -> float:
    """Minus the shortfall of `who`'s nearest victory (Pax: active squares, or any square while
    none is active, so comets are bought toward the nearest); 0 for a game without squares."""
    squares = table.state.get("victory")
    if not isinstance(squares, dict) or not squares:
        return 0.0
    from engine.pax.victory import shortfall  # only a Pax table keeps squares by name
    active = [s for s, status in squares.items() if status == "active"] or list(squares)
    return -float(min(shortfall(table, who, s) for s in active))


def margin(ruleset: Ruleset, table: Table, who: str) -> float:
    """Age of Renaissance: `who`'s worth less the best other player's, so the lead that wins at
    the game's end. A worth is the final score as the engine counts it (engine.aor.victory,
    11.2) plus the income the engine would pay next (9.6), so provinces count before they pay;
    0 for a game the engine does not score by points (no `worth`: Pax Renaissance)."""
    measure = getattr(ruleset, "worth", None)
    if measure is None:
        return 0.0
    worth: dict[str, float] = measure(table)
    mine = worth.pop(who, 0.0)
    return float(mine - max(worth.values(), default=0))


def progress(view: dict[str, Any], who: str) -> float:
    """How far along `who` is, read from the public view. Pax: victory squares active, prestige
    (the best kind weighs most), concessions, cards held; Age of Renaissance: Advances,
    provinces and cash (florins and cash only break ties)."""
    players = view.get("players")
    if isinstance(players, list):  # pax: one entry per bank
        me = next((p for p in players if p.get("bank") == who), None)
        if me is None:
            return 0.0
        prestige = list(me.get("prestige", {}).values()) or [0]
        active = sum(1 for status in (view.get("victory") or {}).values() if status == "active")
        return float(active * 20 + max(prestige) * 6 + sum(prestige) * 2
                     + me.get("concessions", 0) * 2
                     + me.get("tableau_size", 0) * 2 + me.get("hand_size", 0)
                     + me.get("florins", 0) / 10)
    if isinstance(players, dict) and who in players:  # aor: keyed by seat
        me = players[who]
        held = sum(1 for p in (view.get("provinces") or {}).values()
                   if isinstance(p, dict) and (p.get("marker") == who or who in p.get("tokens", {})))
        return float(len(me.get("advances", [])) * 5 + held * 2 + me.get("cash", 0) / 20)
    return 0.0


def make_policy(name: str) -> Policy:
    """The policy called `name` (one of POLICIES), for one run of games."""
    kinds: dict[str, type[Policy]] = {"random": Policy, "coverage": CoveragePolicy,
                                      "greedy": GreedyPolicy}
    return kinds[name]()
