"""The turn as a sequence of steps (2, 9.1-9.7, 11): automatic steps run at once, and each
decision step queues one node and waits for it.

`state["flow"]` is the cursor: the phase's step `index`, the `queue` of players still to be
asked in a per-player step (None until the step starts), `asked` (Renaissance owners asked
in this phase), and for the final card play `played` (who has had their turn) and `rolled`
(whether tied Wars have rolled since). Every handler that ends a player's part calls `settle`,
which prunes nodes of eliminated players, ends the game when one player is left, and runs
`proceed` when the agenda is empty: the next steps run until a decision is queued or the game
ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.aor.actions.wars import run_war
from engine.aor.advances import leaders_leave
from engine.aor.catalog import Catalog
from engine.aor.deck import draw_to_hand, join_set_aside
from engine.aor.economy import income_phase
from engine.aor.expansion import bonus_card_winner, end_expansion, holy_indulgence
from engine.aor.market import mill_options, miller, removal_options, roll_markets
from engine.aor.messages import counted, rows
from engine.aor.model import active_players, owns, player, settle_advances
from engine.aor.names import card_name
from engine.aor.order import civil_war_to_last, renaissance_owners_in_order
from engine.aor.victory import all_advances_owned, standings, winners
from engine.core.agenda import new_node, new_parallel
from engine.core.chance import Chance
from engine.core.table import Event, Table, event

PHASES: dict[str, tuple[str, ...]] = {
    "draw": ("set_aside", "renaissance", "removal", "mill", "draws"),
    "buy_cards": ("renaissance", "buyers"),
    "play_cards": ("renaissance", "players"),
    "acquisition": ("renaissance", "players", "leaders_leave"),
    "expansion": ("civil_war", "renaissance", "indulgence", "players", "bonus", "consolidate"),
    "income": ("income", "end_check"),
    "order": ("bids",),
    "final_play": ("players", "score"),
}
NEXT_PHASE = {"draw": "buy_cards", "buy_cards": "play_cards", "play_cards": "acquisition",
              "acquisition": "expansion", "expansion": "income", "income": "order"}
TURN_ACTION = {"play_cards": "play", "acquisition": "acquire", "expansion": "expand",
               "final_play": "play"}
URBAN_ASCENDANCY, MASTER_ART = "urban_ascendancy", "master_art"
StepResult = tuple[list[Event], bool]  # events, and whether the step is finished


def reset_flow(t: Table, phase: str) -> None:
    t.state["phase"] = phase
    t.state["flow"] = {"index": 0, "queue": None, "asked": []}


# Why a card is drawn -> the messages for no card left, the public draw and the drawer's card.
DRAWS = {
    "turn": ("aor.draw.turn.none", "aor.draw.turn.public", "aor.draw.turn.private"),
    "bonus": ("aor.draw.bonus.none", "aor.draw.bonus.public", "aor.draw.bonus.private"),
    "tokens": ("aor.draw.tokens.none", "aor.draw.tokens.public", "aor.draw.tokens.private"),
    "urban": ("aor.draw.urban.none", "aor.draw.urban.public", "aor.draw.urban.private"),
    "shortage": ("aor.draw.shortage.none", "aor.draw.shortage.public", "aor.draw.shortage.private"),
}

# How a game ended, as the state records it (result kind, end_reason): players' files hold it.
LAST_STANDING, ALL_ADVANCES = "last player standing", "all Advances"
EPOCHS = (1, 2, 3)
GAME_OVER = {"last_standing": "aor.end.game_over.last_standing", "advances": "aor.end.game_over.advances",
             "epoch": "aor.end.game_over.epoch", "other": "aor.end.game_over.other"}
FINAL_PLAY = {"advances": "aor.end.final_play.advances", "epoch": "aor.end.final_play.epoch"}


def epoch_spent(epoch: int) -> str:
    return f"Epoch {epoch} cards used up"


def ending(kind: str) -> tuple[str, dict[str, Any]]:
    """The messages' key for a result kind, and their arguments."""
    if kind == LAST_STANDING:
        return "last_standing", {}
    if kind == ALL_ADVANCES:
        return "advances", {}
    for epoch in EPOCHS:
        if kind == epoch_spent(epoch):
            return "epoch", {"epoch": epoch}
    return "other", {"reason": kind}  # a kind set by hand (tests): shown as it is


def drew(t: Table, pid: str, label: str | None, why: str, **args: Any) -> list[Event]:
    """A private draw: the public learns that a card was drawn, the drawer which one."""
    none, public, private = DRAWS[why]
    if label is None:
        return [event(none, kind="deck_spent", player=pid, **args)]
    card = player(t.state, pid)["hand"][label]
    return [event(public, kind="draw", player=pid, **args),
            event(private, kind="drawn", visible_to=[pid], card=card_name(t.catalog, card),
                  label=label, **args)]


def finish(t: Table, kind: str) -> list[Event]:
    """11.2: score = Advances + cash - misery; tied scores share the win (R30)."""
    catalog: Catalog = t.catalog
    state = t.state
    table = standings(catalog, state)
    state.update(over=True, phase="over", winners=winners(catalog, state),
                 result={"kind": kind, "scores": {p: s for p, s in table}})
    t.agenda.clear()
    key, args = ending(kind)
    won = list(state["winners"])
    return [event(counted(GAME_OVER[key], won, table), kind="game_over", **args,
                  **rows(winners=won, players=[p for p, _ in table], scores=[s for _, s in table]))]


def settle(t: Table, chance: Chance) -> list[Event]:
    """After every answer: announce eliminations, drop their nodes, end or go on."""
    state, events = t.state, []
    players, out = state["players"], state["out"]
    for pid in sorted(players):
        if players[pid]["eliminated"] and pid not in out:
            out.append(pid)
            events.append(event("aor.end.eliminated", kind="eliminated", player=pid))
    if state["out"]:  # nobody out: nothing to drop
        t.agenda[:] = [n for n in t.agenda if "player" not in n or n["player"] not in state["out"]]
        state["wars"] = [w for w in state["wars"] if not set(w) & set(state["out"])]  # R16
    if not state["over"] and state["turn"] >= 1 and len(active_players(state)) <= 1:
        return events + finish(t, LAST_STANDING)
    if not state["over"] and not t.agenda:
        events += proceed(t, chance)
    return events


def proceed(t: Table, chance: Chance) -> list[Event]:
    events: list[Event] = []
    while not t.state["over"] and not t.agenda:
        if t.state["turn"] >= 1 and len(active_players(t.state)) <= 1:
            return events + finish(t, LAST_STANDING)
        phase, flow = t.state["phase"], t.state["flow"]
        steps = PHASES[phase]
        if flow["index"] >= len(steps):
            reset_flow(t, NEXT_PHASE[phase])
            continue
        new, finished = STEPS[steps[flow["index"]]](t, chance)
        events += new
        if finished and t.state["flow"] is flow:
            flow.update(index=flow["index"] + 1, queue=None, asked=[])
    return events


def _next(t: Table, who: Callable[[], list[str]]) -> str | None:
    """The next player of a per-player step still in the game (the queue is made once)."""
    flow = t.state["flow"]
    if flow["queue"] is None:
        flow["queue"] = who()
    while flow["queue"]:
        pid: str = flow["queue"].pop(0)
        if pid in t.state["order"]:
            return pid
    return None


def _ask(t: Table, action: str, who: Callable[[], list[str]], **args: object) -> StepResult:
    pid = _next(t, who)
    if pid is None:
        return [], True
    t.agenda.append(new_node(t.state, action, pid, **args))
    return [], False


def step_set_aside(t: Table, chance: Chance) -> StepResult:
    """8.1: with 5-6 players the set-aside cards join the deck at the start of turn 2."""
    if t.state["turn"] == 2 and t.state["set_aside"]:
        join_set_aside(t.state)
        return [event("aor.draw.set_aside")], True
    return [], True


def step_renaissance(t: Table, chance: Chance) -> StepResult:
    """Q, R20: owners who may swap are asked at the start of the phase, earliest first."""
    asked = t.state["flow"]["asked"]
    for pid in renaissance_owners_in_order(t.state):
        if pid not in asked:
            asked.append(pid)
            t.agenda.append(new_node(t.state, "renaissance", pid))
            return [], False
    return [], True


def step_removal(t: Table, chance: Chance) -> StepResult:
    state = t.state
    return _ask(t, "remove", lambda: [state["order"][0]]
                if removal_options(t.catalog, state, state["order"][0]) else [])


def step_mill(t: Table, chance: Chance) -> StepResult:
    who = miller(t.state)
    return _ask(t, "mill", lambda: [who] if who and mill_options(t.catalog, t.state, who) else [])


def step_draws(t: Table, chance: Chance) -> StepResult:
    """9.1: each player draws one card, in order (private draws, R01)."""
    events = []
    for pid in list(t.state["order"]):
        label = draw_to_hand(t.state, chance, pid, f"draw {pid} turn {t.state['turn']}")
        events += drew(t, pid, label, "turn")
    return events, True


def step_buyers(t: Table, chance: Chance) -> StepResult:
    """9.2: owners of Urban Ascendancy or Master Art, in order."""
    return _ask(t, "buy_cards", lambda: [p for p in t.state["order"] if owns(t.state, p, URBAN_ASCENDANCY)
                                          or owns(t.state, p, MASTER_ART)])


def step_players(t: Table, chance: Chance) -> StepResult:
    state, phase = t.state, t.state["phase"]
    events: list[Event] = []
    played = state["flow"].setdefault("played", [])
    if phase == "final_play" and played and not state["flow"].get("rolled"):
        # 11.1: a tied War rolls again once after each later player's final play
        state["flow"]["rolled"] = True
        for declarer, target in [list(w) for w in state["wars"]]:
            if declarer in played[:-1] and {declarer, target} <= set(state["order"]):
                more, nodes = run_war(t, declarer, target, chance)
                events += more
                t.agenda[0:0] = nodes
        if t.agenda:
            return events, False
    pid = _next(t, lambda: list(state["order"]))
    if pid is None:
        return events, True
    nodes = []
    if phase == "play_cards":  # R16: a tied War rolls again at its declarer's turn
        for declarer, target in [list(w) for w in state["wars"] if w[0] == pid]:
            if target in state["order"]:
                more, follow = run_war(t, declarer, target, chance)
                events, nodes = events + more, nodes + follow
    if pid in state["order"]:
        t.agenda.append(new_node(state, TURN_ACTION[phase], pid, final=phase == "final_play"))
        state["flow"].update(played=played + [pid], rolled=False)
    t.agenda[0:0] = nodes
    return events, False


def step_leaders_leave(t: Table, chance: Chance) -> StepResult:
    if not t.state["round"]["leaders"]:
        return [], True
    leaders_leave(t.catalog, t.state)
    return [event("aor.acquire.leaders_leave")], True


def step_civil_war(t: Table, chance: Chance) -> StepResult:
    victims = [p for p in t.state["order"] if p in t.state["round"]["civil_war"]]
    civil_war_to_last(t.state)
    if not victims:
        return [], True
    return [event("aor.expand.civil_war", players=victims)], True


def step_indulgence(t: Table, chance: Chance) -> StepResult:
    result = holy_indulgence(t.catalog, t.state)
    if not result.tokens and not result.ducats:
        return [], True
    tokens, ducats, misery = (sorted(part) for part in (result.tokens, result.ducats, result.misery))
    return [event(counted("aor.expand.indulgence", tokens, ducats, misery),
                  **rows(token_players=tokens, tokens=[result.tokens[p] for p in tokens],
                         ducat_players=ducats, ducats=[result.ducats[p] for p in ducats],
                         misery_players=misery, misery=[result.misery[p] for p in misery]))], True


def step_bonus(t: Table, chance: Chance) -> StepResult:
    """9.5.3: a card for who placed the most tokens (ties to the earlier player)."""
    winner = bonus_card_winner(t.state)
    if winner is None:
        return [], True
    label = draw_to_hand(t.state, chance, winner, f"bonus card turn {t.state['turn']} {winner}")
    return drew(t, winner, label, "bonus"), True


def step_consolidate(t: Table, chance: Chance) -> StepResult:
    end_expansion(t.catalog, t.state)
    return [event("aor.expand.consolidate")], True


def step_income(t: Table, chance: Chance) -> StepResult:
    """9.6, 9.6.1: income, then the two shortage/surplus rolls; this turn's Advances settle."""
    state, events = t.state, []
    for pid, paid in income_phase(t.catalog, state).items():
        events.append(event("aor.income.collects_interest", kind="income", player=pid,
                            income=paid.income, interest=paid.interest) if paid.interest else
                      event("aor.income.collects", kind="income", player=pid, income=paid.income))
    for roll in roll_markets(t.catalog, state, chance):
        events.append(event("aor.market.shortage" if roll.shortage else "aor.market.surplus",
                            kind="market", green=roll.dice.green, black=roll.dice.black,
                            white=roll.dice.white, commodities=list(roll.commodities)))
        for pid, fine in sorted(roll.fines.items()):
            events.append(event("aor.market.fine", kind="market", player=pid, fine=fine))
        for pid, label in sorted(roll.cards.items()):
            events += drew(t, pid, label, "shortage")
    settle_advances(state)
    return events, True


def game_ends(t: Table) -> str | None:
    """11, R30: all 26 Advances, or the chosen Epoch's cards used up."""
    if all_advances_owned(t.catalog, t.state):
        return ALL_ADVANCES
    end = str(t.state["options"]["end"])
    if end.startswith("epoch"):
        epoch = int(end[-1])
        state = t.state
        spent = int(state.get("epochs_spent", 0)) >= epoch or (state["epoch"] == epoch and not state["deck"])
        if spent:
            return epoch_spent(epoch)
    return None


def step_end_check(t: Table, chance: Chance) -> StepResult:
    reason = game_ends(t)
    if reason is None:
        return [], True
    t.state["end_reason"] = reason
    reset_flow(t, "final_play")
    key, args = ending(reason)
    return [event(FINAL_PLAY[key], kind="end", **args)], False


def step_bids(t: Table, chance: Chance) -> StepResult:
    """9.7: a sealed token purchase by every active player."""
    flow = t.state["flow"]
    if flow["queue"] is not None:
        return [], True
    flow["queue"] = []
    t.agenda.append(new_parallel(t.state, "tokens", list(t.state["order"]), sealed=True))
    return [event("aor.order.tokens_open")], False


def step_score(t: Table, chance: Chance) -> StepResult:
    if t.state["wars"]:
        t.state["wars"] = []
    return finish(t, str(t.state.get("end_reason", "end"))), False


STEPS: dict[str, Callable[[Table, Chance], StepResult]] = {
    "set_aside": step_set_aside, "renaissance": step_renaissance, "removal": step_removal,
    "mill": step_mill, "draws": step_draws, "buyers": step_buyers, "players": step_players,
    "leaders_leave": step_leaders_leave, "civil_war": step_civil_war,
    "indulgence": step_indulgence, "bonus": step_bonus, "consolidate": step_consolidate,
    "income": step_income, "end_check": step_end_check, "bids": step_bids, "score": step_score,
}
