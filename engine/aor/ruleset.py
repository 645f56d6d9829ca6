"""Age of Renaissance as a ruleset for the core: its actions, names, setup, invariants and views.

Setup (8.1-8.5) opens with a parallel node (the card returned), then a sealed capital bid, the
capitals by bid, and the sealed token purchase; each turn then runs 9.1-9.7 as agenda steps
(engine.aor.actions.flow) until the end (11). A draw ends the block (`draw_ends_block`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.aor import lines_said
from engine.aor.messages import DECISIONS, MESSAGES
from engine.aor.reasons import REASONS
from engine.core.agenda import is_parallel, new_parallel, next_pending
from engine.core.chance import Chance
from engine.core.errors import IllegalOrder, InvariantViolation
from engine.core.table import Event, Table, event

if TYPE_CHECKING:
    from engine.aor.catalog import Catalog
    from engine.core.choice import Namer
    from engine.core.ruleset import Action

DEFAULT_OPTIONS: dict[str, Any] = {"end": "advances", "sealing": "moderator"}
ENDS = ("advances", "epoch1", "epoch2", "epoch3")
# Who keeps sealed bids secret: the moderator; nobody, by commit and reveal (engine.core.sealing);
# or nobody at all (plain: later bidders may see earlier bids; for teaching and bots).
SEALINGS = ("moderator", "commit", "plain")
_PLAYER_ID = re.compile(r"^[a-z][a-z0-9_]{0,15}$")


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    from engine.aor.setup import SetupError  # start-up: loaded on first use

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
    # engine.core.words: message id -> template (with the words beside a legal line)
    messages: dict[str, str] = {**MESSAGES, **lines_said.LINE_MESSAGES,
                                **lines_said.FINAL_MESSAGES}
    reasons: dict[str, str] = REASONS  # why a line is refused (engine.core.errors.Reason)
    decisions: dict[str, str] = DECISIONS  # action -> phrase (pbem.words.decision_phrase)
    draw_messages: dict[str, str] = {}  # its draws are dealt into hands: none is told
    draw_ends_block = True

    # Start-up: the actions, the names, the rules and the views load on first use; reading a
    # game's status needs none of them (tests/architecture/test_hot_imports.py).
    @cached_property
    def actions(self) -> dict[str, Action]:
        from engine.aor.actions.acquire import (  # start-up: loaded on first use
            Acquire,
            MasterArtDiscard,
            Stabilize,
        )
        from engine.aor.actions.expand import CathedralDefence, Expand, Trade
        from engine.aor.actions.phase_start import BuyCards, Mill, Removal, Renaissance
        from engine.aor.actions.play import Cede, Choose, CivilWarLoss, Commodity, PlayCards
        from engine.aor.actions.setup import Capital, CapitalBid, Return, Tokens

        return {action.name: action for action in (
            Return(), CapitalBid(), Capital(), Tokens(), Renaissance(), Removal(), Mill(),
            BuyCards(), PlayCards(), Choose(), Commodity(), CivilWarLoss(), Cede(), Acquire(),
            MasterArtDiscard(), Stabilize(), Expand(), CathedralDefence(), Trade())}

    @cached_property
    def verbs(self) -> Sequence[str]:
        from engine.aor.standing import LINES  # start-up: loaded on first use

        return (
            "return", "bid", "capital", "tokens", "swap", "no swap", "pay", "done", "mill",
            "no mill", "buy card", "discard", "pass", "play", "target", "province", "region",
            "group", "commodity", "lose", "cede", "fleet", "buy", "keep", "stabilize", "place",
            "attack", "convert", "cathedral", "no cathedral", "trade", "no trade", "resign",
            "seal", "open", *LINES,
        )

    def namer(self, t: Table) -> Namer:
        from engine.aor.names import AorNamer  # start-up: loaded on first use

        return AorNamer(t)

    def setup(
        self, catalog: Catalog, game_id: str, players: Sequence[str], options: dict[str, Any],
        chance: Chance,
    ) -> tuple[Table, list[Event]]:
        """8.1-8.4: cards dealt (private draws), then every player returns one card."""
        from engine.aor.messages import counted, rows  # start-up: loaded on first use
        from engine.aor.model import player
        from engine.aor.names import card_name
        from engine.aor.setup import new_game

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
        from engine.aor import invariants  # start-up: loaded on first use
        from engine.aor.model import player

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
        from engine.aor.actions.flow import settle  # start-up: loaded on first use
        from engine.aor.model import eliminate, player
        from engine.aor.names import card_name

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

    def line_said(self, view: dict[str, Any], line: str) -> dict[str, Any] | None:
        """What a legal line does, as a message, from the reader's view (or None)."""
        return lines_said.line_said(view, line)

    def line_final(self, view: dict[str, Any], line: str) -> dict[str, Any] | None:
        """Why a legal line can never be taken back (it rolls or draws), as a message."""
        return lines_said.line_final(line)

    def worth(self, t: Table) -> dict[str, float]:
        """Each player still in the game: the final score as it stands (11.2) plus the income
        the next Income phase would pay (9.6), so provinces count before they pay. Self-play
        policies read it (pbem.play.policy); no rule does."""
        from engine.aor.economy import income  # start-up: loaded on first use
        from engine.aor.victory import standings

        return {pid: float(points + income(t.catalog, t.state, pid))
                for pid, points in standings(t.catalog, t.state)}

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]:
        from engine.aor.view import view_for  # start-up: loaded on first use

        return view_for(t, player)

    def is_over(self, t: Table) -> bool:
        return bool(t.state["over"])

    # --- what pbem needs besides the rules (engine.core.ruleset.Ruleset) ---

    title = "Age of Renaissance"
    player_counts: tuple[int, int] = (3, 6)
    can_resign = True
    hidden_information = True  # hands and the deck (aor-pbem 5)
    templates = "aor"
    data_files: tuple[str, ...] = ("board", "cards", "advances", "tables")
    default_options: dict[str, Any] = dict(DEFAULT_OPTIONS)
    selfplay_options: dict[str, Any] = {"end": "epoch1"}  # a whole game is minutes of play

    def build_catalog(self, data: dict[str, Any]) -> Catalog:
        from engine.aor.catalog import build_catalog  # start-up: reading needs no catalog

        return build_catalog(*(data[name] for name in self.data_files))

    def seat_ids(self, names: Sequence[str]) -> list[str]:
        """Players keep their key names as ids (lower case) when those make good ids, else
        p1, p2, ..."""
        wanted = [n.strip().lower() for n in names]
        if all(_PLAYER_ID.match(n) for n in wanted) and len(set(wanted)) == len(wanted):
            return wanted
        return [f"p{i + 1}" for i in range(len(names))]

    def check_options(self, options: dict[str, Any], *, players: int,
                      open_game: bool) -> dict[str, Any]:
        """A moderated game's sealed bids go to the moderator; an open game seals them by
        commit and reveal unless the players choose `sealing=plain`."""
        from engine.aor.setup import SetupError  # start-up: loaded on first use

        if not self.player_counts[0] <= players <= self.player_counts[1]:
            raise SetupError(f"Age of Renaissance takes 3 to 6 players, not {players}")
        if not open_game:
            if options.get("sealing", "moderator") != "moderator":
                raise SetupError("sealing=commit and sealing=plain are for open games (--open); "
                                 "a moderated game's sealed bids go to the moderator")
            return check_options({**options, "sealing": "moderator"})
        if options.get("sealing") == "moderator":
            raise SetupError("an open game has no moderator to hold sealed bids; use "
                             "sealing=commit (the default) or sealing=plain")
        return check_options({"sealing": "commit", **options})

    def display(self, t: Table, view: dict[str, Any], viewer: str | None, *,
                hands_open: bool) -> dict[str, Any]:
        from engine.aor import display  # start-up: loaded on first use

        return display.for_reader(t, view, viewer, hands_open)

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        from engine.aor import projection  # start-up: loaded on first use

        return projection.public_state(state)

    def viewable(self, public: dict[str, Any]) -> dict[str, Any]:
        from engine.aor import projection  # start-up: loaded on first use

        return projection.viewable(public)

    def draw_audience(self, purpose: str) -> list[str] | None:
        from engine.aor.draws import audience  # start-up: loaded on first use

        return audience(purpose)

    def seat_view(self, state: dict[str, Any], seat: str) -> dict[str, Any]:
        """What `seat` may see, hidden cards as placeholders (the bot's position; a capability
        pbem asks for by name)."""
        from engine.aor import projection  # start-up: loaded on first use

        return projection.seat_view(state, seat)

    def redeal(self, state: dict[str, Any], viewer: str, chance: Chance) -> dict[str, Any]:
        """What `viewer` cannot see dealt afresh (`pbem fork --for`; a capability pbem asks
        for by name, like `worth`)."""
        from engine.aor import projection  # start-up: loaded on first use

        return projection.redeal(state, viewer, chance)

    def card_entries(self, catalog: Catalog, query: str | None) -> list[dict[str, Any]]:
        from engine.aor import cards_view  # start-up: only `pbem cards` shows cards

        return cards_view.entries(catalog, query)

    def card_line(self, entry: dict[str, Any]) -> str:
        from engine.aor import cards_view  # start-up: only `pbem cards` shows cards

        return cards_view.line(entry)

    def card_text(self, entry: dict[str, Any]) -> str:
        from engine.aor import cards_view  # start-up: only `pbem cards` shows cards

        return cards_view.text(entry)

    def coverage(self, catalog: Catalog) -> dict[str, tuple[str, list[str]]]:
        return {}


AOR = AorRuleset()
