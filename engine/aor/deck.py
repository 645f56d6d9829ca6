"""The History deck (4.7, 8.1, R30): draws as uniform picks from a sorted set, Epoch by Epoch.

No shuffled order is ever stored: the deck is a sorted list and a draw is `Chance.pick` over it.
A private draw names its player in the purpose ("deal ada 1", "draw ada turn 3"), so the log says
who drew without saying what. Each card entering a hand gets a label from a `Labeler`: by
default `chance_labeler`, a short label from HMAC(seed, draw) (issue 8) when the Chance can
derive one, else a counter (h1, h2, ...; chances without a seed, as in some tests).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from engine.aor.catalog import Catalog
from engine.aor.model import State, add_to_hand, discard, hand_cards, take_from_hand
from engine.core.chance import Chance
from engine.core.errors import InvariantViolation

Labeler = Callable[[str, Collection[str]], str]  # (draw purpose, labels taken in every hand)
LABEL_LENGTH = 4


def counter_labeler(state: State) -> Labeler:
    """Labels h1, h2, ... from the state's counter: stable, and they say nothing about the card."""
    def label(purpose: str, taken: Collection[str]) -> str:
        while True:
            state["next_label"] += 1
            candidate = f"h{state['next_label']}"
            if candidate not in taken:
                return candidate
    return label


def chance_labeler(state: State, chance: Chance) -> Labeler:
    """Labels from the seed: HMAC(seed, label | game | n | purpose) for the last draw n, 4
    characters, one more on each clash with a label already held. Deterministic from the seed
    and the log, so a replay (verify, the moderator's rebuild) gives the same labels."""
    derive = getattr(chance, "label", None)  # only seeded chances can label
    if derive is None or not chance.draws:
        return counter_labeler(state)

    def label(purpose: str, taken: Collection[str]) -> str:
        n = chance.draws[-1].n
        length = LABEL_LENGTH
        while (candidate := str(derive(n, purpose, length))) in taken:
            length += 1
        return candidate
    return label


def held_labels(state: State) -> set[str]:
    """Every label in every hand: a new label must differ from all of them."""
    return {label for data in state["players"].values() for label in data["hand"]}


def epoch_cards(catalog: Catalog, epoch: int) -> list[str]:
    return sorted(c.id for c in catalog.cards.values() if c.epoch == epoch)


def next_epoch(state: State) -> str | None:
    """The Epoch whose cards an empty deck takes next, if any: none after Epoch 3, nor after the
    last Epoch of an `end: epochN` game, which plays "only the cards of" Epochs 1 to N (11)."""
    following = str(state["epoch"] + 1)
    end = str(state.get("options", {}).get("end", ""))
    if following not in state["epochs"] or (end.startswith("epoch") and int(following) > int(end[-1])):
        return None
    return following


def can_draw(state: State) -> bool:
    """Whether a draw now would find a card (the deck, or what would refill it)."""
    following = next_epoch(state)
    return bool(state["deck"] or state["reusable"]
                or (following is not None and state["epochs"][following]))


def refill(state: State) -> bool:
    """R30: an empty deck takes the next Epoch's cards and the reusable pile; after the last
    Epoch (3, or N with `end: epochN`) the pile alone. Returns False when nothing is left to
    draw. `epochs_spent` records the last Epoch whose cards ran out (for `end: epochN`)."""
    if state["deck"]:
        return True
    state["epochs_spent"] = max(int(state.get("epochs_spent", 0)), int(state["epoch"]))
    following = next_epoch(state)
    if following is not None:
        state["deck"] = sorted(state["epochs"].pop(following) + state["reusable"])
        state["epoch"] += 1
    else:
        state["deck"] = sorted(state["reusable"])
    state["reusable"] = []
    return bool(state["deck"])


def join_set_aside(state: State) -> None:
    """8.1: the five set-aside cards join the deck (at setup with 3-4 players, turn 2 with 5-6)."""
    state["deck"] = sorted(state["deck"] + state["set_aside"])
    state["set_aside"] = []


def draw_card(state: State, chance: Chance, purpose: str) -> str | None:
    """One card off the deck (None when every pile is spent); the deck refills first if empty."""
    if not refill(state):
        return None
    card = chance.pick(purpose, state["deck"])
    state["deck"].remove(card)
    return card


def draw_to_hand(state: State, chance: Chance, pid: str, purpose: str,
                 labeler: Labeler | None = None) -> str | None:
    """A private draw into a hand; returns the new label, or None if the deck is spent."""
    card = draw_card(state, chance, purpose)
    if card is None:
        return None
    label = (labeler or chance_labeler(state, chance))(purpose, held_labels(state))
    add_to_hand(state, pid, card, label)
    return label


def return_to_deck(state: State, pid: str, label: str) -> str:
    """8.1: a dealt card goes back among the undealt cards."""
    card = take_from_hand(state, pid, label)
    state["deck"] = sorted(state["deck"] + [card])
    return card


def discard_from_hand(catalog: Catalog, state: State, pid: str, label: str) -> str:
    """Master Art (9.2, P), or a card leaving with an eliminated player."""
    card = take_from_hand(state, pid, label)
    discard(catalog, state, card)
    return card


def card_zones(state: State) -> dict[str, list[str]]:
    """Where every History card is: for the invariant that each card sits in exactly one zone."""
    zones: dict[str, list[str]] = {}
    for name in ("deck", "set_aside", "reusable", "removed"):
        for card in state[name]:
            zones.setdefault(card, []).append(name)
    for epoch, cards in state["epochs"].items():
        for card in cards:
            zones.setdefault(card, []).append(f"epoch {epoch}")
    for pid in state["players"]:
        for card in hand_cards(state, pid):
            zones.setdefault(card, []).append(f"hand {pid}")
    for entry in state["round"]["leaders"]:
        zones.setdefault(entry[1], []).append("leaders")
    return dict(sorted(zones.items()))


def check_card_zones(catalog: Catalog, state: State) -> None:
    zones = card_zones(state)
    doubled = {card: where for card, where in zones.items() if len(where) != 1}
    missing = sorted(set(catalog.cards) - set(zones))
    if doubled or missing:
        raise InvariantViolation(f"cards in several zones {doubled}; in none {missing}")
