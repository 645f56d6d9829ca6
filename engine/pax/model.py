"""Reading and changing the Pax Renaissance state (plain data) through named operations.

Tokens are strings "type:religion" ("knight:catholic") or "pawn:<bank>". The pool of unused
tokens is not stored: it is the supply less what is in play, so conservation holds by design
and the invariants check that nothing is over-used.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.core.table import Event, Table, event

if TYPE_CHECKING:  # start-up: reading a game's status builds no catalog
    from engine.pax.catalog import Card, Catalog, SquareSide

State = dict[str, Any]


def token(kind: str, colour: str) -> str:
    return f"{kind}:{colour}"


def token_kind(tok: str) -> str:
    return tok.split(":", 1)[0]


def token_colour(tok: str) -> str:
    return tok.split(":", 1)[1]


def describe_token(tok: str) -> str:
    """A token's display name in events and order lines: colour then type ("catholic knight")."""
    kind, colour = tok.split(":", 1)
    return f"{colour} {kind}"


def plural(number: int) -> str:
    """The plural category of a count ("one" or "other"), to choose between message ids."""
    return "one" if number == 1 else "other"


def cat(t: Table) -> Catalog:
    catalog: Catalog = t.catalog
    return catalog


# Rules versions of a game (its state's `ruleset_version`; a state without one is version 1).
# Version 2: Constantinople's three cities are named apart in orders, events and reports
# (C4, CITY: "Constantinople is considered 3 Cities"; ruling R-006). Version 1 (R-006 as first
# ruled) named them once and filled the lowest-numbered slot, and its logs replay that way.
RULESET_VERSION = 2
CONSTANTINOPLE = ("constantinople_1", "constantinople_2", "constantinople_3")


def ruleset_version(t: Table) -> int:
    return int(t.state.get("ruleset_version", 1))


def city_name(t: Table, city_id: str) -> str:
    """A city's name for people: 'Constantinople 2' for one of its three cities (version 2)."""
    name = cat(t).cities[city_id].name
    if city_id in CONSTANTINOPLE and ruleset_version(t) >= 2:
        return f"{name} {city_id.rsplit('_', 1)[1]}"
    return name


def player(t: Table, bank: str) -> dict[str, Any]:
    data: dict[str, Any] = t.state["players"][bank]
    return data


def banks(t: Table) -> list[str]:
    return list(t.state["order"])


# --- tokens -------------------------------------------------------------------------------


def tokens_in_play(state: State) -> Counter[str]:
    tokens = list(state["cities"].values())  # one count over every place, in this order
    for content in state["borders"].values():
        tokens += content.values()
    for empire in state["empires"].values():
        tokens += empire["repressed"]
    tokens += [token("bishop", r) for r in state["bishops"].values()]
    return Counter(tokens)


def supply_of(catalog: Catalog, tok: str) -> int:
    kind, colour = tok.split(":", 1)
    return int(catalog.supply.get(kind, {}).get(colour, 0))


def available(t: Table, tok: str) -> int:
    return supply_of(cat(t), tok) - tokens_in_play(t.state)[tok]


def free_token(t: Table, tok: str, *, into: str | None = None) -> list[Event]:
    """Make one `tok` available (TOKEN MANAGEMENT): from repressed tokens first, else the map.
    `into` is the city, border or empire (its repressed tokens) the token is going to: it is
    never taken from there, or the placement would take the very token it displaces (R-007);
    only when no other one exists is it taken from there after all."""
    if available(t, tok) > 0:
        return []
    for spared in ((into,) if into else ()) + (None,):
        taken = _take_token(t, tok, spared)
        if taken is not None:
            return taken
    return []


def _take_token(t: Table, tok: str, spared: str | None) -> list[Event] | None:
    """Take one `tok` from anywhere but `spared`, in R-007's order; None when there is none."""
    for empire_id in sorted(t.state["empires"]):
        repressed = t.state["empires"][empire_id]["repressed"]
        if tok in repressed and empire_id != spared:
            repressed.remove(tok)
            return [event("pax.token.taken.repressed", token=describe_token(tok),
                          empire=cat(t).empires[empire_id].name)]
    for city_id in sorted(t.state["cities"]):
        if t.state["cities"][city_id] == tok and city_id != spared:
            del t.state["cities"][city_id]
            return [event("pax.token.taken.city", token=describe_token(tok),
                          city=city_name(t, city_id))]
    for border_id in sorted(t.state["borders"]):
        content = t.state["borders"][border_id]
        for role, value in list(content.items()):
            if value == tok and border_id != spared:
                remove_from_border(t, border_id, role)
                return [event("pax.token.taken.border", token=describe_token(tok),
                              border=cat(t).borders[border_id].name)]
    for card_id in sorted(t.state["bishops"]):
        if token("bishop", t.state["bishops"][card_id]) == tok and card_id != spared:
            del t.state["bishops"][card_id]
            return [event("pax.token.taken.card", token=describe_token(tok))]
    return None


def repress(t: Table, tok: str, empire_id: str) -> None:
    repressed = t.state["empires"][empire_id]["repressed"]
    repressed.append(tok)
    repressed.sort()


def remove_from_border(t: Table, border_id: str, role: str) -> None:
    content = t.state["borders"][border_id]
    del content[role]
    if not content:
        del t.state["borders"][border_id]


# --- map ----------------------------------------------------------------------------------


def is_busted(t: Table, city_id: str) -> bool:
    return city_id in t.state["busted"]


PROMO_MAP = "age_of_reformation"


def is_promo_map(t: Table) -> bool:
    return bool(t.state["options"].get("map") == PROMO_MAP)


def levy_token(t: Table, city_id: str) -> str:
    """The levy icon a city shows under its empire's state (the promo map overrides some)."""
    city = cat(t).cities[city_id]
    state = t.state["empires"][city.empire]["religion"]
    if is_promo_map(t) and state in city.levy_promo:
        kind, religion = city.levy_promo[state]
    else:
        kind, religion = city.levy[state]
    return token(kind, religion)


def open_emporium(t: Table, side: str) -> str:
    """The one unbusted emporium whose trade fair is `side`."""
    for emporium_id, data in sorted(cat(t).emporia.items()):
        if data["trade_fair"] == side and emporium_id not in t.state["busted"]:
            return emporium_id
    raise AssertionError(f"no open {side} emporium")


def concession_owner(t: Table, border_id: str) -> str | None:
    content = t.state["borders"].get(border_id, {})
    owner = content.get("concession")
    return token_colour(owner) if owner else None


# --- cards --------------------------------------------------------------------------------


def card(t: Table, card_id: str) -> Card:
    return cat(t).cards[card_id]


def is_square(card_id: str) -> bool:
    return card_id.startswith("empire_square_")


def square_of(empire_id: str) -> str:
    return f"empire_square_{empire_id}"


def empire_state(t: Table, empire_id: str) -> dict[str, Any]:
    data: dict[str, Any] = t.state["empires"][empire_id]
    return data


def vassals_of(t: Table, empire_id: str) -> list[str]:
    return sorted(e for e, d in t.state["empires"].items() if d.get("suzerain") == empire_id)


def with_dependants(t: Table, card_id: str) -> list[str]:
    """A square with its queen and its vassals (each with theirs), as they sit in a tableau."""
    if not is_square(card_id):
        return [card_id]
    empire_id = cat(t).empire_of_square(card_id)
    cards = [card_id]
    queen = empire_state(t, empire_id).get("queen")
    if queen:
        cards.append(queen)
    for vassal in vassals_of(t, empire_id):
        cards += with_dependants(t, square_of(vassal))
    return cards


def side_cards(t: Table, bank: str, side: str) -> list[str]:
    """The cards of one tableau side, from the player board outward, couples and vassals
    included (each runs its own ops, E4)."""
    cards: list[str] = []
    for card_id in player(t, bank)[side]:
        cards += with_dependants(t, card_id)
    return cards


def tableau(t: Table, bank: str) -> list[str]:
    """Every card in a tableau, West end to East end (the player board sits between)."""
    return list(reversed(side_cards(t, bank, "west"))) + side_cards(t, bank, "east")


def owner_of(t: Table, card_id: str) -> str | None:
    for bank in banks(t):
        if card_id in tableau(t, bank):
            return bank
    return None


def husband_of(t: Table, queen_id: str) -> str | None:
    """The empire a crowned queen is married to (she stays with her King, even on a throne)."""
    for empire_id, data in t.state["empires"].items():
        if data.get("queen") == queen_id:
            return str(empire_id)
    return None


def couple_of(t: Table, card_id: str) -> list[str]:
    """A royal couple as a set (for silencing and sales); a lone card otherwise."""
    if is_square(card_id):
        queen = empire_state(t, cat(t).empire_of_square(card_id)).get("queen")
        return [card_id, queen] if queen else [card_id]
    husband = husband_of(t, card_id)
    return [square_of(husband), card_id] if husband else [card_id]


def is_silenced(t: Table, card_id: str) -> bool:
    """F1: a bishop on a card, or on either half of a royal couple, silences it."""
    bishops = t.state["bishops"]
    return bool(bishops) and any(c in bishops for c in couple_of(t, card_id))


def square_face(t: Table, empire_id: str) -> SquareSide:
    """The face an empire square shows: its side, replaced on the promo map by the variant
    for the empire's state (`age_of_reformation_when_<religion>`) or for the map."""
    square = cat(t).squares[empire_id]
    data = empire_state(t, empire_id)
    side = data["side"]
    if is_promo_map(t):
        for key in (f"{PROMO_MAP}_when_{data['religion']}", PROMO_MAP):
            face = square.variants.get(key, {}).get(side)
            if face is not None:
                return face
    return square.king if side == "king" else square.republic


def card_ops(t: Table, card_id: str) -> tuple[str, ...]:
    if is_square(card_id):
        return square_face(t, cat(t).empire_of_square(card_id)).ops
    return card(t, card_id).ops


def card_location(t: Table, card_id: str) -> str | None:
    """An empire id, "east"/"west" for a whole region, or None (queens, player boards)."""
    if is_square(card_id):
        return cat(t).empire_of_square(card_id)
    data = card(t, card_id)
    if data.kind == "queen":
        return husband_of(t, card_id)
    return data.location


def location_empires(t: Table, location: str | None) -> list[str]:
    if location is None:
        return []
    if location in ("east", "west"):
        return cat(t).region_empires(location)
    return [location]


def card_prestige(t: Table, card_id: str) -> tuple[str, ...]:
    if is_square(card_id):
        return square_face(t, cat(t).empire_of_square(card_id)).prestige
    return card(t, card_id).prestige


def prestige(t: Table, bank: str, kind: str, *, for_victory: bool = True) -> int:
    """Prestige icons of `kind` in a tableau; Old Maids count only toward victory (I2)."""
    cards = tableau(t, bank) + (player(t, bank)["old_maids"] if for_victory else [])
    return sum(card_prestige(t, c).count(kind) for c in cards)


def card_name(t: Table, card_id: str) -> str:
    if is_square(card_id):
        return square_face(t, cat(t).empire_of_square(card_id)).name
    return card(t, card_id).name


def discard(t: Table, card_id: str) -> None:
    """A tableau card out of the game (DISCARD); any bishop on it returns to the pool. A
    crowned queen leaves her husband's square."""
    t.state["bishops"].pop(card_id, None)
    husband = husband_of(t, card_id)
    if husband:
        empire_state(t, husband)["queen"] = None
    t.state["discard"].append(card_id)
    t.state["discard"].sort()


def remove_from_tableau(t: Table, card_id: str) -> None:
    """Take a card out of whichever tableau list holds it (squares, cards or Old Maids)."""
    for data in t.state["players"].values():
        for zone in ("west", "east", "old_maids"):
            if card_id in data[zone]:
                data[zone].remove(card_id)


def return_to_throne(t: Table, empire_id: str, *, keep_queen: bool) -> list[str]:
    """DISCARD/E3: a square goes home with its vassals, repressed tokens and bishop; its queen
    goes too unless `keep_queen` is False (beheading, regime change). Returns what moved."""
    moved = [empire_id]
    data = empire_state(t, empire_id)
    remove_from_tableau(t, square_of(empire_id))
    data.update({"ruler": None, "side": "king", "suzerain": None})
    if not keep_queen and data.get("queen"):
        discard(t, data["queen"])
    for vassal in vassals_of(t, empire_id):
        moved += return_to_throne(t, vassal, keep_queen=True)
    return moved

