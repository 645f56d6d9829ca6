"""Card abilities (B5f, ABILITY): which are active, for whom, and how often they count.

An ability works while its card is in a tableau (not in a hand, not an Old Maid) and is not
silenced by a bishop (F1f); an ability granting immunity to silencing is never silenced and
keeps its owner's other cards unsilenced (R-415). Owner-scope abilities are cumulative, one
per card (ABILITY: "Its effects are cumulative"); red-text (all_players) abilities apply to
everyone while any tableau holds one active, and do not stack.

Rules ask `has_ability` where they are applied (architecture.md section 5); whenever an
ability changes an outcome the rule emits `ability_event`, of kind `ability:<id>`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.table import Event, Table, event
from engine.pax.ability_ids import Ability
from engine.pax.catalog import Catalog
from engine.pax.model import (
    banks,
    card,
    card_ops,
    cat,
    is_silenced,
    is_square,
    owner_of,
    player,
    tableau,
)

__all__ = ["Ability", "ability_cards", "ability_count", "anyone_has", "ability_event", "abilities_of",
           "active_abilities", "hand_limit", "has_ability", "holders", "is_immune", "silenced",
           "usable_ops"]

RELIGIOUS = "religious"
HAND_LIMIT = 2


def abilities_of(t: Table, card_id: str) -> tuple[str, ...]:
    return () if is_square(card_id) else card(t, card_id).abilities


def is_immune(t: Table, bank: str) -> bool:
    """F1f: an ability granting immunity to silencing is never silenced itself."""
    return any(Ability.IMMUNE_TO_SILENCING in abilities_of(t, c) for c in tableau(t, bank))


def _silenced_for(t: Table, card_id: str, owner: str | None) -> bool:
    if not is_silenced(t, card_id):
        return False
    return owner is None or not is_immune(t, owner)


def silenced(t: Table, card_id: str) -> bool:
    """F1f: a bishop on the card or its royal couple, unless its owner is immune."""
    if not is_silenced(t, card_id):  # most cards: no need to look for the owner
        return False
    return _silenced_for(t, card_id, owner_of(t, card_id))


def usable_ops(t: Table, card_id: str) -> tuple[str, ...]:
    """The ops a card may run now: a silenced card keeps only its religious (inquisitor) ops."""
    ops = card_ops(t, card_id)
    if not silenced(t, card_id):
        return ops
    return tuple(op for op in ops if cat(t).ops[op]["category"] == RELIGIOUS)


def active_abilities(t: Table, card_id: str) -> tuple[str, ...]:
    """A card's abilities while it is in a tableau and unsilenced; immunity always stays."""
    abilities = abilities_of(t, card_id)
    if not abilities:
        return ()
    owner = owner_of(t, card_id)
    if owner is None:
        return ()
    if not _silenced_for(t, card_id, owner):
        return abilities
    return tuple(a for a in abilities if a == Ability.IMMUNE_TO_SILENCING)


@cache
def _carriers(catalog: Catalog, ability: str) -> frozenset[str]:
    """The cards printed with `ability` (the catalog is hashed by identity)."""
    return frozenset(catalog.abilities[ability]["cards"])


@cache
def _no_squares(carriers: frozenset[str]) -> bool:
    return not any(is_square(c) for c in carriers)


@cache
def _no_queens(catalog: Catalog, carriers: frozenset[str]) -> bool:
    """No carrier is a queen card: only a queen sits in an empire's queen slot (a coronation)."""
    return not any(c in catalog.cards and catalog.cards[c].kind == "queen" for c in carriers)


def _no_queen_carrier(t: Table, carriers: frozenset[str]) -> bool:
    return _no_queens(cat(t), carriers) or \
        carriers.isdisjoint([e.get("queen") for e in t.state["empires"].values()])


def _surely_absent(t: Table, bank: str, carriers: frozenset[str]) -> bool:
    """No carrier in `bank`'s tableau, seen without building it: a tableau holds its two sides'
    cards, then squares' queens and vassal squares (so only for carriers that are no squares)."""
    data = player(t, bank)
    return _no_squares(carriers) and carriers.isdisjoint(data["west"]) and \
        carriers.isdisjoint(data["east"]) and _no_queen_carrier(t, carriers)


def ability_cards(t: Table, bank: str, ability: Ability) -> list[str]:
    """The cards of `bank`'s tableau whose `ability` is active now."""
    carriers = _carriers(cat(t), ability)  # a StrEnum member keys the cache as its value
    if not carriers or _surely_absent(t, bank, carriers):
        return []
    found = [c for c in tableau(t, bank) if c in carriers]
    if ability == Ability.IMMUNE_TO_SILENCING:
        return found
    return [c for c in found if not _silenced_for(t, c, bank)]


def is_red_text(t: Table, ability: Ability) -> bool:
    return _red_text(cat(t), ability)


@cache
def _red_text(catalog: Catalog, ability: str) -> bool:
    return bool(catalog.abilities[ability]["scope"] == "all_players")


def holders(t: Table, ability: Ability) -> list[str]:
    """The banks holding `ability` active in their own tableau."""
    carriers = _carriers(cat(t), ability)
    if not carriers or _absent_everywhere(t, carriers):
        return []
    return [b for b in banks(t) if ability_cards(t, b, ability)]


def _absent_everywhere(t: Table, carriers: frozenset[str]) -> bool:
    """`_surely_absent` for every bank, the queens looked at once (red text asks of all)."""
    players = t.state["players"]
    return _no_squares(carriers) and \
        all(carriers.isdisjoint(players[b]["west"]) and carriers.isdisjoint(players[b]["east"])
            for b in t.state["order"]) and _no_queen_carrier(t, carriers)


def anyone_has(t: Table, ability: Ability) -> bool:
    """Whether any tableau holds `ability` active (red text applies to everyone)."""
    return bool(holders(t, ability))


def has_ability(t: Table, bank: str, ability: Ability) -> bool:
    """Whether `ability` applies to `bank` now: its own active card, or for a red-text
    ability any active card in any tableau."""
    if is_red_text(t, ability):
        return bool(holders(t, ability))
    return bool(ability_cards(t, bank, ability))


def ability_count(t: Table, bank: str, ability: Ability) -> int:
    """How many times `ability` applies: once per card (cumulative), red text at most once."""
    if is_red_text(t, ability):
        return int(has_ability(t, bank, ability))
    return len(ability_cards(t, bank, ability))


def ability_event(ability: Ability, msg: str, **args: Any) -> Event:
    """The event a rule emits when `ability` changed its outcome (counted by self-play): message
    id `msg` with its arguments (engine.core.table.event)."""
    return event(msg, kind=f"ability:{ability.value}", **args)


def hand_limit(t: Table, bank: str) -> int | None:
    """HAND: two cards, no limit with a larger-hand ability (None)."""
    return None if has_ability(t, bank, Ability.UNLIMITED_HAND_SIZE) else HAND_LIMIT
