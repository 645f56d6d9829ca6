"""Setup (C1-C7): banks, concessions, ruling class, emporia, decks, market, thrones, florins.

Maps (the `map` option):
- `default`: the 1460 map.
- `1550` (C1): the regular setup, except that England and the HRE are Reformist with their
  1550 capital tokens (R-001: Trebizond stays open, as in the regular setup).
- `age_of_reformation`: the promo map, as the reference records it. Banks Fugger, Marchionni,
  Medici, Berenberg and Mendes; England and the HRE Reformist; Constantinople starts with two
  reformist tokens and shows reformist medieval levies, its third slot only once the Ottoman
  Empire is a theocracy; Kviv is a Hungarian city while Hungary is medieval; the Red Sea is
  the open white emporium; the promo empire squares (engine.pax.model.square_face); the 9
  promo cards join the decks; and the Age of Byzantine victory card is a fifth victory square.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.agenda import new_node
from engine.core.chance import Chance
from engine.core.errors import SetupError as CoreSetupError
from engine.core.table import Event, Table, event
from engine.pax.catalog import PROMO_SQUARES, SQUARES, Catalog
from engine.pax.model import RULESET_VERSION, token

PROMO_MAP = "age_of_reformation"
MAPS = ("default", "1550", PROMO_MAP)
DEFAULT_OPTIONS: dict[str, Any] = {
    "map": "default", "astrology": False, "bankruptcy": False, "open_hands": False,
}


class SetupError(CoreSetupError):
    pass


def check_options(options: dict[str, Any], players: int) -> dict[str, Any]:
    merged = {**DEFAULT_OPTIONS, **options}
    unknown = sorted(set(merged) - set(DEFAULT_OPTIONS))
    if unknown:
        raise SetupError(f"unknown option '{unknown[0]}'; options: {', '.join(DEFAULT_OPTIONS)}")
    if merged["map"] not in MAPS:
        raise SetupError(f"unknown map '{merged['map']}'; maps: {', '.join(MAPS)}")
    if not 2 <= players <= 4:
        raise SetupError(f"Pax Renaissance takes 2 to 4 players, not {players}")
    return merged


def _bank_pool(catalog: Catalog, options: dict[str, Any], players: int) -> list[str]:
    if options["map"] == PROMO_MAP:
        return list(catalog.banks_by_map["age_of_reformation_promo_variant"])
    if options["map"] == "1550":
        pool = list(catalog.banks_by_map["1550_variant"])
        return pool + ["coeur"] if players == 4 else pool
    return list(catalog.banks_by_map["default"])


def _deal(chance: Chance, purpose: str, pool: list[str], count: int) -> list[str]:
    """Take `count` random ids out of `pool` (which shrinks)."""
    taken = []
    for index in range(count):
        pick = chance.pick(f"{purpose}-{index + 1}", pool)
        pool.remove(pick)
        taken.append(pick)
    return sorted(taken)


def _build_deck(catalog: Catalog, side: str, players: int, chance: Chance, sets: tuple[str, ...]
                ) -> dict[str, Any]:
    """C5: comets among the last 14 cards, then 4 cards per player on top."""
    pool = sorted(c.id for c in catalog.cards.values()
                  if c.deck == side and c.set in sets and c.kind != "comet")
    comets = sorted(c.id for c in catalog.cards.values() if c.deck == side and c.kind == "comet")
    bottom = _deal(chance, f"deck-{side}-low", pool, 12) + comets
    top = _deal(chance, f"deck-{side}-top", pool, 4 * players)
    return {"segments": [top, sorted(bottom)], "box": pool}


def _start_token(data: dict[str, Any], map_: str) -> str | None:
    """C4 with the map variants of map.yaml's starting_tokens."""
    applies = str(data.get("variant_applies_to", ""))
    if map_ == PROMO_MAP and applies.startswith("omitted"):
        return None
    wanted = {"1550": "1550", PROMO_MAP: "Age of Reformation"}.get(map_)
    if wanted and wanted in applies and "variant_token" in data:
        return token(data["variant_token"], data["variant_religion"])
    return token(data["token"], data["religion"])


def draw_card(state: dict[str, Any], side: str, chance: Chance, purpose: str) -> str | None:
    """The top card of a deck: a random pick from its top non-empty segment."""
    for segment in state["decks"][side]:
        if segment:
            pick = chance.pick(purpose, segment)
            segment.remove(pick)
            return pick
    return None


def setup(
    catalog: Catalog, game_id: str, seats: Sequence[str], options: dict[str, Any],
    chance: Chance,
) -> tuple[Table, list[Event]]:
    """A new game for players seated clockwise; returns the table and the seat->bank events.

    The players' ids in the returned state are banks; `state.seats` maps seat index to bank.
    """
    options = check_options(options, len(seats))
    count = len(seats)
    pool = _bank_pool(catalog, options, count)
    seat_banks: list[str] = []
    for index in range(count):
        pick = chance.pick(f"bank-seat-{index + 1}", pool)
        pool.remove(pick)
        seat_banks.append(pick)
    if "fugger" in seat_banks:
        first = "fugger"  # C7: Fugger always starts
    else:
        first = chance.pick("first-player", seat_banks)
    start = seat_banks.index(first)
    order = seat_banks[start:] + seat_banks[:start]
    map_ = options["map"]
    religions = catalog.start_religions["default" if map_ == "default"
                                        else "1550_and_age_of_reformation_maps"]
    busted_key = "busted_at_setup" if map_ != PROMO_MAP else \
        "busted_at_setup_1550_and_age_of_reformation_maps"
    sets = ("base", "promo_age_of_reformation") if map_ == PROMO_MAP else ("base",)
    state: dict[str, Any] = {
        "ruleset_version": RULESET_VERSION,  # which rulings this game plays by (model.py)
        "draws": 0,
        "next_node": 0,
        "options": options,
        "seats": seat_banks,
        "order": order,
        "turn": {"number": 1, "player": first, "actions": 0, "used": [], "usury": []},
        "players": {
            bank: {"florins": 3 + order.index(bank), "hand": [], "west": [], "east": [],
                   "old_maids": []}
            for bank in sorted(seat_banks)
        },
        "market": {},
        "decks": {},
        "box": [],
        "discard": [],
        "empires": {e: {"religion": religions[e], "ruler": None, "side": "king",
                        "repressed": [], "queen": None, "suzerain": None}
                    for e in sorted(catalog.empires)},
        "cities": {},
        "borders": {},
        "bishops": {},
        "busted": sorted(e for e, d in catalog.emporia.items() if d[busted_key]),
        "victory": {square: "inactive" for square in
                    (*SQUARES, *(PROMO_SQUARES if map_ == PROMO_MAP else ()))},
        "preview": {"east": None, "west": None},
        "eliminated": [],
        "over": False,
        "winners": [],
        "result": None,
    }
    for bank in seat_banks:
        state["borders"][catalog.banks[bank].start_border] = {"concession": token("pawn", bank)}
    for city_id, data in sorted(catalog.start_tokens.items()):
        placed = _start_token(data, map_)
        if placed is not None:
            state["cities"][city_id] = placed
    for side in ("east", "west"):
        deck = _build_deck(catalog, side, count, chance, sets)
        state["decks"][side] = deck["segments"]
        state["box"] += deck["box"]
    state["box"].sort()
    for side in ("east", "west"):
        row = []
        for slot in range(6):
            row.append({"card": draw_card(state, side, chance, f"market-{side}-{slot}"),
                        "florins": 0})
        state["market"][side] = row
    state["borders"] = dict(sorted(state["borders"].items()))
    state["cities"] = dict(sorted(state["cities"].items()))
    agenda = [new_node(state, "turn", first)]
    table = Table(state, agenda, catalog)
    events = [event("pax.setup.seat", seat=i + 1, bank=bank) for i, bank in enumerate(seat_banks)]
    events.append(event("pax.setup.order", first=first, order=list(order)))
    return table, events
