"""What coverage self-play counts and steers by (issue 14), read from the engine alone: the keys
its events reach (`ability:x`-style kinds, cards played or bought, Advances), the keys a choice
names outright (the catalog's card data), and the abilities a player's own cards carry. No rules
knowledge lives here."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from engine.core.choice import Choice
from engine.core.table import Event, Table
from engine.pax.model import prestige, tableau

COVERED = ("ability", "op", "oneshot", "victory")  # kind prefixes that coverage steers toward
PLAYED = ("pax.play.card", "pax.play.queen", "aor.play.card")
BOUGHT = ("pax.buy.card", "pax.buy.comet")  # and their variants: pax.buy.card.taking.one ...


def is_bought(msg: str) -> bool:
    return any(msg == prefix or msg.startswith(f"{prefix}.") for prefix in BOUGHT)


def coverage_keys(events: Iterable[Event]) -> set[str]:
    """What a set of events reached: `ability:x`-style kinds, and cards played, bought or
    Advances acquired (named by the events' own arguments)."""
    keys: set[str] = set()
    for e in events:
        kind = str(e.get("kind"))
        args = e.get("args") or {}
        if kind.partition(":")[0] in COVERED:
            keys.add(kind)
        if e.get("msg") in PLAYED:
            keys.add(f"played:{args.get('card')}")
        elif is_bought(str(e.get("msg"))):
            keys.add(f"bought:{args.get('card')}")
        elif kind == "advance":
            keys.add(f"advance:{args.get('advance')}")
    return keys


def named_keys(catalog: Any, choice: Choice) -> set[str]:
    """The coverage keys a choice names outright, read from the catalog (the engine's own card
    data): a card's play and purchase, its abilities and one-shot, an op, an Advance, a victory
    square."""
    keys: set[str] = set()
    cards = getattr(catalog, "cards", {})
    advances = getattr(catalog, "advances", {})
    ops = getattr(catalog, "ops", {})
    for arg, kind in zip(choice.args, choice.kinds, strict=False):
        arg, _, op = arg.partition("/")  # a card's op is named `CARD/op`
        if op in ops:
            keys.add(f"op:{ops[op]['type']}")
        if arg in cards:
            data = cards[arg]
            keys |= {f"played:{data.name}", f"bought:{data.name}"}
            keys |= {f"ability:{a}" for a in getattr(data, "abilities", ())}
            if getattr(data, "one_shot", None):
                keys.add(f"oneshot:{data.one_shot['type']}")
        elif arg in advances:
            keys.add(f"advance:{advances[arg].name}")
        elif kind == "square":
            keys.add(f"victory:{arg}")
    return keys


def leads_to(advances: Any, advance: str) -> set[str]:
    """`advance:x` for every Advance that needs `advance` first, at any remove (the catalog's own
    `requires`): buying Ocean Navigation is a step toward New World."""
    found: set[str] = set()
    frontier = {advance}
    while frontier:
        later = {a for a, data in advances.items() if set(getattr(data, "requires", ())) & frontier}
        later -= {a for a in advances if f"advance:{advances[a].name}" in found}
        found |= {f"advance:{advances[a].name}" for a in later}
        frontier = later
    return found


def steps_toward(catalog: Any, choice: Choice) -> set[str]:
    """The Advances a choice is a step toward (see `leads_to`), for the Advances it buys."""
    advances = getattr(catalog, "advances", {})
    return {key for arg in choice.args if arg in advances for key in leads_to(advances, arg)}


def held_abilities(table: Table, who: str, *, hand: bool = False) -> set[str]:
    """`ability:x` for the cards in `who`'s tableau as the engine counts it (engine.pax.model:
    a crowned queen sits with her King, an Old Maid is not there), and with `hand` its hand
    too: what its tableau could fire, or could once its cards are laid out. Empty for a game
    whose catalog has no abilities."""
    cards = getattr(table.catalog, "cards", {})
    me = (table.state.get("players") or {}).get(who)
    if not hasattr(table.catalog, "abilities") or not isinstance(me, dict):
        return set()
    held = tableau(table, who) + (list(me.get("hand", ())) if hand else [])
    return {f"ability:{a}" for c in held if c in cards for a in cards[c].abilities}


def summary_words(catalog: Any, ability: str) -> str:
    """An ability's summary as lower-case words, each plural "-ies" read as its "-y" (so
    "Apostasies" names the one-shot "apostasy"), with a leading space for prefix matching."""
    words = re.findall(r"[a-z]+", catalog.abilities[ability]["summary"].lower())
    return " " + " ".join(f"{w[:-3]}y" if w.endswith("ies") else w for w in words)


@cache
def _offers(catalog: Any) -> dict[str, frozenset[str]]:
    """Each card's terms from the catalog's vocabulary: op types, prestige kinds, one-shot type."""
    return {c.id: frozenset({catalog.ops[op]["type"] for op in c.ops} | set(c.prestige)
                            | ({c.one_shot["type"]} if c.one_shot else set()))
            for c in catalog.cards.values()}


@cache
def _named(catalog: Any, ability: str) -> frozenset[str]:
    """The vocabulary terms an ability's own summary names: "your Vote Ops" names `vote`,
    "In your Crusades" `crusade` (a prefix match), "Apostasies" `apostasy`."""
    words = summary_words(catalog, ability)
    return frozenset(term for terms in _offers(catalog).values() for term in terms
                     if f" {term.replace('_', ' ')}" in words)


@cache
def _serving(catalog: Any, ability: str) -> frozenset[str]:
    """The cards that carry what an ability's own catalog summary names from the catalog's
    vocabulary (an op type, a one-shot type, a prestige kind): "your Vote Ops" names the
    cards with a vote op, "In your Crusades" the cards whose one-shot is a crusade, "Each
    Patron prestige" the cards with Patron prestige."""
    named = _named(catalog, ability)
    return frozenset(card for card, terms in _offers(catalog).items() if terms & named)


@cache
def _pairs(catalog: Any, ability: str) -> frozenset[frozenset[str]]:
    """The prestige kinds that the one-shots an ability's summary names list together in their
    own card data (an apostasy's two religions, a crusade's defenders): a tableau holding a
    whole set is a position those one-shots read."""
    kinds = {k for c in catalog.cards.values() for k in c.prestige}
    named = _named(catalog, ability)
    return frozenset(frozenset(value) for c in catalog.cards.values()
                     if c.one_shot and c.one_shot["type"] in named
                     for value in c.one_shot.values()
                     if isinstance(value, list) and len(value) > 1 and set(value) <= kinds)


def serving_pairs(catalog: Any, abilities: Iterable[str]) -> frozenset[frozenset[str]]:
    """The prestige sets that serve any of these `ability:x` keys (see `_pairs`)."""
    if not hasattr(catalog, "abilities"):
        return frozenset()
    return frozenset(p for key in abilities for p in _pairs(catalog, key.partition(":")[2]))


@cache
def _trials(catalog: Any, ability: str) -> frozenset[str]:
    """The cards whose one-shot an ability's summary names and whose own data lists a prestige
    set (see `_pairs`): played by anyone, such a one-shot reads every tableau."""
    named, pairs = _named(catalog, ability), _pairs(catalog, ability)
    return frozenset(c.id for c in catalog.cards.values()
                     if c.one_shot and c.one_shot["type"] in named
                     and any(isinstance(v, list) and frozenset(v) in pairs
                             for v in c.one_shot.values()))


def trial_cards(catalog: Any, abilities: Iterable[str]) -> frozenset[str]:
    """The cards that put tableaux on the trial these `ability:x` keys read (see `_trials`):
    Epicurean Swerve's immunity fires only in an apostasy that condemns someone else."""
    if not hasattr(catalog, "abilities"):
        return frozenset()
    return frozenset(c for key in abilities for c in _trials(catalog, key.partition(":")[2]))


def set_cards(catalog: Any, pairs: frozenset[frozenset[str]]) -> frozenset[str]:
    """The cards carrying a prestige kind of these sets (see `_pairs`): the cards that make one
    whole. None for no sets, or a game whose catalog has no abilities."""
    if not pairs or not hasattr(catalog, "abilities"):
        return frozenset()
    return _set_cards(catalog, pairs)


@cache
def _set_cards(catalog: Any, pairs: frozenset[frozenset[str]]) -> frozenset[str]:
    kinds = set().union(*pairs)
    return frozenset(c.id for c in catalog.cards.values() if kinds & set(c.prestige))


def pairs_held(table: Table, who: str, pairs: Iterable[frozenset[str]], *,
               hand: bool = False) -> int:
    """How far `who`'s tableau (with `hand`, its hand too) is toward holding these prestige sets
    whole, as the engine counts a tableau's prestige (Old Maids aside) and the catalog a card's:
    the square of the kinds held of each set, so the kind that makes a set whole is worth most
    (0, 1, 4 for a pair)."""
    cards = getattr(table.catalog, "cards", {})
    me = (table.state.get("players") or {}).get(who)
    in_hand = {k for c in (me or {}).get("hand", ()) if hand and c in cards for k in cards[c].prestige}
    return sum(sum(1 for k in kinds if k in in_hand or prestige(table, who, k, for_victory=False))
               ** 2 for kinds in pairs)


def serving_cards(catalog: Any, abilities: Iterable[str]) -> frozenset[str]:
    """The cards that serve any of these `ability:x` keys (see `_serving`)."""
    if not hasattr(catalog, "abilities"):
        return frozenset()
    found: frozenset[str] = frozenset()
    for key in abilities:
        found |= _serving(catalog, key.partition(":")[2])
    return found


def cards_of(table: Table, who: str) -> tuple[set[str], set[str]]:
    """`who`'s tableau as the engine counts it, and its hand (empty outside Pax)."""
    me = (table.state.get("players") or {}).get(who)
    if not hasattr(table.catalog, "abilities") or not isinstance(me, dict):
        return set(), set()
    return set(tableau(table, who)), set(me.get("hand", ()))
