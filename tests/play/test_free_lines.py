"""A self-play policy never sets standing answers forever (issue 14, soak game 8929).

A standing answer (`standing taxed pay 4`) is free: the same decision follows it. The coverage
policy scored them above every move in game 8929 of the soak and set them for 5,000 blocks. After
FREE_IN_A_ROW of them in a row a policy must answer with a line that moves the game; and a game
that stalls anyway is a violation in fast mode too, not an endless loop.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.choice import Choice
from engine.core.ruleset import Ruleset
from engine.core.table import Table
from pbem.play import policy as policies
from pbem.play import selfplay
from pbem.rulesets import ruleset_for

STANDING = [Choice("standing", ("taxed", "pay 4"), ("answer", "answer"), "standing taxed pay 4"),
            Choice("standing", ("taxed", "ask"), ("answer", "answer"), "standing taxed ask")]
MOVE = Choice("end", (), (), "end")
PAX = ruleset_for("pax")


class LikesStanding(policies.Policy):
    """Scores a standing answer above any move, as the coverage policy did in game 8929."""

    def pick(self, ruleset: Ruleset, table: Table, who: str, options: list[Choice]) -> Choice:
        free = [c for c in options if c.verb == policies.FREE_VERB]
        return self.rng.choice(free or options)


def test_after_eight_standing_answers_in_a_row_a_policy_moves_the_game() -> None:
    bot = LikesStanding()
    bot.new_game("free")
    table = Table({}, [], None)
    picks = [bot.choose(PAX, table, "fugger", [*STANDING, MOVE]).line for _ in range(20)]
    streak = policies.FREE_IN_A_ROW
    assert picks[streak] == "end" and picks[2 * streak + 1] == "end"
    assert all(p.startswith("standing") for p in picks[:streak] + picks[streak + 1:2 * streak + 1])
    # each player counts its own; a new game starts every count again
    assert bot.choose(PAX, table, "medici", [*STANDING, MOVE]).verb == "standing"
    bot.new_game("again")
    assert bot.choose(PAX, table, "fugger", [*STANDING, MOVE]).verb == "standing"
    # nothing but standing answers: one is still taken
    only = [bot.choose(PAX, table, "welser", STANDING) for _ in range(streak + 2)]
    assert all(c.verb == "standing" for c in only)


def test_soak_game_8929_ends_and_a_stall_is_reported(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ended = selfplay.run(1, 3, "soak-8929", {"map": "default"}, fast=True, policy="coverage",
                         out_dir=tmp_path)
    assert (ended.games, ended.violations, sum(ended.endings.values())) == (1, [], 1)
    monkeypatch.setattr(policies, "FREE_IN_A_ROW", 10**9)  # the policy as it was
    monkeypatch.setattr(selfplay, "BLOCK_CAP", 200)
    stalled = selfplay.run(1, 3, "soak-8929", {"map": "default"}, fast=True, policy="coverage",
                           out_dir=tmp_path)
    assert stalled.violations == ["soak-8929-3p-0: no end after 200 decisions"]
    assert (stalled.games, stalled.decisions) == (1, 200)
