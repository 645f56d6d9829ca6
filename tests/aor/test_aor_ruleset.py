"""Age of Renaissance through the core (issue 8): seeded random play-outs with every answer taken
from the option lists and sent as a block through `adjudicate`, checking the invariants after
every decision and a JSON round trip; then the parallel and sealed setup decisions (8.1-8.5)
and the rule that a draw ends the block (aor-pbem 4.2)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.aor.draws import UnknownPurpose, audience
from engine.aor.ruleset import AOR
from engine.aor.setup import SetupError
from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from engine.core.choice import Choice, match_line
from engine.core.errors import IllegalOrder
from engine.core.table import Table
from pbem.words import say
from tests.aor.agenda_helpers import NAMES, at_phase, give, new_table, play, send, through_setup
from tests.aor.helpers import aor, tokens

SECRET_VERBS = ("return", "trade")


def pick(rng: random.Random, node: dict[str, Any], options: list[Choice]) -> Choice:
    """A random legal answer; bids stay small so that games go somewhere (still only lines
    from the option list)."""
    if node["action"] in ("tokens", "capital_bid"):
        modest = [c for c in options if 0 <= int(c.args[0]) <= 15]
        return rng.choice(modest or options)
    if node["action"] == "stabilize" and rng.random() < 0.8:
        return options[0]
    return rng.choice(options)


def check_views(t: Table) -> None:
    for viewer in [None, *t.state["players"]]:
        view = AOR.view_for(t, viewer)
        json.dumps(view)
        assert "deck" not in view
        for pid, data in view["players"].items():
            assert ("hand" in data) == (pid == viewer)
            assert data["hand_size"] == len(t.state["players"][pid]["hand"])
        pending = view["pending"]
        if pending and pending.get("sealed"):
            assert "answers" not in pending
            assert ("your_answer" in pending) == (viewer in t.agenda[0]["answers"])


def play_out(n: int, seed: int, end: str = "epoch1") -> tuple[Table, int, list[str]]:
    rng = random.Random(seed)
    game_seed = f"playout-{seed}".encode()
    t = new_table(n, game_seed, end=end)
    decisions, kinds = 0, set()
    while not AOR.is_over(t):
        who = rng.choice(waiting_for(t.agenda))
        node = t.agenda[0]
        options = options_now(AOR, t, who)
        assert options, f"no option for {who} at {node}"
        chosen = pick(rng, node, options)
        assert match_line(chosen.line, options, AOR.namer(t), AOR.verbs) == chosen
        here = {**node, "player": who} if "players" in node else node
        assert AOR.actions[node["action"]].default(t, here, options) in options
        out, chance = send(t, who, chosen.line, seed=game_seed)
        for draw in chance.draws:  # dice are public, cards private to their drawer(s)
            seen = audience(draw.purpose)
            assert (seen is None) == (draw.outcome in {"1", "2", "3", "4", "5", "6"}), draw
            assert seen is None or seen[0] in t.state["players"]
        t = out.table
        kinds |= {e["kind"] for e in out.events}
        AOR.check_invariants(t)
        data = {"state": t.state, "agenda": t.agenda}
        assert json.loads(json.dumps(data)) == data
        if decisions % 7 == 0:
            check_views(t)
        decisions += 1
        assert decisions < 3000, "a game must end"
    return t, decisions, sorted(kinds)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_through_the_core_reach_an_end(n: int) -> None:
    for seed in range(3):
        t, decisions, kinds = play_out(n, seed + 10 * n)
        assert t.state["over"] and t.state["phase"] == "over" and not t.agenda
        assert t.state["winners"] and set(t.state["result"]["scores"]) >= set(t.state["winners"])
        assert decisions > 30 and t.state["turn"] >= 2
        assert {"battle", "advance", "payout", "unseal", "draw"} <= set(kinds)


def test_a_longer_game_to_the_end_of_epoch_2() -> None:
    t, _, kinds = play_out(4, 3, end="epoch2")
    assert t.state["over"] and t.state["epoch"] >= 2
    assert {"war", "event", "fleet", "stabilize", "market", "income"} <= set(kinds)


def test_the_same_seed_plays_the_same_game() -> None:
    first, second = play_out(3, 5), play_out(3, 5)
    assert first[0].state == second[0].state and first[1] == second[1]


def test_every_draw_has_an_audience_for_private_logging() -> None:
    chance = SeededChance(b"x", "g", 0)
    AOR.setup(aor(), "g", list(NAMES[:4]), {}, chance)
    assert [audience(d.purpose) for d in chance.draws] == [[p] for p in NAMES[:4] for _ in range(3)]
    assert audience("written record turn 3 ada from ben") == ["ada", "ben"]
    assert audience("battle turn 2 ada tunis green") is None
    with pytest.raises(UnknownPurpose):
        audience("shuffle")


def test_setup_options_are_checked() -> None:
    with pytest.raises(SetupError, match="end must be one of"):
        new_table(3, end="never")
    with pytest.raises(SetupError, match="unknown option"):
        new_table(3, colour="red")
    assert NAMES[0] in new_table(3).state["players"]


# --- 8.1-8.5: parallel and sealed setup decisions ---------------------------------------------------


def test_8_1_the_return_is_parallel_and_takes_labels_only() -> None:
    t = new_table(3)
    node = t.agenda[0]
    assert node["action"] == "return" and not node["sealed"] and waiting_for(t.agenda) == ["ada", "ben", "cy"]
    hand = t.state["players"]["cy"]["hand"]
    assert [c.line for c in options_now(AOR, t, "cy")] == [f"return {x}" for x in sorted(hand)]
    name = AOR.namer(t).catalog.cards[hand[sorted(hand)[0]]].name
    with pytest.raises(IllegalOrder) as error:  # a card name where a label is needed
        send(t, "cy", f"return {name}")
    assert error.value.options == [f"return {x}" for x in sorted(hand)]
    t = play(t, "cy", f"return {sorted(hand)[0]}")  # any order
    assert waiting_for(t.agenda) == ["ada", "ben"]
    assert AOR.view_for(t, "ben")["pending"]["answered"] == ["cy"]
    assert "your_answer" not in AOR.view_for(t, "ben")["pending"]
    with pytest.raises(IllegalOrder, match="waiting for ada, ben"):
        send(t, "cy", f"return {sorted(hand)[1]}")
    for pid in ("ben", "ada"):
        t = play(t, pid, f"return {sorted(t.state['players'][pid]['hand'])[-1]}")
    assert all(len(d["hand"]) == 2 for d in t.state["players"].values())
    assert t.agenda[0]["action"] == "capital_bid" and t.agenda[0]["sealed"]
    assert t.state["phase"] == "capital_bid" and not t.state["set_aside"]  # 3 players: joined


def returned(n: int = 3) -> Table:
    t = new_table(n)
    for pid in NAMES[:n]:
        t = play(t, pid, f"return {sorted(t.state['players'][pid]['hand'])[0]}")
    return t


def test_8_3_capital_bids_are_sealed_until_all_are_in_and_ties_roll() -> None:
    t = returned()
    with pytest.raises(IllegalOrder):
        send(t, "ada", "bid 41")  # beyond cash
    t = play(t, "ada", "bid 5")
    pending = AOR.view_for(t, "ben")["pending"]
    assert pending["sealed"] and pending["answered"] == ["ada"] and "your_answer" not in pending
    assert AOR.view_for(t, "ada")["pending"]["your_answer"] == "bid 5"
    assert "5" not in json.dumps(AOR.view_for(t, None)["pending"])
    t = play(t, "cy", "bid 2")
    with pytest.raises(IllegalOrder) as error:  # the last bid resolves, and ties roll dice
        send(t, "ben", "bid 5", "capital venice")
    assert (error.value.number, error.value.line) == (1, "bid 5")
    out, chance = send(t, "ben", "bid 5")
    assert {d.purpose.rsplit(" ", 1)[0] for d in chance.draws} == {"capital tie 5"}
    state = out.table.state
    assert [state["players"][p]["cash"] for p in NAMES[:3]] == [35, 35, 38]
    assert sorted(state["capital_queue"][:2]) == ["ada", "ben"] and state["capital_queue"][2] == "cy"
    assert out.table.agenda[0] == {**out.table.agenda[0], "action": "capital",
                                   "player": state["capital_queue"][0]}


def test_8_3_capitals_by_bid_the_last_is_forced_then_8_5_sealed_tokens() -> None:
    t = returned()
    for pid, bid in (("ada", 9), ("ben", 3), ("cy", 0)):
        t = play(t, pid, f"bid {bid}")
    assert [c.line for c in options_now(AOR, t)] == ["capital Venice", "capital Genoa", "capital Barcelona"]
    t = play(t, "ada", "capital genoa")
    out, _ = send(t, "ben", "capital Barcelona")
    t = out.table
    assert [t.state["players"][p]["capital"] for p in NAMES[:3]] == ["genoa", "barcelona", "venice"]
    assert any("cy takes Venice" in say(e) for e in out.events)  # forced: no decision
    assert t.state["capital_choosers"] == ["ada", "ben", "cy"]
    assert t.agenda[0]["action"] == "tokens" and t.agenda[0]["sealed"]


def test_8_5_token_purchase_sets_the_order_and_turn_1_draws_a_card_each() -> None:
    t = returned()
    for pid, bid in (("ada", 9), ("ben", 3), ("cy", 0)):
        t = play(t, pid, f"bid {bid}")
    t = play(t, "ada", "capital genoa")
    t = play(t, "ben", "capital barcelona")
    t = play(t, "ben", "tokens -3")  # a negative bid: pay 3, no tokens, go early
    assert t.agenda[0]["answers"] == {"ben": "tokens -3"}
    t = play(t, "cy", "tokens 10")
    with pytest.raises(IllegalOrder, match="last line"):
        send(t, "ada", "tokens 10", "pass")
    out, chance = send(t, "ada", "tokens 10")
    state = out.table.state
    assert state["order"] == ["ben", "cy", "ada"]  # ties go to the later capital chooser
    assert (state["players"]["ben"]["cash"], state["players"]["ben"]["purchased"]) == (34, 0)
    assert (state["players"]["ada"]["cash"], state["players"]["ada"]["purchased"]) == (21, 10)
    assert [d.purpose for d in chance.draws] == [f"draw {p} turn 1" for p in ("ben", "cy", "ada")]
    assert state["turn"] == 1 and all(len(d["hand"]) == 3 for d in state["players"].values())
    assert waiting_for(out.table.agenda) == ["ben"] and out.table.agenda[0]["action"] == "play"


# --- a draw ends the block (aor-pbem 4.2) --------------------------------------------------------------


def attack_ready() -> tuple[Table, str, str]:
    """Turn 1, expansion: the first player may attack a neighbour holding an opponent's token."""
    t = through_setup(3)
    pid, other = t.state["order"][0], t.state["order"][1]
    capital = t.state["players"][pid]["capital"]
    where = next(w for w in aor().provinces[capital].land
                 if not aor().provinces[w].satellite and w not in t.state["provinces"])
    tokens(t.state, other, where, 1)
    return at_phase(t, "expansion", pid, t.state["order"][1:]), pid, where


def test_an_attack_must_be_the_last_line_and_nothing_is_drawn_before_the_rejection() -> None:
    t, pid, where = attack_ready()
    name = aor().provinces[where].name
    assert f"attack {name}" in [c.line for c in options_now(AOR, t)]
    before = json.dumps([t.state, t.agenda])
    placing = next(c.line for c in options_now(AOR, t) if c.verb == "place" and c.args[1] != where)
    with pytest.raises(IllegalOrder) as error:
        send(t, pid, placing, f"attack {name}", "done")
    assert (error.value.number, error.value.line) == (2, f"attack {name}")
    assert "must be the last line" in error.value.reason
    assert json.dumps([t.state, t.agenda]) == before
    out, chance = send(t, pid, f"attack {name}")
    assert [d.purpose for d in chance.draws] == [f"battle turn 1 {pid} {where} {c}"
                                                 for c in ("green", "black", "white")]
    assert any(e["kind"] == "battle" for e in out.events) and waiting_for(out.table.agenda) == [pid]


def test_a_line_that_ends_the_turn_into_draws_must_be_the_last_line() -> None:
    t = through_setup(3)
    last = t.state["order"][-1]
    t = at_phase(t, "expansion", last)
    with pytest.raises(IllegalOrder) as error:  # the bonus card, income and market dice follow
        send(t, last, "done", "tokens 0")
    assert (error.value.number, error.value.line) == (1, "done")
    out, chance = send(t, last, "done")
    assert any(d.purpose.startswith("market turn 1") for d in chance.draws)
    assert out.table.agenda[0]["action"] == "tokens" and len(waiting_for(out.table.agenda)) == 3


def test_play_is_never_answered_for_a_player_holding_cards() -> None:
    t = through_setup(3)
    pid = t.state["order"][0]
    t = at_phase(t, "play_cards", pid, t.state["order"][1:])
    for label in list(t.state["players"][pid]["hand"]):
        del t.state["players"][pid]["hand"][label]
    give(t, pid, "stirrups")
    t.state["obsolete"] = ["stirrups"]  # 7.2: unplayable, but that is the player's secret
    assert [c.line for c in options_now(AOR, t)] == ["pass"]
    assert run_automatic(AOR, t, SeededChance(b"x", "g", 0)) == [] and waiting_for(t.agenda) == [pid]
    t.state["players"][pid]["hand"] = {}
    t.state["removed"].append("stirrups")
    t.state["obsolete"] = []
    run_automatic(AOR, t, SeededChance(b"x", "g", 0))  # an empty hand is public: pass
    assert waiting_for(t.agenda) == [t.state["order"][1]]


def test_blocks_are_rejected_exactly_when_a_draw_comes_before_their_last_line() -> None:
    """Random blocks of up to four lines: a block whose lines draw only at the end applies; the
    same block with one more line after a drawing line is rejected naming that line."""
    rng, seed = random.Random(4), b"blocks"
    t = new_table(4, seed, end="epoch1")
    rejected = accepted = 0
    while not AOR.is_over(t):
        who = rng.choice(waiting_for(t.agenda))
        scratch, block, drew_at = t.copy(), [], None
        dice = SeededChance(seed, "g", int(t.state["draws"]))
        while len(block) < 4 and who in waiting_for(scratch.agenda) and drew_at is None:
            chosen = pick(rng, scratch.agenda[0], options_now(AOR, scratch, who))
            block.append(chosen.line)
            before = len(dice.draws)
            answer(AOR, scratch, chosen, dice, who)
            run_automatic(AOR, scratch, dice)
            if len(dice.draws) > before:
                drew_at = len(block)
        if drew_at is not None and who in waiting_for(scratch.agenda):
            extra = options_now(AOR, scratch, who)[-1].line
            with pytest.raises(IllegalOrder) as error:
                send(t, who, *block, extra, seed=seed)
            assert error.value.number == drew_at and "last line" in error.value.reason
            rejected += 1
        t = send(t, who, *block, seed=seed)[0].table
        assert t.state == scratch.state | {"draws": t.state["draws"]} and t.agenda == scratch.agenda
        accepted += 1
    assert rejected > 5 and accepted > 20, (rejected, accepted)
