"""Standing answers (R61, aor-pbem 4.4): Renaissance declined for a turn or the game, Cathedral
used in advance; they answer later decisions through the legal options and stay out of the
public projection."""

from __future__ import annotations

from engine.aor.actions.flow import proceed, reset_flow
from engine.aor.projection import public_state
from engine.aor.ruleset import AOR
from engine.core.adjudicate import options_now, run_automatic
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.table import Table
from tests.aor.agenda_helpers import play, through_setup
from tests.aor.helpers import own


def phase_start(t: Table, phase: str) -> list[str]:
    """Start a phase and answer what answers itself, as after any block; the event ids."""
    reset_flow(t, phase)
    t.agenda.clear()
    chance = SeededChance(b"x", "g", 0)
    proceed(t, chance)
    return [e["msg"] for e in run_automatic(AOR, t, chance)]


def renaissance_owner() -> Table:
    t = through_setup(3)
    own(t.state, "ada", "written_record", "printed_word", "master_art", "renaissance")
    return t


def test_no_stands_for_this_turn_only() -> None:
    t = renaissance_owner()
    phase_start(t, "buy_cards")
    assert waiting_for(t.agenda) == ["ada"] and t.agenda[0]["action"] == "renaissance"
    t = play(t, "ada", "standing renaissance no")
    assert t.state["players"]["ada"]["standing"] == {"renaissance": t.state["turn"]}
    told = phase_start(t, "acquisition")  # answered by itself: nobody is asked about Renaissance
    assert "aor.standing.no_swap" in told
    assert all(node["action"] != "renaissance" for node in t.agenda)
    t.state["turn"] += 1
    phase_start(t, "buy_cards")
    assert t.agenda[0]["action"] == "renaissance"


def test_never_stands_until_cleared_and_is_not_public() -> None:
    t = renaissance_owner()
    phase_start(t, "buy_cards")
    t = play(t, "ada", "standing renaissance never")
    assert "standing" not in public_state(t.state)["players"]["ada"]
    t.state["turn"] += 5
    phase_start(t, "acquisition")
    assert all(node["action"] != "renaissance" for node in t.agenda)
    del t.state["players"]["ada"]["standing"]  # as `standing renaissance ask` does
    phase_start(t, "acquisition")
    assert t.agenda[0]["action"] == "renaissance"
    assert "standing renaissance ask" not in [c.line for c in options_now(AOR, t, "ada")]
