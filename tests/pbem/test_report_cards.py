"""Issue 15, points 1-3: every card counted in a tableau is listed (crowned queens, vassal
empires, Old Maids), comets are marked in the market with what buying one does, and each card
reads like the card: its ops, one-shot and abilities in words, never catalog ids."""

from __future__ import annotations

import re

import pytest

from engine.core.table import Table
from engine.pax.model import tableau
from engine.pax.ruleset import PAX
from pbem.play.scenarios.pax import take_card
from pbem.views import report
from tests.pbem.test_report import build_model, midgame

IDS = re.compile(r"\b(PREN\d+|COMET\d|empire_square_\w+|vote_(east|west)|corsair_\w+|"
                 r"inquisitor_\w+|repress_\w+|suitors=|commerce_(east|west))\b")


def crowned_board() -> Table:
    """Fugger holds France as a King with its queen crowned, and Hungary as France's vassal
    (a vassal sits under its suzerain); Isabella stays an Old Maid."""
    table, _ = midgame()
    state = table.state
    fugger = state["order"][0]
    for empire in ("france", "hungary"):
        for bank in state["players"].values():
            for side in ("west", "east"):
                if f"empire_square_{empire}" in bank[side]:
                    bank[side].remove(f"empire_square_{empire}")
    state["empires"]["france"].update(ruler=fugger, side="king")
    state["players"][fugger]["west"].append("empire_square_france")
    take_card(state, "PREN045")
    state["empires"]["france"]["queen"] = "PREN045"
    state["empires"]["hungary"].update(ruler=fugger, suzerain="france", side="king",
                                       repressed=[])
    take_card(state, "COMET1")
    state["discard"].append(state["market"]["east"][3]["card"])
    state["discard"].sort()
    state["market"]["east"][3]["card"] = "COMET1"
    PAX.check_invariants(table)
    return table


def test_the_crowned_board_is_a_legal_position() -> None:
    table = crowned_board()
    fugger = table.state["order"][0]
    assert len(tableau(table, fugger)) == 4  # Peter's Pence, France, its queen, Hungary
    assert table.catalog.cards["PREN045"].kind == "queen"


@pytest.mark.parametrize("fmt", report.FORMATS)
@pytest.mark.parametrize("viewer", ["public", "acting"])
def test_every_card_counted_in_a_tableau_is_listed(fmt: str, viewer: str) -> None:
    table = crowned_board()
    fugger = table.state["order"][0]
    model = build_model("midgame", table, [], None if viewer == "public" else fugger)
    (me,) = [p for p in model["view"]["players"] if p["bank"] == fugger]
    listed = me["west"] + me["east"]
    assert len(listed) == me["tableau_size"] == len(tableau(table, fugger))
    text = report.render(model, fmt)
    queen = table.catalog.cards["PREN045"].name
    assert f"{queen} (queen of France" in text
    assert "(vassal of France" in text
    assert "Isabella of Castille (queen, unmarried" in text  # the Old Maid
    if fmt == "text":
        block = text.split("Fugger (Ada):", 1)[1].split("Prestige:", 1)[0]
        rows = re.findall(r"^    [WE]\d+ ", block, re.MULTILINE)
        assert len(rows) == me["tableau_size"]


@pytest.mark.parametrize("fmt", report.FORMATS)
def test_a_comet_in_the_market_says_what_buying_it_does(fmt: str) -> None:
    text = report.render(build_model("midgame", crowned_board(), [], None), fmt)
    name = crowned_board().catalog.cards["COMET1"].name
    assert re.search(re.escape(report.markdown_escape(name) if fmt == "markdown" else name)
                     + r" \(COMET", text)
    assert "buying it discards it (even with a full hand) and lets you activate an inactive " \
           "victory square" in text.replace("\n        ", " ")


@pytest.mark.parametrize("fmt", report.FORMATS)
def test_cards_read_like_cards_in_every_format(fmt: str) -> None:
    model = build_model("midgame", crowned_board(), [], None)
    text = report.render(model, fmt)
    flat = re.sub(r"\s+", " ", text)
    assert IDS.search(text) is None, IDS.search(text)
    # Peter's Pence: Tax and a catholic Inquisitor, an Apostasy one-shot.
    assert "Ops: Tax: tax a concession here" in flat
    assert "Inquisitor: move the catholic bishop" in flat
    assert "One-shot when played: Apostasy: whoever holds both reformist and catholic " \
           "prestige discards those cards" in flat
    # An ability in words (Höchstetter Bank in the West market).
    assert "Ability: You have no hand-size limit" in flat


def test_every_op_and_one_shot_in_the_data_has_words() -> None:
    from engine.pax.messages.cards import one_shot_words, op_words
    from pbem.rulesets import pax_catalog

    catalog = pax_catalog()
    names = {e: x.name for e, x in catalog.empires.items()}
    for row in catalog.ops.values():
        words = op_words(row)
        assert "{" not in words and "_" not in words, words
    for card in catalog.cards.values():
        words = one_shot_words(card.one_shot, names) or ""
        assert "{" not in words and "_" not in words, (card.id, words)
