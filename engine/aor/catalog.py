"""The Age of Renaissance components as typed records, built from the parsed games/aor files.

Unknown fields, unknown ids and broken references fail with a CatalogError naming the file, the
entry and the field. tests/aor checks the facts against the rulebook; this checks the data holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from engine.aor.dice import BattleRules, Compare

KINDS = ("commodity", "event", "leader")
AFTER_PLAY = ("returns", "leaves")
CHOICES = ("opponent", "province", "region", "group")
JOINS = ("setup", "turn_2")
EPOCHS = (1, 2, 3)
VERB_PARAMS = {  # the closed vocabulary of event verbs -> (required, optional) parameters
    "protect": ("against", ""),
    "levy_cash": ("choose divisor", ""),
    "civil_war": ("choose misery divisor", ""),
    "seize_province": ("choose region misery", ""),
    "reduce_markers": ("choose count_by_epoch coastal_only exclude_regions exclude_capitals", ""),
    "bar_group": ("choose groups", ""),
    "misery_all": ("base", "per_group_advance per_commodity_province per_advance"),
    "war": ("choose nationalism military_advantage winner_misery loser_misery tie_misery", ""),
    "military_advantage": ("rank strength", ""),
    "clear_region": ("choose", ""),
    "gain_cash": ("amount", ""),
}
CARD_FIELDS = "name epoch after_play commodities verb params interactions discounts boosted"
INTERACTIONS = ("cancels obsoletes obsoletes_from_epoch blocked_by_advance unplayable_when_all_own "
                "strength_negated_by boosts_leader")
# parameter or interaction -> its value: ids of a pool, `*` a list of them, `:` a map of them to
# integers; `bool`, `epoch`, `epochs` (one integer per Epoch); anything not listed is an integer
VALUE_KINDS = {
    "against": "cards*", "choose": "choices", "region": "regions", "exclude_regions": "regions*",
    "groups": "groups*", "per_group_advance": "groups:", "per_commodity_province": "commodities:",
    "per_advance": "advances:", "count_by_epoch": "epochs", "coastal_only": "bool",
    "exclude_capitals": "bool", "cancels": "cards*", "obsoletes": "cards*", "discounts": "advances:",
    "strength_negated_by": "cards*", "boosts_leader": "leaders*", "blocked_by_advance": "advances*",
    "unplayable_when_all_own": "advances*", "obsoletes_from_epoch": "epoch",
}
TABLES = {  # tables.yaml section -> its fields
    "players": "min max", "start": "cash tokens markers misery deal keep",
    "payout": "industry shortage surplus", "prices": "urban_ascendancy_card card_for_tokens",
    "income": "base middle_class", "stabilization": "middle_class_divisor",
    "shortage_surplus": "rolls_per_turn shortage_green surplus_green level_range wind_watermill",
    "misery_relief": "groups first_two first_three all", "fleet": "box_cost boxes_per_turn",
    "misery": "track eliminated_past", "patronage": "claims_per_slot",
}
BATTLE = "green_vs_rank green_vs_rank_with_proselytism black_vs_white black_vs_white_with_military_advantage"


class CatalogError(ValueError):
    def __init__(self, file: str, entry: str, field: str, problem: str) -> None:
        self.file, self.entry, self.field = file, entry, field
        super().__init__(f"{file}: {entry}: {field}: {problem}")


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    overseas: bool
    entry_requires: tuple[str, ...]  # Advances needed to place tokens there


@dataclass(frozen=True)
class Coast:  # one stretch of a province's coast; ships pass through along one only (R27)
    coastal: tuple[str, ...]
    seas: tuple[str, ...]


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    region: str
    market: int
    commodities: tuple[str, ...]
    capital: bool
    satellite: bool
    coastal: bool
    supports: tuple[str, ...]  # satellites only: the provinces their arrows point to
    coasts: tuple[Coast, ...]  # none inland, else one per stretch of coast
    printed_commodity: str | None  # Loire's Wine, for an option only (R23)
    land: tuple[str, ...]
    coastal_neighbours: tuple[str, ...]
    seas: tuple[str, ...]


@dataclass(frozen=True)
class Commodity:
    id: str
    name: str
    value: int
    roll: int  # the black + white total that names it in the shortage/surplus roll


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    kind: str  # commodity | event | leader
    epoch: int
    after_play: str  # returns | leaves
    commodities: tuple[str, ...]  # commodity cards: the commodities it may pay
    verb: str | None  # events: a key of VERB_PARAMS
    params: dict[str, Any]
    interactions: dict[str, Any]
    discounts: dict[str, int]  # leaders: Advance id -> ducats
    boosted_by: str | None  # the card that, in play, replaces `discounts` by `boosted`
    boosted: dict[str, int]


@dataclass(frozen=True)
class Advance:
    id: str
    letter: str
    name: str
    group: str
    cost: int
    credit: int
    requires: tuple[str, ...]
    misery: int  # change on purchase


@dataclass(frozen=True)
class PlayerCount:
    players: int
    capitals: tuple[str, ...]
    regions: tuple[str, ...]
    order_of_play: tuple[int, ...]  # the Order-of-Play spaces in use, first player first
    protected_leaders: int
    set_aside_joins: str  # setup | turn_2


@dataclass(frozen=True)
class FleetStage:
    id: str
    capacities: tuple[int, ...]
    entered_by: str | None
    capacity_counts: str  # tokens | overseas_provinces


@dataclass(frozen=True)
class Catalog:
    regions: dict[str, Region]
    seas: dict[str, str]  # id -> name
    sea_links: dict[str, tuple[str, ...]]
    provinces: dict[str, Province]
    commodities: dict[str, Commodity]
    cards: dict[str, Card]
    groups: tuple[str, ...]
    advances: dict[str, Advance]
    by_players: dict[int, PlayerCount]
    fleet: tuple[FleetStage, ...]
    battle: BattleRules
    misery_track: tuple[int, ...]
    set_aside: tuple[str, ...]
    numbers: dict[str, dict[str, Any]]  # the plain sections of tables.yaml, validated
    unverified: dict[str, str]  # tables.yaml path -> where its value comes from, and the ruling


class _Entry:
    """One mapping of a data file with its allowed fields; every accessor names the field on error."""

    def __init__(self, file: str, raw: Any, required: str, optional: str = "", name: str = "") -> None:
        self.file, self.name = file, name or (str(raw.get("id", f"players {raw.get('players')}"))
                                              if isinstance(raw, dict) else "?")
        if not isinstance(raw, dict):
            self.fail("-", "expected a mapping")
        self.raw: dict[str, Any] = raw
        need, may = set(required.split()), set(optional.split())
        for key in sorted(need - raw.keys()):
            self.fail(key, "missing")
        for key in sorted(str(k) for k in raw.keys() - need - may):
            self.fail(key, "unknown field")

    def fail(self, field: str, problem: str) -> NoReturn:
        raise CatalogError(self.file, self.name, field, problem)

    def integer(self, key: str, value: Any = None) -> int:
        value = self.raw[key] if value is None else value
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"expected an integer, got {value!r}")
        return value

    def text(self, key: str) -> str:
        return str(self.raw[key]) if isinstance(self.raw[key], str) else self.fail(key, "expected text")

    def flag(self, key: str) -> bool:
        return bool(self.raw[key]) if isinstance(self.raw[key], bool) else self.fail(key, "expected a bool")

    def epoch(self, key: str) -> int:
        return self.integer(key) if self.raw[key] in EPOCHS else self.fail(key, "no such Epoch")

    def ref(self, key: str, allowed: Any, value: Any = None) -> str:
        value = self.raw[key] if value is None else value
        if not isinstance(value, str) or value not in allowed:
            self.fail(key, f"unknown id {value!r}")
        return value

    def refs(self, key: str, allowed: Any, values: Any = None) -> tuple[str, ...]:
        values = self.raw.get(key, []) if values is None else values
        if not isinstance(values, list):
            self.fail(key, "expected a list")
        return tuple(self.ref(key, allowed, v) for v in values)

    def ints(self, key: str) -> tuple[int, ...]:
        if not isinstance(self.raw[key], list):
            self.fail(key, "expected a list")
        return tuple(self.integer(key, v) for v in self.raw[key])

    def value(self, key: str, ids: dict[str, Any]) -> Any:
        """A card parameter or interaction, checked by the kind VALUE_KINDS gives it."""
        kind, value = VALUE_KINDS.get(key, "int"), self.raw[key]
        if kind in ("bool", "epoch", "int"):
            return {"bool": self.flag, "epoch": self.epoch, "int": self.integer}[kind](key)
        if kind == "epochs":
            counts = self.ints(key)
            return counts if len(counts) == len(EPOCHS) else self.fail(key, "one count per Epoch")
        if kind.endswith("*"):
            return self.refs(key, ids[kind[:-1]])
        if kind.endswith(":"):
            if not isinstance(value, dict):
                self.fail(key, "expected a mapping")
            return {self.ref(key, ids[kind[:-1]], k): self.integer(key, v) for k, v in value.items()}
        return self.ref(key, ids[kind])

    def plain(self, pools: dict[str, Any]) -> dict[str, Any]:
        """Numbers, lists of numbers, and ids or lists of ids from the pool named by the key."""
        return {key: self.ref(key, pools.get(key, ())) if isinstance(value, str) else
                self.refs(key, pools.get(key, ())) if key in pools else
                self.ints(key) if isinstance(value, list) else self.integer(key)
                for key, value in self.raw.items()}


def _entries(raws: Any, required: str, file: str, section: str, optional: str = "") -> list[_Entry]:
    if not isinstance(raws, list):
        raise CatalogError(file, section, "-", "expected a list")
    entries, seen = [_Entry(file, raw, required, optional) for raw in raws], set()
    for entry in entries:
        if "id" in entry.raw and entry.name in seen:
            entry.fail("id", "duplicate")
        seen.add(entry.name)
    return entries


def _ids(raws: Any) -> set[str]:
    return {str(raw.get("id")) for raw in raws if isinstance(raw, dict)} if isinstance(raws, list) else set()


def _advances(data: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, Advance], dict[str, Any]]:
    f = "advances.yaml"
    _Entry(f, data, "schema_version groups advances institutional_research", name=f)
    groups = tuple(e.text("id") for e in _entries(data["groups"], "id name", f, "groups"))
    ids, fields = _ids(data["advances"]), "id letter name group cost credit requires misery"
    advances = {e.text("id"): Advance(
        e.text("id"), e.text("letter"), e.text("name"), e.ref("group", groups), e.integer("cost"),
        e.integer("credit"), e.refs("requires", ids - {e.text("id")}), e.integer("misery"))
        for e in _entries(data["advances"], fields, f, "advances")}
    e = _Entry(f, data["institutional_research"], "advance discount groups", name="institutional_research")
    return groups, advances, e.plain({"advance": advances, "groups": groups})


def _links(data: Any, provinces: set[str], seas: set[str]) -> dict[str, dict[str, set[str]]]:
    kinds = {"land": (provinces, provinces), "coastal": (provinces, provinces),
             "province_sea": (provinces, seas), "sea_sea": (seas, seas)}
    adjacency = _Entry("board.yaml", data, " ".join(kinds), name="adjacency")
    links: dict[str, dict[str, set[str]]] = {kind: {} for kind in kinds}
    for kind, (left, right) in kinds.items():
        for pair in adjacency.raw[kind]:
            if not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]:
                adjacency.fail(kind, f"{pair!r} is not a pair of two ids")
            a, b = adjacency.ref(kind, left, pair[0]), adjacency.ref(kind, right, pair[1])
            if b in links[kind].get(a, set()):
                adjacency.fail(kind, f"{pair!r} is listed twice")
            links[kind].setdefault(a, set()).add(b)
            links[kind].setdefault(b, set()).add(a)
    return links


def _province(e: _Entry, regions: dict[str, Region], commodities: Any, links: Any) -> Province:
    pid, coastal, satellite = e.text("id"), e.flag("coastal"), e.flag("satellite")
    land, water = links["land"].get(pid, set()), links["coastal"].get(pid, set())
    seas = links["province_sea"].get(pid, set())
    coasts = tuple(Coast(e.refs("coasts", water, c.get("coastal")), e.refs("coasts", seas, c.get("seas")))
                   for c in e.raw.get("coasts", []))
    if coasts and (len(coasts) < 2 or set().union(*(c.coastal for c in coasts)) != water
                   or set().union(*(c.seas for c in coasts)) != seas):
        e.fail("coasts", "two or more coasts must share out exactly the coastal neighbours and seas")
    if not coastal and (water or seas):
        e.fail("coastal", "an inland province has coastal neighbours or seas")
    supports = e.refs("supports", land | water)
    if satellite != bool(supports) or satellite and (e.integer("market") != 1 or e.raw["commodities"]):
        e.fail("satellite", "a satellite has market 1, no commodity and at least one arrow; no other")
    printed = e.raw.get("printed_commodity")
    return Province(
        pid, e.text("name"), e.ref("region", regions), e.integer("market"),
        e.refs("commodities", commodities), e.flag("capital"), satellite, coastal, supports,
        coasts or ((Coast(tuple(sorted(water)), tuple(sorted(seas))),) if coastal else ()),
        None if printed is None else e.ref("printed_commodity", commodities),
        tuple(sorted(land)), tuple(sorted(water)), tuple(sorted(seas)))


def _board(data: Any, commodities: dict[str, Commodity], advances: dict[str, Advance]) -> Any:
    f = "board.yaml"
    top = _Entry(f, data, "schema_version source regions sea_zones provinces adjacency", name=f)
    regions = {e.text("id"): Region(e.text("id"), e.text("name"), e.flag("overseas"),
                                    e.refs("entry_requires", advances))
               for e in _entries(top.raw["regions"], "id name overseas entry_requires", f, "regions")}
    seas = {e.text("id"): e.text("name") for e in _entries(top.raw["sea_zones"], "id name", f, "sea_zones")}
    entries = _entries(top.raw["provinces"], "id name region market commodities capital satellite coastal",
                       f, "provinces", "supports coasts printed_commodity")
    ids = {e.text("id") for e in entries}
    if ids & (set(seas) | set(regions)):
        top.fail("provinces", f"ids shared with seas or regions: {sorted(ids & (set(seas) | set(regions)))}")
    links = _links(top.raw["adjacency"], ids, set(seas))
    provinces = {e.text("id"): _province(e, regions, commodities, links) for e in entries}
    return regions, seas, {s: tuple(sorted(links["sea_sea"].get(s, set()))) for s in seas}, provinces


def _card(e: _Entry, ids: dict[str, Any]) -> Card:
    kind, f = e.ref("kind", KINDS), "cards.yaml"
    need = {"commodity": ("commodities", ""), "event": ("verb params", "interactions"),
            "leader": ("discounts", "boosted")}[kind]
    e = _Entry(f, e.raw, "id name kind epoch after_play " + need[0], need[1])
    verb: str | None = None
    params, interactions, discounts, boosted_by, boosted = {}, {}, {}, None, {}
    if kind == "event":
        verb = e.ref("verb", VERB_PARAMS)
        p = _Entry(f, e.raw["params"], *VERB_PARAMS[verb], name=f"{e.name}.params")
        params = {key: p.value(key, ids) for key in sorted(p.raw)}
        i = _Entry(f, e.raw.get("interactions", {}), "", INTERACTIONS, f"{e.name}.interactions")
        interactions = {key: i.value(key, ids) for key in sorted(i.raw)}
    if kind == "leader":
        discounts = e.value("discounts", ids)
        if "boosted" in e.raw:
            b = _Entry(f, e.raw["boosted"], "by discounts", name=f"{e.name}.boosted")
            boosted_by, boosted = b.ref("by", ids["cards"]), b.value("discounts", ids)
    return Card(e.text("id"), e.text("name"), kind, e.epoch("epoch"), e.ref("after_play", AFTER_PLAY),
                e.refs("commodities", ids["commodities"]), verb, params, interactions, discounts,
                boosted_by, boosted)


def _by_players(e: _Entry, provinces: dict[str, Province], regions: Any) -> PlayerCount:
    players, spaces = e.integer("players"), e.ints("order_of_play")
    capitals = e.refs("capitals", [p.id for p in provinces.values() if p.capital])
    if len(capitals) != players or len(spaces) != players or list(spaces) != sorted(set(spaces)) \
            or not set(spaces) <= set(range(1, 7)):
        e.fail("order_of_play", "one capital and one space per player; spaces rise strictly within 1-6")
    return PlayerCount(players, capitals, e.refs("regions", regions), spaces,
                       e.integer("protected_leaders"), e.ref("set_aside_joins", JOINS))


def build_catalog(board: dict[str, Any], cards: dict[str, Any], advances: dict[str, Any],
                  tables: dict[str, Any]) -> Catalog:
    """Validated records from the four parsed data files of games/aor."""
    f = "tables.yaml"
    t = _Entry(f, tables, "schema_version by_players commodities set_aside fleet_stages battle unverified "
               + " ".join(TABLES), name=f)
    sec = {key: _Entry(f, t.raw[key], fields, name=key) for key, fields in TABLES.items()}
    groups, advance_map, research = _advances(advances)
    commodities = {e.text("id"): Commodity(e.text("id"), e.text("name"), e.integer("value"),
                                           e.integer("roll"))
                   for e in _entries(t.raw["commodities"], "id name value roll", f, "commodities")}
    regions, seas, sea_links, provinces = _board(board, commodities, advance_map)
    c = _Entry("cards.yaml", cards, "schema_version cards", name="cards.yaml")
    ids: dict[str, Any] = {
        "cards": _ids(c.raw["cards"]), "choices": CHOICES, "regions": regions, "groups": groups,
        "leaders": _ids([r for r in c.raw["cards"] if isinstance(r, dict) and r.get("kind") == "leader"]),
        "commodities": commodities, "advances": advance_map}
    card_map = {e.text("id"): _card(e, ids)
                for e in _entries(c.raw["cards"], "id kind", "cards.yaml", "cards", CARD_FIELDS)}
    by_players = {p.players: p for p in (_by_players(e, provinces, regions) for e in _entries(
        t.raw["by_players"], "players capitals regions order_of_play protected_leaders set_aside_joins",
        f, "by_players"))}
    misery, battle = sec["misery"], _Entry(f, t.raw["battle"], BATTLE + " cathedral_decides", name="battle")
    track = misery.ints("track")
    if list(track) != sorted(set(track)) or track[-1] != misery.integer("eliminated_past"):
        misery.fail("track", "spaces must rise strictly and end at the elimination space")
    green, green_g, black, black_m = (Compare(battle.ref(k, list(Compare))) for k in BATTLE.split())
    unverified = {e.text("path"): f"{e.text('source')} ({e.text('ruling')})"
                  for e in _entries(t.raw["unverified"], "path source ruling", f, "unverified")}
    numbers = {key: sec[key].plain({"wind_watermill": commodities, "groups": groups}) for key in TABLES}
    numbers["institutional_research"] = research
    stages = _entries(t.raw["fleet_stages"], "id capacities entered_by capacity_counts", f, "fleet_stages")
    return Catalog(
        regions=regions, seas=seas, sea_links=sea_links, provinces=provinces, commodities=commodities,
        cards=card_map, groups=groups, advances=advance_map, by_players=by_players,
        fleet=tuple(FleetStage(e.text("id"), e.ints("capacities"),
                               None if e.raw["entered_by"] is None else e.ref("entered_by", advance_map),
                               e.ref("capacity_counts", ("tokens", "overseas_provinces"))) for e in stages),
        battle=BattleRules(green, green_g, black, black_m, battle.flag("cathedral_decides")),
        misery_track=track, set_aside=t.refs("set_aside", card_map), numbers=numbers,
        unverified=unverified,
    )
