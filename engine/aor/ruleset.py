"""Age of Renaissance as a ruleset for the core: its actions, names, setup, invariants and views.

Setup (8.1-8.5) opens with a parallel node (the card returned), then a sealed capital bid, the
capitals by bid, and the sealed token purchase; each turn then runs 9.1-9.7 as agenda steps
(engine.aor.actions.flow) until the end (11). A draw ends the block (`draw_ends_block`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.aor import invariants
from engine.aor.actions.acquire import Acquire, MasterArtDiscard, Stabilize
from engine.aor.actions.expand import CathedralDefence, Expand, Trade
from engine.aor.actions.flow import settle
from engine.aor.actions.phase_start import BuyCards, Mill, Removal, Renaissance
from engine.aor.actions.play import Cede, Choose, CivilWarLoss, Commodity, PlayCards
from engine.aor.actions.setup import Capital, CapitalBid, Return, Tokens
from engine.aor.catalog import Catalog
from engine.aor.messages import MESSAGES, counted, rows
from engine.aor.model import eliminate, player
from engine.aor.names import AorNamer, card_name
from engine.aor.setup import SetupError, new_game
from engine.aor.view import view_for
from engine.core.agenda import is_parallel, new_parallel, next_pending
from engine.core.chance import Chance
from engine.core.choice import Namer
from engine.core.errors import IllegalOrder, InvariantViolation
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event

ACTIONS: dict[str, Action] = {
    action.name: action
    for action in (
        Return(), CapitalBid(), Capital(), Tokens(), Renaissance(), Removal(), Mill(), BuyCards(),
        PlayCards(), Choose(), Commodity(), CivilWarLoss(), Cede(), Acquire(), MasterArtDiscard(),
        Stabilize(), Expand(), CathedralDefence(), Trade(),
    )
}

VERBS = (
    "return", "bid", "capital", "tokens", "swap", "no swap", "pay", "done", "mill", "no mill",
    "buy card", "discard", "pass", "play", "target", "province", "region", "group", "commodity",
    "lose", "cede", "fleet", "buy", "keep", "stabilize", "place", "attack", "convert",
    "cathedral", "no cathedral", "trade", "no trade", "resign", "seal", "open",
)

DEFAULT_OPTIONS: dict[str, Any] = {"end": "advances", "sealing": "moderator"}
ENDS = ("advances", "epoch1", "epoch2", "epoch3")
# Who keeps sealed bids secret: the moderator; nobody, by commit and reveal (engine.core.sealing);
# or nobody at all (plain: later bidders may see earlier bids; for teaching and bots).
SEALINGS = ("moderator", "commit", "plain")


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    merged = {**DEFAULT_OPTIONS, **options}
    unknown = sorted(set(merged) - set(DEFAULT_OPTIONS))
    if unknown:
        raise SetupError(f"unknown option '{unknown[0]}'; options: {', '.join(DEFAULT_OPTIONS)}")
    if merged["end"] not in ENDS:
        raise SetupError(f"option end must be one of {', '.join(ENDS)}, not {merged['end']!r}")
    if merged["sealing"] not in SEALINGS:
        raise SetupError(f"option sealing must be one of {', '.join(SEALINGS)}, "
                         f"not {merged['sealing']!r}")
    return merged


class AorRuleset:
    name = "aor"
    version = 1
    actions = ACTIONS
    verbs: Sequence[str] = VERBS
    messages: dict[str, str] = MESSAGES  # engine.core.words: message id -> template
    draw_ends_block = True

    def namer(self, t: Table) -> Namer:
        return AorNamer(t)

    def setup(
        self, catalog: Catalog, game_id: str, players: Sequence[str], options: dict[str, Any],
        chance: Chance,
    ) -> tuple[Table, list[Event]]:
        """8.1-8.4: cards dealt (private draws), then every player returns one card."""
        merged = check_options(options)
        state = new_game(catalog, players, chance)
        state.update(options=merged, over=False, winners=[], result=None, draws=0, out=[],
                     flow={"index": 0, "queue": None, "asked": []})
        table = Table(state, [new_parallel(state, "return", list(players))], catalog)
        events = [event("aor.setup.deal", kind="setup", count=len(players))]
        for pid in players:
            hand = sorted(player(state, pid)["hand"].items())
            events.append(event(counted("aor.setup.your_cards", hand), kind="dealt", visible_to=[pid],
                                **rows(labels=[label for label, _ in hand],
                                       cards=[card_name(catalog, card) for _, card in hand])))
        return table, events

    def check_invariants(self, t: Table) -> None:
        found = invariants.problems(t.catalog, t.state)
        state = t.state
        if not state["over"] and not t.agenda:
            found.append("the game is not over but nothing is pending")
        for node in t.agenda:
            if is_parallel(node):
                if not set(node.get("answers", {})) <= set(node["players"]):
                    found.append(f"node {node['id']} has answers from players not asked")
            elif player(state, node["player"])["eliminated"]:
                found.append(f"node {node['id']} is for {node['player']}, who is out")
        if found:
            raise InvariantViolation("; ".join(found))

    def resign(self, t: Table, pid: str, chance: Chance) -> list[Event]:
        """11.3, 9.4.3: a resigning player is out; pieces stay, the hand is shown and leaves."""
        state = t.state
        if state["over"]:
            raise IllegalOrder("the game is over")
        if pid not in state["players"] or player(state, pid)["eliminated"]:
            raise IllegalOrder(f"{pid} is not in the game")
        node = next_pending(t.agenda)
        if node is not None and is_parallel(node):
            raise IllegalOrder("a simultaneous decision is open; answer it, then resign")
        cards = [card_name(t.catalog, c) for c in sorted(player(state, pid)["hand"].values())]
        eliminate(t.catalog, state, pid)
        state["out"].append(pid)
        said = (event("aor.end.resigned_cards", kind="resigned", player=pid, cards=cards) if cards
                else event("aor.end.resigned", kind="resigned", player=pid))
        return [said] + settle(t, chance)

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]:
        return view_for(t, player)

    def is_over(self, t: Table) -> bool:
        return bool(t.state["over"])


AOR = AorRuleset()
