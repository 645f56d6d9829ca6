"""The greedy policy on a seat's own view, for a bot in a game with hidden hands (issue 24 §3).

The host's run holds the whole position, but the bot may reason only on what its seat sees:
the ruleset's `seat_view` (a capability asked for by name, like `worth`: the public state with
hidden cards as placeholders, the seat's own hand and standing answers as they are), with the
other players' answers to a simultaneous decision taken back (sealed or not, they may name
cards the seat cannot see, so the lookahead never settles such a decision).

Its lookahead never draws: a line whose outcome depends on a draw (a card off the deck, dice)
is scored by the position before it, since the seat cannot know the draw; so is a line whose
rules read a card the seat cannot see (a placeholder). Nor does it run forced answers, which
may be another seat's. A ruleset without `seat_view` leaves the bot its lines alone.
"""

from __future__ import annotations

import copy

from engine.core.adjudicate import answer
from engine.core.agenda import is_parallel
from engine.core.chance import NoChance, SeedNeeded
from engine.core.choice import Choice
from engine.core.ruleset import Ruleset
from engine.core.table import Event, Table
from pbem.pipeline.seals import withdraw
from pbem.play.policy import GreedyPolicy, value


def seat_table(ruleset: Ruleset, table: Table, seat: str) -> Table | None:
    """The position as `seat` sees it, or None when the ruleset cannot say."""
    view = getattr(ruleset, "seat_view", None)
    if view is None:
        return None
    agenda = copy.deepcopy(table.agenda)
    for node in agenda:  # the seat's answer never settles a simultaneous decision here: the
        if is_parallel(node):  # others' answers name cards the seat cannot see
            for player in [p for p in node.get("answers", {}) if p != seat]:
                withdraw(node, player)
    return Table(view(table.state, seat), agenda, table.catalog)


class SeatGreedy(GreedyPolicy):
    """Greedy, looking ahead without draws."""

    def _ahead(self, ruleset: Ruleset, table: Table, who: str, choice: Choice
               ) -> tuple[Table, list[Event]]:
        self.looks += 1
        probe = table.copy()
        # Forced answers are not run: they may be another seat's, whose options read its hand.
        return probe, answer(ruleset, probe, choice, NoChance(), who)

    def _score(self, ruleset: Ruleset, table: Table, who: str, choice: Choice, depth: int
               ) -> float:
        try:
            return super()._score(ruleset, table, who, choice, depth)
        # The seat cannot know the draw, or the rules read a card it cannot see (a placeholder:
        # another hand discarded on an elimination): the line is worth the position now.
        except (SeedNeeded, KeyError):
            return value(ruleset, table, who)


def choose_on_view(policy: GreedyPolicy, ruleset: Ruleset, table: Table, seat: str,
                   options: list[Choice]) -> Choice | None:
    """Greedy's choice on the seat's view (its rng and seed kept, so a bot's play replays);
    None when the ruleset gives no view."""
    view = seat_table(ruleset, table, seat)
    if view is None:
        return None
    blind = SeatGreedy()
    blind.rng, blind.seed = policy.rng, policy.seed
    return blind.choose(ruleset, view, seat, options)
