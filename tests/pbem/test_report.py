"""Reports (issue 2): golden files for each format and viewer, plus secrecy and error checks.

Golden files live in tests/golden/ as `<scenario>.<viewer>.<format>` (viewer "public" for the
forum post) and are compared exactly. After a deliberate change to a template or to the
view, rewrite them and review the diff:

    PBEM_UPDATE_GOLDEN=1 python -m pytest tests/pbem/test_report.py

Scenarios:
- `setup`: a new 3-player game (seed b"golden"), Fugger to act; nothing has happened yet.
- `midgame`: the same seed with astrology, arranged by a script (see midgame()): cards in
  tableaux, an Old Maid, a Republic with repressed tokens, bishops, a pirate, market florins,
  an active victory square and three entries of history.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import jinja2
import pytest

from engine.core.adjudicate import options_now
from engine.core.agenda import next_pending, waiting_for
from engine.core.table import Table
from engine.pax.ruleset import PAX
from pbem.errors import UsageError
from pbem.play.scenarios.pax import take_card
from pbem.views import report
from tests.conftest import new_table

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
NAMES = ("Ada", "Bea", "Cy", "Dan")
STATES = {"setup": "9c1f2a7b3d4e5f60", "midgame": "0b5e7d21a4c3f698"}


def setup_game() -> tuple[Table, list[dict[str, Any]]]:
    return new_table(players=3, seed=b"golden"), []


def midgame() -> tuple[Table, list[dict[str, Any]]]:
    """A scripted position (not random play, so engine changes elsewhere leave it alone):
    tableaux with a bishop, an Old Maid, a Republic holding repressed tokens, a pirate, a
    throne bishop, market florins, an active victory square and a few turns of history."""
    table = new_table(players=3, seed=b"golden", astrology=True)
    state = table.state
    bank = state["order"]  # fugger, then the others in turn order
    for card_id, zone in (("PREN007", (bank[0], "west")), ("PREN044", (bank[0], "old_maids")),
                          ("PREN001", (bank[1], "hand")), ("PREN003", (bank[0], "hand")),
                          ("PREN004", (bank[2], "hand"))):
        take_card(table.state, card_id)
        state["players"][zone[0]][zone[1]].append(card_id)
    for side in ("east", "west"):
        row = state["market"][side]
        empty = [i for i, slot in enumerate(row) if slot["card"] is None]
        for index in empty:
            refill = state["box"].pop(0) if side == "west" else state["box"].pop()
            row[index]["card"] = refill
    state["market"]["west"][0]["florins"] = 4
    state["market"]["east"][2]["florins"] = 1
    state["bishops"]["PREN007"] = "catholic"
    state["bishops"]["empire_square_england"] = "reformist"
    state["empires"]["hungary"].update(ruler=bank[2], side="republic",
                                       repressed=["knight:catholic", "knight:reformist"])
    state["players"][bank[2]]["east"].append("empire_square_hungary")
    state["borders"]["border_mamluk_ottoman"] = {"pirate": "pirate:islamic"}
    state["victory"]["holy"] = "active"
    state["players"][bank[1]]["florins"] = 7
    state["turn"] = {"number": 4, "player": bank[0], "actions": 0, "used": [], "usury": []}
    history = [
        {"seq": 1, "player": bank[0], "events": [note(f"{bank[0].title()} plays Peter's Pence.")]},
        {"seq": 2, "player": bank[1], "events": [
            note(f"{bank[1].title()} buys a card."),
            note("A private note.", visible_to=[bank[1]])]},
        {"seq": 3, "player": bank[2], "events": [
            note(f"{bank[2].title()} convenes the west trade fair.")]},
    ]
    PAX.check_invariants(table)
    return table, history


SCENARIOS = {"setup": setup_game, "midgame": midgame}


def note(text: str, visible_to: list[str] | None = None) -> dict[str, Any]:
    """A history line as the report model holds it: words already rendered for the reader."""
    return {"text": text} if visible_to is None else {"text": text, "visible_to": visible_to}


def since_last_turn(history: list[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
    """The entries after the viewer's last one (the last 3 for the public), events redacted."""
    start = max((i + 1 for i, h in enumerate(history) if h["player"] == viewer), default=0)
    if viewer is None:
        start = max(0, len(history) - 3)
    entries = []
    for h in history[start:]:
        texts = [e["text"] for e in h["events"]
                 if e.get("visible_to") is None or viewer in e["visible_to"]]
        entries.append({"seq": h["seq"], "player": h["player"], "texts": texts})
    return entries


def build_model(name: str, table: Table, history: list[dict[str, Any]],
                viewer: str | None) -> dict[str, Any]:
    """The model the service hands to render(); the menu only for the player who must act."""
    node = next_pending(table.agenda)
    decision = PAX.actions[node["action"]].decision if node else ""
    waiting = waiting_for(table.agenda)
    seq = len(history)
    menu = None
    if viewer is not None and viewer in waiting:
        skeleton = (
            f"-----BEGIN PBEM ORDERS-----\ngame: lisbon-2027\nplayer: {viewer}\nseq: {seq}\n"
            f"state: {STATES[name]}\n\n"
            "# your orders here, one per line; then: pbem sign ORDERS --key KEY --game GAME.yaml\n"
            "-----END PBEM ORDERS-----\n"
        )
        menu = {"player": viewer, "decision": decision,
                "lines": [c.line for c in options_now(PAX, table)], "skeleton": skeleton}
    seats = table.state["seats"]
    return {
        "header": {"game": "lisbon-2027", "ruleset": "pax", "templates": "pax", "seq": seq,
                   "state": STATES[name],
                   "options": dict(table.state["options"]),
                   "players": [{"id": bank, "name": NAMES[i]} for i, bank in enumerate(seats)]},
        "viewer": viewer,
        "view": PAX.view_for(table, viewer),
        "history": since_last_turn(history, viewer),
        "waiting_for": waiting,
        "decision": decision,
        "menu": menu,
    }


def scenario_model(name: str, viewer: str | None = "acting") -> dict[str, Any]:
    table, history = SCENARIOS[name]()
    if viewer == "acting":
        viewer = waiting_for(table.agenda)[0]
    return build_model(name, table, history, viewer)


def check_golden(path: Path, text: str) -> None:
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"no golden file {path.name}; run with PBEM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{path.name} differs from the report"


@pytest.mark.parametrize("fmt", report.FORMATS)
@pytest.mark.parametrize("who", ["acting", "public"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_golden_reports(name: str, who: str, fmt: str) -> None:
    model = scenario_model(name, None if who == "public" else "acting")
    label = model["viewer"] or "public"
    text = report.render(model, fmt)
    check_golden(GOLDEN / f"{name}.{label}.{fmt}", text)
    assert report.render(model, fmt) == text, "rendering is deterministic"


@pytest.mark.parametrize("fmt", report.FORMATS)
def test_no_report_shows_another_players_hand(fmt: str) -> None:
    table, history = midgame()
    banks = list(table.state["seats"])
    hands = {bank: [c["name"] for p in PAX.view_for(table, bank)["players"]
                    if p["bank"] == bank for c in p["hand"]] for bank in banks}
    assert all(hands.values()), "every bank holds a card in this scenario"
    for viewer in [*banks, None]:
        model = build_model("midgame", table, history, viewer)
        model["history"] = []  # buys are public in history; this test is about the view
        text = report.render(model, fmt)
        for bank, names in hands.items():
            for name in names:
                if bank == viewer:
                    assert name in text, f"{viewer} sees their own {name}"
                else:
                    assert name not in text, f"{viewer}'s report shows {bank}'s {name}"


@pytest.mark.parametrize("fmt", report.FORMATS)
def test_public_report_has_no_hand_and_no_menu(fmt: str) -> None:
    public = report.render(scenario_model("midgame", None), fmt)
    acting = report.render(scenario_model("midgame"), fmt)
    hand_line = re.compile(r"^\W*(Your hand|Hand)\W*:", re.MULTILINE)
    assert "Public report" in public
    assert hand_line.search(public) is None
    assert hand_line.search(acting) is not None
    assert "BEGIN PBEM ORDERS" not in public and "BEGIN PBEM ORDERS" in acting


def test_open_hands_show_every_hand_in_the_public_report() -> None:
    table, history = midgame()
    table.state["options"]["open_hands"] = True
    text = report.render(build_model("midgame", table, history, None), "text")
    for bank in table.state["seats"]:
        for card_id in table.state["players"][bank]["hand"]:
            name = table.catalog.cards[card_id].name
            assert name in text
    assert text.count("\n  Hand:") == 3 and "Your hand" not in text


@pytest.mark.parametrize("fmt", report.FORMATS)
def test_every_legal_line_is_shown_whole(fmt: str) -> None:
    model = scenario_model("setup")
    lines = model["menu"]["lines"]
    assert len(lines) > 5
    text = report.render(model, fmt)
    orders = text.split("-----BEGIN PBEM ORDERS-----")[0]
    shown = [cell.strip() for row in orders.splitlines()
             for cell in re.split(r"\s{3,}", row.strip())]
    for line in lines:
        assert line in shown, f"{line!r} is not shown whole"
    assert model["menu"]["skeleton"].rstrip("\n") in text


def test_text_report_lines_fit_an_email() -> None:
    for name in SCENARIOS:
        for viewer in ("acting", None):
            text = report.render(scenario_model(name, viewer), "text")
            assert max(len(line) for line in text.splitlines()) <= 90
            assert text.endswith("\n") and not text.endswith("\n\n")


def test_missing_model_key_is_an_error_not_a_blank() -> None:
    model = scenario_model("setup")
    del model["menu"]
    with pytest.raises(jinja2.UndefinedError, match="menu"):
        report.render(model, "text")
    model = scenario_model("setup")
    del model["view"]["routes"]
    with pytest.raises(jinja2.UndefinedError, match="routes"):
        report.render(model, "markdown")


def test_unknown_format_is_a_usage_error_listing_the_formats() -> None:
    with pytest.raises(UsageError) as caught:
        report.render(scenario_model("setup"), "html")
    assert str(caught.value) == "unknown report format 'html'; formats: text, markdown, bbcode"
    assert caught.value.exit_code == 2
    model = scenario_model("setup")
    model["header"]["templates"] = "../pax"
    with pytest.raises(UsageError, match="no report templates for ruleset"):
        report.render(model, "text")


def test_a_new_template_is_a_new_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pax").mkdir()
    (tmp_path / "pax" / "report.text.j2").write_text("text {{ header.seq }}\n")
    (tmp_path / "pax" / "report.bbcode.j2").write_text("[b]seq {{ header.seq }}[/b]\n")
    monkeypatch.setattr(report, "templates_dir", lambda: tmp_path)
    report.formats.cache_clear()
    report._environment.cache_clear()
    try:
        assert report.formats("pax") == ("text", "bbcode")
        assert report.render(scenario_model("setup"), "bbcode") == "[b]seq 0[/b]\n"
    finally:
        monkeypatch.undo()
        report.formats.cache_clear()
        report._environment.cache_clear()
    assert report.formats("pax") == ("text", "markdown", "bbcode")


def finished(winners: list[str]) -> dict[str, Any]:
    model = scenario_model("setup", None)
    model["view"].update(over=True, winners=winners, result={
        "kind": "patron", "detail": "with 3 Patron prestige and 7 florins"})
    model.update(waiting_for=[], decision="", menu=None)
    return model


def test_finished_game_announces_the_winner() -> None:
    text = report.render(finished(["medici"]), "text")
    expected = ("Game over: Medici (Cy) wins the patron victory, "
                "with 3 Patron prestige and 7 florins.")
    assert expected in text
    assert "Waiting for" not in text and "Turn 1:" not in text
    assert f"**{expected}**" in report.render(finished(["medici"]), "markdown")
    shared = report.render(finished(["fugger", "medici"]), "text")
    assert "Game over: Fugger (Ada) and Medici (Cy) share the patron victory" in shared


def test_columns_keep_lines_whole_and_within_width() -> None:
    lines = [f"buy west {n}" for n in range(1, 6)] + ['sell "Jacques Cœur"']
    rows = report.columns(lines, width=40, indent=2)
    assert all(len(row) <= 40 for row in rows)
    cells = [cell for row in rows for cell in row.strip().split("   ") if cell]
    assert [c.strip() for c in cells] == lines
    assert report.group_by_verb(["buy a", "sell b", "buy c", "end"]) == [
        ["buy a", "buy c"], ["sell b"], ["end"]]
    assert report.markdown_escape("a|b_c*d") == "a\\|b\\_c\\*d"


def test_text_report_shows_the_board() -> None:
    text = report.render(scenario_model("midgame", None), "text")
    for expected in [
        "Hungary (east): Polish-Lithuanian Sejm (republic), in Medici's tableau; medieval",
        "Papal States (west): Pope Julius II (king), on its throne; catholic theocracy",
        "Throne bishop: none. Repressed: catholic knight, reformist knight.",
        "Throne bishop: reformist bishop.",
        "Toledo (capital): catholic knight; levy catholic knight",
        "Spice Islands: busted emporium",
        "england-portugal (sea): Marchionni concession",
        "mamluk-ottoman (sea): islamic pirate",
        "W1 Peter's Pence (the West; prestige: catholic) [catholic bishop]",
        "    Isabella of Castille (prestige: catholic)",
        "west 0     -        4  [trade fair card]",
        "east 2     2        1  Barbarossa Brothers (Papal States)",
        "West: deck 18 cards; next card (astrology): Mons Meg (England)",
        "East fair: from Tana through Byzantium, Hungary, Ottoman, Mamluk",
        "holy: active   imperial: inactive",
        "Marchionni   Bea                  7     1        0            1",
    ]:
        assert expected in text


def test_history_entries_without_visible_events_or_player() -> None:
    model = scenario_model("setup", "marchionni")
    model["history"] = [{"seq": 3, "player": None, "texts": []}]
    text = report.render(model, "text")
    assert "SINCE YOUR LAST TURN\n====================\nseq 3:\n  (nothing you can see)\n" in text
    assert "- seq 3:\n  - (nothing you can see)\n" in report.render(model, "markdown")
