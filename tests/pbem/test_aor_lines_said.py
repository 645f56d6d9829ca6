"""Age of Renaissance's legal lines explained in the reader's language (issue 18, step 3): each
line as it is, what it does beside it, as Pax Renaissance's menu does; English keeps its
columns."""

from __future__ import annotations

from pathlib import Path

from engine.core.adjudicate import answer, options_now, settle
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from pbem.play.policy import make_policy
from pbem.rulesets import catalog_for, ruleset_for
from pbem.store import seeds
from pbem.words import say
from tests.security.test_names_bound import cli

DECISIONS = 400  # enough for every phase of a turn, and the next turn's start


def test_every_legal_line_of_a_played_game_is_explained_in_hungarian() -> None:
    rules = ruleset_for("aor")
    policy = make_policy("random")
    policy.new_game("lines")
    chance = SeededChance(seeds.make_seed("lines"), "lines", 0)
    seats = rules.seat_ids([f"bot{i + 1}" for i in range(4)])
    table, _ = rules.setup(catalog_for("aor"), "lines", seats, {}, chance)
    _, known = settle(rules, table, chance)
    verbs: set[str] = set()
    for _ in range(DECISIONS):
        if rules.is_over(table):
            break
        who = policy.pick_player(waiting_for(table.agenda))
        legal = known[who] if who in known else options_now(rules, table, who)
        view = rules.view_for(table, who)
        for choice in legal:
            said = rules.line_said(view, choice.line)
            assert said is not None, choice.line
            english, hungarian = say(said, "en"), say(said, "hu")
            assert english and hungarian != english, (choice.line, english)
            verbs.add(choice.line.split()[0])
        answer(rules, table, policy.choose(rules, table, who, legal), chance, who)
        _, known = settle(rules, table, chance)
    assert {"return", "bid", "capital", "tokens", "play", "buy", "place", "done"} <= verbs


def test_a_hungarian_report_explains_each_line_and_keeps_it_verbatim(tmp_path: Path) -> None:
    names = ("ann", "bob", "cy", "dee")
    for name in (*names, "max"):
        assert cli("keygen", name, "--dir", str(tmp_path))[0] == 0
    game = tmp_path / "venice.yaml"
    players = [arg for name in names for arg in ("--player", str(tmp_path / f"{name}.pub"))]
    code, _, err = cli("new", str(game), "--ruleset", "aor", *players, "--moderator",
                       str(tmp_path / "max.pub"), "--seed", "lines")
    assert code == 0, err
    code, out, err = cli("options", str(game), "--for", "ann")
    assert code == 0, err
    lines = [line for line in out.splitlines() if line.startswith("return ")]
    assert len(lines) == 3
    code, hungarian, err = cli("report", str(game), "--for", "ann", "--lang", "hu")
    assert code == 0, err
    for line in lines:  # the line as it is, then what it does
        row = next(row for row in hungarian.splitlines() if row.startswith(line))
        assert "— visszaadod a pakliba: " in row and "a másik kettőt megtartod" in row, row
    code, english, _ = cli("report", str(game), "--for", "ann")
    assert all(line in english for line in lines) and "— " not in english
