"""What a ruleset provides to the core: actions (one handler per decision), setup, views."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice, Namer
from engine.core.errors import Reason
from engine.core.table import Event, Table, event


class Action:
    """One kind of decision. Subclasses list options and apply a chosen one.

    A parallel node (engine.core.agenda) is answered by several players: `options`, `auto` and
    `default` then receive a copy of the node with "player" set to the player asked; each
    answer is recorded (`answered`), and once all are in the core calls `resolve`.
    """

    name = ""
    decision = ""  # what the decider is asked, in plain words

    def options(self, t: Table, node: Node) -> list[Choice]:
        raise NotImplementedError(f"action {self.name} lists no options")

    def listed(self, t: Table, node: Node) -> Sequence[Choice]:
        """The options as the adjudication loop reads them: `options`, unless the action lists
        them a group at a time (engine.core.options), read at the state they were made for."""
        return self.options(t, node)

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        raise NotImplementedError(f"action {self.name} cannot be applied")

    def auto(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice | None:
        """The answer when the rules force one: by default, a single legal option."""
        return options[0] if len(options) == 1 else None

    def default(self, t: Table, node: Node, options: Sequence[Choice]) -> Choice:
        """What a timeout applies; by default the last option (the passive one by convention)."""
        return options[-1]

    def explain(self, t: Table, node: Node, line: str) -> str | Reason | None:
        """Why a line that names no legal answer is illegal: a keyed reason (or, not yet
        keyed, plain English words); None when there is nothing better to say than "not a
        legal order" (the legal lines are listed anyway)."""
        return None

    def draws(self, t: Table, node: Node, choice: Choice) -> bool:
        """Whether applying this choice leads to a die roll or a card draw. With a ruleset whose
        `draw_ends_block` is true, such a line must be the last of its block."""
        return False

    def answered(self, t: Table, node: Node, player: str, choice: Choice) -> list[Event]:
        """Events for one answer to a parallel node: the fact is public, the content is shown
        only to its author when the node is sealed."""
        if node.get("sealed"):
            return [event("core.answer.sealed", kind="sealed", player=player),
                    event("core.answer.yours", kind="sealed_answer", visible_to=[player],
                          player=player, line=choice.line)]
        return [event("core.answer.in", kind="answered", player=player),
                event("core.answer.yours", kind="answer", visible_to=[player], player=player,
                      line=choice.line)]

    def resolve(
        self, t: Table, node: Node, answers: dict[str, Choice], chance: Chance
    ) -> list[Event]:
        """Apply every answer of a parallel node at once (the node is already off the agenda)."""
        raise NotImplementedError(f"action {self.name} resolves no parallel answers")


class Ruleset(Protocol):
    """Everything pbem needs from a game; both games implement it, and pbem reaches a ruleset
    only through this interface (pbem.rulesets holds the one table of them)."""

    name: str  # the id in game files ("pax")
    title: str  # for people ("Pax Renaissance (2nd edition)")
    version: int
    actions: Mapping[str, Action]  # by decision; a ruleset may make each on first lookup
    verbs: Sequence[str]
    messages: dict[str, str]  # event message id -> English template (engine.core.words)
    # action name -> what its decider is asked, an infinitive phrase with {their}/{they}/{them}
    decisions: dict[str, str]
    # a public draw's purpose (its first word) -> how a summary tells it; {card} is the card
    draw_messages: dict[str, str]
    player_counts: tuple[int, int]  # fewest and most players
    # A line that leads to a draw must be the last of its block (engine.core.adjudicate).
    draw_ends_block: bool
    can_resign: bool  # a block starting with `resign` is taken at any time (`resign`)
    # Some state is hidden from other players (hands, the deck): a moderated game keeps it in
    # the moderator's secrets file and the game file holds `public_state` (pbem.store.hidden).
    hidden_information: bool
    templates: str  # the report template folder, templates/<templates>/
    data_files: tuple[str, ...]  # games/<name>/<file>.yaml the catalog is built from
    default_options: dict[str, Any]
    selfplay_options: dict[str, Any]  # what self-play sets unless told (a shorter game)

    def build_catalog(self, data: dict[str, Any]) -> Any:
        """The catalog from the parsed data files; ValueError names a bad file and key."""
        ...

    def seat_ids(self, names: Sequence[str]) -> list[str]:
        """The player ids handed to setup, from the players' key names in seat order."""
        ...

    def check_options(self, options: dict[str, Any], *, players: int,
                      open_game: bool) -> dict[str, Any]:
        """Every option with its default filled in; SetupError says what is wrong."""
        ...

    def namer(self, t: Table) -> Namer: ...

    def setup(
        self, catalog: Any, game_id: str, players: Sequence[str], options: dict[str, Any],
        chance: Chance,
    ) -> tuple[Table, list[Event]]: ...

    def check_invariants(self, t: Table) -> None: ...

    def view_for(self, t: Table, player: str | None) -> dict[str, Any]: ...

    def display(self, t: Table, view: dict[str, Any], viewer: str | None, *,
                hands_open: bool) -> dict[str, Any]:
        """Display-ready rows for the report templates (names, not ids), from `view`: the
        viewer's hand, or every hand when `hands_open`. Empty when the view is enough."""
        ...

    def public_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """What a player who owns nothing may see: hidden cards as counts."""
        ...

    def viewable(self, public: dict[str, Any]) -> dict[str, Any]:
        """A public state in the engine's shape (hidden cards as placeholders), for views."""
        ...

    def draw_audience(self, purpose: str) -> list[str] | None:
        """Who may see a draw made for `purpose`: None for everyone, else the players."""
        ...

    def resign(self, t: Table, player: str, chance: Chance) -> list[Event]: ...

    def card_entries(self, catalog: Any, query: str | None) -> list[dict[str, Any]]:
        """`pbem cards`: every card (and Advance...) matching `query`, as data."""
        ...

    def card_line(self, entry: dict[str, Any]) -> str: ...

    def card_text(self, entry: dict[str, Any]) -> str: ...

    def coverage(self, catalog: Any) -> dict[str, tuple[str, list[str]]]:
        """Self-play counts: report name -> (event kind family, every name in the family)."""
        ...

    def is_over(self, t: Table) -> bool: ...
