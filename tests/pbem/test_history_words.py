"""Issue 15 point 4: a turn's summary tells the market's refills (the log has the draws as
data), and an answer that changed nothing visible yet (a battle's casualties, chosen one at a
time) is told as the lines chosen, never as "(nothing you can see)"."""

from __future__ import annotations

from pathlib import Path

from pbem.store import gamefile
from pbem.views.model import entry_texts

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "format1"

CASUALTY_BLOCK = """-----BEGIN PBEM ORDERS-----
game: g
player: coeur
seq: 7
state: 0123456789abcdef

kill catholic knight
-----BEGIN PBEM SIGNATURE-----
ed25519 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==
-----END PBEM ORDERS-----
"""


def test_a_refill_is_told_in_the_summary() -> None:
    gf = gamefile.load(FIXTURES / "pax-open.yaml")
    entry = next(e for e in gf.log if e["seq"] == 2)
    texts = entry_texts(entry, "pax")
    assert texts[:2] == ["Fugger sells Gold Coast Monopoly from their hand for 2 florins.",
                         "Fugger ends their turn."]
    assert texts[2] == "The west market refills: Peter's Pence is dealt into west 5."
    assert entry_texts(entry) == texts[:2], "without the ruleset, only the entry's own words"


def test_astrology_and_dealt_banks_are_told_only_when_public() -> None:
    entry = {"seq": 4, "kind": "orders", "events": [], "draws": [
        {"n": 1, "purpose": "astrology-east", "outcome": "PREN007"},
        {"n": 2, "purpose": "bank-seat-1", "outcome": "medici"},
        {"n": 3, "purpose": "refill-east-2", "outcome": "hidden"}]}
    assert entry_texts(entry, "pax") == [
        "Peter's Pence turns up as the next east card (astrology)."]
    assert entry_texts(entry, "aor") == [], "Age of Renaissance deals its draws into hands"


def test_a_casualty_choice_is_shown_as_what_it_was() -> None:
    entry = {"seq": 8, "kind": "orders", "player": "coeur", "events": [],
             "block": CASUALTY_BLOCK, "draws": []}
    assert entry_texts(entry, "pax") == ["Coeur chose 'kill catholic knight'."]


def test_apply_and_the_next_report_tell_the_refill(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pbem.cli import app
    from tests.pbem.test_mail_helpers import acting, block_for, first_move, make_game

    game = make_game(tmp_path)
    mover = acting(game)
    block = tmp_path / "block.txt"
    block.write_text(block_for(game, first_move(game)))
    result = CliRunner().invoke(app, ["apply", str(game), str(block)])
    assert result.exit_code == 0, result.stderr
    assert "market refills: " in result.stdout
    report = CliRunner().invoke(app, ["report", str(game), "--for", mover]).stdout
    assert "market refills: " in report
