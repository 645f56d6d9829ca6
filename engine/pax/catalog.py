"""The Pax Renaissance components as typed, validated records built from games/pax data.

`pbem` reads the YAML files and hands the parsed dicts here; unknown ids fail at load time
with a CatalogError naming the file, the entry and the field.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.records import dataclass_on_first_use
from engine.pax.ability_ids import Ability

RELIGIONS = ("catholic", "islamic", "reformist")
STATES = ("medieval", *RELIGIONS)
PRESTIGE = ("catholic", "islamic", "reformist", "law", "discovery", "patron")
ONE_SHOTS = ("apostasy", "conspiracy", "coronation", "crusade", "jihad", "peasant_revolt",
             "reformation", "trade_shift")
AGENT_TYPES = ("bishop", "knight", "rook", "pawn", "pirate")
SQUARES = ("holy", "imperial", "globalization", "renaissance")
PROMO_SQUARES = ("byzantine",)  # the Age of Byzantine victory card, promo map only


class CatalogError(ValueError):
    def __init__(self, file: str, entry: str, field: str, problem: str) -> None:
        super().__init__(f"{file}: {entry}: {field}: {problem}")


@dataclass_on_first_use(frozen=True)
class Agent:
    type: str
    religion: str | None  # None for pawns (the player's own bank colour)


@dataclass_on_first_use(frozen=True)
class Card:
    id: str
    name: str
    deck: str  # east | west: market deck and tableau side
    set: str
    kind: str  # regular | queen | comet
    location: str | None  # empire id, "east"/"west" for a whole region, None for queens
    prestige: tuple[str, ...]
    ops: tuple[str, ...]
    one_shot: dict[str, Any] | None
    agents: tuple[Agent, ...]
    abilities: tuple[str, ...]
    sell_value: int


@dataclass_on_first_use(frozen=True)
class SquareSide:
    name: str
    ops: tuple[str, ...]
    prestige: tuple[str, ...]


@dataclass_on_first_use(frozen=True)
class EmpireSquare:
    id: str
    empire: str
    region: str
    king: SquareSide
    republic: SquareSide
    # promo-map replacements: variant key -> side ("king"/"republic") -> face
    variants: dict[str, dict[str, SquareSide]]


@dataclass_on_first_use(frozen=True)
class Empire:
    id: str
    name: str
    region: str
    adjacent: tuple[str, ...]
    sea_neighbours: tuple[str, ...]
    borders: tuple[str, ...]
    cities: tuple[str, ...]
    conditional: tuple[str, ...]  # venice_2, kviv: slots that exist only in some situations


@dataclass_on_first_use(frozen=True)
class City:
    id: str
    name: str
    empire: str
    capital: bool
    emporium: bool
    levy: dict[str, tuple[str, str]]  # state -> (token type, religion)
    levy_promo: dict[str, tuple[str, str]]  # Age of Reformation map overrides, by state


@dataclass_on_first_use(frozen=True)
class Border:
    id: str
    name: str
    empires: tuple[str, str]
    sea: bool


@dataclass_on_first_use(frozen=True)
class Route:
    emporium: str
    side: str
    sequence: tuple[str, ...]  # empire, border, empire, ...


@dataclass_on_first_use(frozen=True)
class Bank:
    id: str
    colour: str
    start_border: str
    priority: int


@dataclass_on_first_use(frozen=True, eq=False)  # hashed by identity, so it can key caches
class Catalog:
    cards: dict[str, Card]
    squares: dict[str, EmpireSquare]  # keyed by empire id
    empires: dict[str, Empire]
    cities: dict[str, City]
    borders: dict[str, Border]
    emporia: dict[str, dict[str, Any]]
    routes: dict[str, Route]
    banks: dict[str, Bank]
    banks_by_map: dict[str, list[str]]
    supply: dict[str, dict[str, int]]  # token type -> religion or bank -> count
    start_tokens: dict[str, dict[str, Any]]
    start_religions: dict[str, dict[str, str]]
    ops: dict[str, dict[str, Any]]
    abilities: dict[str, dict[str, Any]]
    victories: dict[str, dict[str, Any]]

    def empire_of_square(self, square_id: str) -> str:
        return square_id.removeprefix("empire_square_")

    def region_empires(self, region: str) -> list[str]:
        return list(_region_empires(self, region))


@cache
def _region_empires(catalog: Catalog, region: str) -> tuple[str, ...]:
    """Listed once per catalog (a catalog never changes; it is hashed by identity)."""
    return tuple(e.id for e in catalog.empires.values() if e.region == region)


def _need(entry: dict[str, Any], key: str, file: str, name: str) -> Any:
    if key not in entry:
        raise CatalogError(file, name, key, "missing")
    return entry[key]


def _check(value: str, allowed: Any, file: str, name: str, field: str) -> str:
    if value not in allowed:
        raise CatalogError(file, name, field, f"unknown id '{value}'")
    return value


def _card(raw: dict[str, Any], ops: dict[str, Any], abilities: dict[str, Any],
          empires: dict[str, Any]) -> Card:
    file, name = "cards.yaml", str(raw.get("id", "?"))
    location = raw.get("location")
    if location is not None:
        _check(location, {*empires, "east", "west"}, file, name, "location")
    one_shot = raw.get("one_shot")
    if one_shot is not None:
        _check(one_shot.get("type", ""), ONE_SHOTS, file, name, "one_shot")
    agents: list[Agent] = []
    for agent in raw.get("agents", []):
        kind = _check(agent.get("type", ""), AGENT_TYPES, file, name, "agents")
        religion = agent.get("religion") if kind != "pawn" else None
        if religion is not None:
            _check(religion, RELIGIONS, file, name, "agents.religion")
        agents += [Agent(kind, religion)] * int(agent.get("count", 1))
    return Card(
        id=name,
        name=str(_need(raw, "name", file, name)),
        deck=_check(_need(raw, "deck", file, name), ("east", "west"), file, name, "deck"),
        set=str(raw.get("set", "base")),
        kind=_check(raw.get("kind", "regular"), ("regular", "queen", "comet"), file, name, "kind"),
        location=location,
        prestige=tuple(_check(p, PRESTIGE, file, name, "prestige") for p in raw["prestige"]),
        ops=tuple(_check(o, ops, file, name, "ops") for o in raw["ops"]),
        one_shot=one_shot,
        agents=tuple(agents),
        abilities=tuple(_check(a, abilities, file, name, "abilities") for a in raw["abilities"]),
        sell_value=int(raw.get("sell_value", 2)),
    )


def _side(raw: dict[str, Any], ops: dict[str, Any], name: str) -> SquareSide:
    return SquareSide(
        name=raw["name"],
        ops=tuple(_check(o, ops, "cards.yaml", name, "ops") for o in raw["ops"]),
        prestige=tuple(_check(p, PRESTIGE, "cards.yaml", name, "prestige")
                       for p in raw["prestige"]),
    )


def _levies(raw: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {s: (v["token"], v["religion"]) for s, v in raw.items()}


def _variants(raw: dict[str, Any], ops: dict[str, Any], name: str
              ) -> dict[str, dict[str, SquareSide]]:
    return {key: {side: _side(face, ops, name) for side, face in sides.items()}
            for key, sides in raw.get("variants", {}).items()}


def check_abilities(ability_ids: dict[str, Any]) -> None:
    """Every ability the data names has a rule site (the Ability enum), and back."""
    known = {a.value for a in Ability}
    for name in sorted(set(ability_ids) - known):
        raise CatalogError("abilities.yaml", name, "id", "no rule implements this ability")
    for name in sorted(known - set(ability_ids)):
        raise CatalogError("abilities.yaml", name, "id", "missing from the data")


def build_catalog(cards: dict[str, Any], board: dict[str, Any],
                  abilities: dict[str, Any]) -> Catalog:
    """Validated records from the three parsed data files."""
    ops = cards["op_catalog"]
    ability_ids = abilities["abilities"]
    check_abilities(ability_ids)
    empires = {
        key: Empire(key, e["name"], e["region"], tuple(e["adjacent"]),
                    tuple(e["adjacent_by_sea_border"]), tuple(e["borders"]), tuple(e["cities"]),
                    tuple(e.get("conditional_cities", ())))
        for key, e in board["empires"].items()
    }
    cities = {
        key: City(key, c["name"], _check(c["empire"], empires, "map.yaml", key, "empire"),
                  bool(c.get("capital")), bool(c.get("emporium")), _levies(c["levy"]),
                  _levies(c.get("levy_age_of_reformation_variant", {})))
        for key, c in board["cities"].items()
    }
    borders = {
        key: Border(key, b["name"], (b["empires"][0], b["empires"][1]), bool(b["sea"]))
        for key, b in board["borders"].items()
    }
    squares = {}
    for raw in cards["empire_squares"]:
        empire = _check(raw["empire"], empires, "cards.yaml", raw["id"], "empire")
        squares[empire] = EmpireSquare(raw["id"], empire, raw["region"],
                                       _side(raw["king"], ops, raw["id"]),
                                       _side(raw["republic"], ops, raw["id"]),
                                       _variants(raw, ops, raw["id"]))
    routes = {
        key: Route(key, r["trade_fair"], tuple(r["sequence"]))
        for key, r in board["trade_routes"].items()
    }
    banks = {
        key: Bank(key, b["colour"], b["start_concession_border"], int(b["turn_order_priority"]))
        for key, b in board["banks"]["list"].items()
    }
    return Catalog(
        cards={raw["id"]: _card(raw, ops, ability_ids, empires) for raw in cards["tableau_cards"]},
        squares=squares, empires=empires, cities=cities, borders=borders,
        emporia=board["emporia"], routes=routes, banks=banks,
        banks_by_map={k: list(v) for k, v in board["banks"]["available_by_map"].items()
                      if isinstance(v, list)},
        supply=board["token_supply"]["counts"], start_tokens=board["starting_tokens"],
        start_religions=board["start_religions"], ops=ops, abilities=ability_ids,
        victories={v["id"]: v for v in cards["victory_cards"]},
    )
