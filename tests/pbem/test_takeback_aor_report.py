"""Issue 24 §4 in Age of Renaissance: before a player sends a line that draws a card or rolls
dice, the report says it can never be taken back (in each format and in Hungarian), and a
takeback past such a draw is refused from the log whatever the report said."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pbem.test_aor_bad_input import lines_for, ok, owed, through_setup
from tests.pbem.test_aor_cli import new_game, run

PASSING = ("pass", "done", "stabilize pay", "no swap", "no mill", "no cathedral", "no trade")
BUY_CARD = {
    ("text", "en"): "! 'buy card' draws from the deck: after it this turn cannot be taken back.",
    ("markdown", "en"): "**'buy card' draws from the deck: after it this turn cannot be taken "
                        "back.**",
    ("bbcode", "en"): "[b]'buy card' draws from the deck: after it this turn cannot be taken "
                      "back.[/b]",
    ("text", "hu"): "! A 'buy card' lapot húz a pakliból: utána ez a kör már nem vehető vissza.",
}


@pytest.fixture(scope="module")
def at_buy_card(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A moderated game at the first decision that offers `buy card` (rule 9.4), and its
    player: the same route as test_aor_bad_input's turn-one test."""
    game = new_game(tmp_path_factory.mktemp("aor"))
    through_setup(game, {"ada": 10, "ben": 10})
    ok(game, "cy", "tokens 2")
    for _ in range(60):
        player = owed(game)[0]
        legal = lines_for(game, player)
        if "buy card" in legal:
            return game, player
        ok(game, player, next((x for x in PASSING if x in legal), legal[0]))
    raise AssertionError("no decision offered 'buy card' in 60 answers")


@pytest.mark.parametrize(("fmt", "lang"), sorted(BUY_CARD))
def test_the_report_marks_buy_card_as_final(at_buy_card: tuple[Path, str], fmt: str,
                                            lang: str) -> None:
    game, player = at_buy_card
    code, out, err = run("report", str(game), "--for", player, "--format", fmt, "--lang", lang)
    assert code == 0, err
    assert BUY_CARD[fmt, lang] in out
    assert "'attack' rolls" not in out  # no attack is legal here: no mark for it


def test_the_html_page_marks_it_too(at_buy_card: tuple[Path, str]) -> None:
    game, player = at_buy_card
    code, out, err = run("report", str(game), "--for", player, "--format", "html")
    assert code == 0, err
    assert "'buy card' draws from the deck: after it this turn cannot be taken back." in \
        out.replace("&#39;", "'")


def test_an_attack_is_marked_and_a_placement_or_a_cathedral_attack_is_not() -> None:
    """An attack rolls the battle's dice (9.5.2) unless a Cathedral settles it; the attacker's
    own `attack X cathedral` rolls none; a placement draws nothing."""
    from engine.aor.ruleset import AOR

    assert AOR.line_final({}, "attack Venice") == {"msg": "aor.final.attack", "args": {}}
    assert AOR.line_final({}, "attack Venice cathedral") is None
    assert AOR.line_final({}, "buy card") == {"msg": "aor.final.buy_card", "args": {}}
    assert AOR.line_final({}, "place 1 Milan") is None
    assert AOR.line_final({}, "buy Caravan") is None  # an Advance, not a card from the deck
