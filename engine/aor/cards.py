"""Playing a History card from the hand (9.3, 7.1-7.3): the card leaves the hand, is recorded as
played this turn (the rules that consult played cards read `round.played`), and goes to the
reusable pile or out of the game; a leader joins the turn's display until the Acquisition Phase
ends. The card's own effect is applied by the caller with the matching rule (a payout for a
commodity, the event's verb, or nothing more for a leader)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.aor.advances import play_leader
from engine.aor.catalog import Catalog
from engine.aor.model import State, discard, player, take_from_hand
from engine.core.errors import IllegalOrder


@dataclass(frozen=True)
class Played:
    card: str
    rebate: int  # Printed Word's payment for a leader (O)


def play_from_hand(catalog: Catalog, state: State, pid: str, label: str) -> Played:
    hand = player(state, pid)["hand"]
    if label not in hand:
        raise IllegalOrder(f"no card labelled '{label}' in {pid}'s hand",
                           options=[f"play {x}" for x in sorted(hand)])
    card = take_from_hand(state, pid, label)
    if catalog.cards[card].kind == "leader":
        return Played(card, play_leader(catalog, state, pid, card))
    state["round"]["played"].append([pid, card])
    discard(catalog, state, card)
    return Played(card, 0)
