"""Pax Renaissance as a ruleset for the core: its actions, names, setup, invariants and views."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from engine.core.chance import Chance
from engine.core.errors import IllegalOrder
from engine.core.table import Event, Table
from engine.pax.messages import MESSAGES
from engine.pax.messages.decisions import DECISIONS
from engine.pax.messages.draws import DRAWS
from engine.pax.messages.reasons import REASONS
from engine.pax.model import RULESET_VERSION

if TYPE_CHECKING:
    from engine.core.choice import Namer
    from engine.core.ruleset import Action
    from engine.pax.catalog import Catalog


class PaxRuleset:
    name = "pax"
    version = RULESET_VERSION  # a new game's rules; an old game's state keeps its own
    messages: dict[str, str] = MESSAGES  # engine.core.words: message id -> template
    reasons: dict[str, str] = REASONS  # why a line is refused (engine.core.errors.Reason)
    decisions: dict[str, str] = DECISIONS  # action -> phrase (pbem.words.decision_phrase)
    draw_messages: dict[str, str] = DRAWS  # the market's refills, told in summaries

    # Start-up: the actions, the board's names and the views load on first use; reading a
    # game's status needs none of them (tests/architecture/test_hot_imports.py).
    @cached_property
    def actions(self) -> Mapping[str, Action]:
        from engine.pax.ruleset_actions import ACTIONS  # start-up: loaded on first use

        return ACTIONS

    @cached_property
    def verbs(self) -> Sequence[str]:
        from engine.pax.ruleset_actions import VERBS  # start-up: loaded on first use

        return VERBS

    def namer(self, t: Table) -> Namer:
        return self._namer_class(t)

    # Each asked once per line or answer: the import statement is looked up once, not per call.
    @cached_property
    def _namer_class(self) -> Callable[[Table], Namer]:
        from engine.pax.notation import PaxNamer  # start-up: loaded on first use

        return PaxNamer

    @cached_property
    def _invariants(self) -> Callable[[Table], None]:
        from engine.pax.invariants import check_invariants  # start-up: loaded on first use

        return check_invariants

    def setup(
        self, catalog: Catalog, game_id: str, players: Sequence[str], options: dict[str, Any],
        chance: Chance,
    ) -> tuple[Table, list[Event]]:
        from engine.pax import setup  # start-up: loaded on first use
        from engine.pax.actions.market import reveal_previews  # start-up: loaded on first use

        table, events = setup.setup(catalog, game_id, players, options, chance)
        reveal_previews(table, chance)
        return table, events

    def check_invariants(self, t: Table) -> None:
        self._invariants(t)

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]:
        from engine.pax import view  # start-up: loaded on first use

        return view.view_for(t, player)

    def keyed_texts(self, catalog: Catalog) -> dict[str, str]:
        """Words from the data a reader sees, by key (the abilities' summaries), for the edge
        to translate like the message catalog."""
        return {f"ability:pax.{ability}": str(entry["summary"])
                for ability, entry in catalog.abilities.items()}

    def line_said(self, view: dict[str, Any], line: str) -> dict[str, Any] | None:
        """What a legal line does, as a message, from the reader's view (or None)."""
        from engine.pax import lines_said  # start-up: loaded on first use

        return lines_said.line_said(view, line)

    def line_final(self, view: dict[str, Any], line: str) -> dict[str, Any] | None:
        """Why a legal line can never be taken back (it draws), as a message (or None)."""
        from engine.pax import lines_said  # start-up: loaded on first use

        return lines_said.line_final(view, line)

    def is_over(self, t: Table) -> bool:
        return bool(t.state["over"])

    # --- what pbem needs besides the rules (engine.core.ruleset.Ruleset) ---

    title = "Pax Renaissance (2nd edition)"
    player_counts: tuple[int, int] = (2, 4)
    draw_ends_block = False
    can_resign = False
    hidden_information = False  # hands come from the open market; only the seed is secret
    templates = "pax"
    data_files: tuple[str, ...] = ("cards", "map", "abilities")
    selfplay_options: dict[str, Any] = {}

    @cached_property
    def default_options(self) -> dict[str, Any]:
        from engine.pax.setup import DEFAULT_OPTIONS  # start-up: loaded on first use

        return dict(DEFAULT_OPTIONS)

    def build_catalog(self, data: dict[str, Any]) -> Catalog:
        from engine.pax.catalog import build_catalog  # start-up: reading needs no catalog

        return build_catalog(data["cards"], data["map"], data["abilities"])

    def seat_ids(self, names: Sequence[str]) -> list[str]:
        """Banks are dealt to seats by the seed, so the setup sees seats only."""
        return [f"seat{i + 1}" for i in range(len(names))]

    def check_options(self, options: dict[str, Any], *, players: int,
                      open_game: bool) -> dict[str, Any]:
        from engine.pax import setup  # start-up: loaded on first use

        return setup.check_options(options, players)

    def display(self, t: Table, view: dict[str, Any], viewer: str | None, *,
                hands_open: bool) -> dict[str, Any]:
        return {}  # the Pax view is display-ready

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return state

    def viewable(self, public: dict[str, Any]) -> dict[str, Any]:
        return public

    def draw_audience(self, purpose: str) -> list[str] | None:
        return None

    def resign(self, t: Table, player: str, chance: Chance) -> list[Event]:
        raise IllegalOrder("Pax Renaissance has no resignation")

    def card_entries(self, catalog: Catalog, query: str | None) -> list[dict[str, Any]]:
        from engine.pax import cards_view  # start-up: only `pbem cards` shows cards

        return cards_view.entries(catalog, query)

    def card_line(self, entry: dict[str, Any]) -> str:
        from engine.pax import cards_view  # start-up: only `pbem cards` shows cards

        return cards_view.line(entry)

    def card_text(self, entry: dict[str, Any]) -> str:
        from engine.pax import cards_view  # start-up: only `pbem cards` shows cards

        return cards_view.text(entry)

    def card_said(self, catalog: Catalog, entry: dict[str, Any]) -> dict[str, Any]:
        """The card's words as messages (optional: `pbem cards --lang` says them)."""
        from engine.pax import cards_view  # start-up: only `pbem cards` shows cards

        return cards_view.said(catalog, entry["id"])

    def coverage(self, catalog: Catalog) -> dict[str, tuple[str, list[str]]]:
        return {
            "one_shots": ("oneshot", sorted({str(card.one_shot["type"]) for card in
                                             catalog.cards.values() if card.one_shot})),
            "ops": ("op", sorted({str(op["type"]) for op in catalog.ops.values()})),
            "abilities": ("ability", sorted(catalog.abilities)),
        }


PAX = PaxRuleset()
