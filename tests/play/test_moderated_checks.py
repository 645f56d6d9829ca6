"""The moderated self-play's secrecy check reads the public file's log once per entry and still
sees every string in it (pbem.play.selfplay_moderated.PublicText)."""

from __future__ import annotations

from pathlib import Path

from pbem.play.selfplay_moderated import PublicText, secrecy_problems
from pbem.store.gamefile import GameFile

HEAD = "format: 2\nstate:\n  market: [silk]\n"


def test_appended_entries_are_read_and_a_rewritten_log_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    public = PublicText()
    path.write_text(HEAD + "log:\n- seq: 0\n  note: wine\n")
    assert public.strings(path) == {"silk", "wine"}
    path.write_text(HEAD + "log:\n- seq: 0\n  note: wine\n- seq: 1\n  note: salt\n")
    assert public.strings(path) == {"silk", "wine", "salt"}
    path.write_text(HEAD + "log:\n- seq: 0\n  note: furs\n")  # not an append: read anew
    assert public.strings(path) == {"silk", "furs"}


def test_a_hand_card_in_the_log_and_an_early_sealed_answer_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(HEAD + "log:\n- seq: 0\n  event: {card: war_card}\n")
    gf = GameFile({}, {}, {}, 1, {}, [], [])
    node = {"id": "bid1", "sealed": True, "answers": {"ada": "bid 7"}}
    gf.full = ({"players": {"ada": {"hand": {"1": "war_card"}}}}, [node])
    entries = [{"player": "ada", "node": "bid1", "block": "... bid 7 ..."}]
    problems = secrecy_problems(PublicText().strings(path), gf, entries)
    assert problems == ["war_card is in a hand and in the public file",
                        "ada's sealed answer is readable before unsealing"]
    assert secrecy_problems({"silk"}, gf, []) == []


def test_a_card_public_before_it_was_drawn_again_is_not_a_leak() -> None:
    """Age of Renaissance reshuffles the reusable cards into a new deck when the deck runs out
    (rulebook, card deck), so a card played earlier this turn, still named in the public file,
    can be drawn again: that name is history, not the hand."""
    gf = GameFile({}, {}, {}, 1, {}, [], [])
    gf.full = ({"players": {"ada": {"hand": {"1": "fur_e1"}}}}, [])
    assert secrecy_problems({"fur_e1"}, gf, []) == ["fur_e1 is in a hand and in the public file"]
    assert secrecy_problems({"fur_e1"}, gf, [], frozenset({"fur_e1"})) == []
