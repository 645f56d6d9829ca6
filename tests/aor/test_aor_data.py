"""games/aor against the rulebook: B.1 dice, B.2 regions, A.1-A.3 cards, C Advances, the 9.4.1
shipping examples and the board rulings R23, R24, R27, R28 (docs/aor-rulings.md). The tables here
are transcribed from the rulebook apart from games/aor, so a slip in either shows as a difference."""

from __future__ import annotations

import copy
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.aor.catalog import Catalog, CatalogError, Coast, build_catalog
from engine.aor.dice import Cathedral, Reason, Roll, Terms, all_rolls, resolve, win_chance
from tests import fast_yaml

DATA = Path(__file__).resolve().parents[2] / "games" / "aor"
FILES = ("board", "cards", "advances", "tables")
COLUMNS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "orient", "new_world")
COMMODITIES = ("stone", "wool", "timber", "grain", "cloth", "wine", "metal", "fur", "silk", "spice",
               "gold", "ivory")


@cache
def parsed() -> dict[str, Any]:
    return {name: fast_yaml.safe_load((DATA / f"{name}.yaml").read_text(encoding="utf-8")) for name in FILES}


def build(data: dict[str, Any]) -> Catalog:
    return build_catalog(data["board"], data["cards"], data["advances"], data["tables"])


@pytest.fixture(scope="module")
def aor() -> Catalog:
    return build(parsed())


# --- B.1: the 216 rolls, every rank, the four cases -------------------------------------------

# rank: (B>W or G>P, B>W or G>=P, B>=W or G>P, B>=W or G>=P), as printed
B1 = {
    1: ("90.28", "100.0", "93.06", "100.0"),
    2: ("80.56", "90.28", "86.11", "93.06"),
    3: ("70.83", "80.56", "79.17", "86.11"),
    4: ("61.11", "70.83", "72.22", "79.17"),
    5: ("51.39", "61.11", "65.28", "72.22"),
    6: ("41.67", "51.39", "58.33", "65.28"),
}
CASES = ((False, False), (False, True), (True, False), (True, True))  # (advantage, Proselytism)


@pytest.mark.parametrize("rank", sorted(B1))
def test_b1_each_of_the_216_rolls_follows_9_5_2_and_sums_to_the_table(aor: Catalog, rank: int) -> None:
    rolls = list(all_rolls())
    assert len(set(rolls)) == 216
    for (advantage, proselytism), printed in zip(CASES, B1[rank], strict=True):
        for roll in rolls:
            green = roll.green >= rank if proselytism else roll.green > rank
            black = roll.black >= roll.white if advantage else roll.black > roll.white
            outcome = resolve(roll, Terms(rank, advantage, proselytism), aor.battle)
            assert outcome.attacker_wins == (green or black), (roll, rank, advantage, proselytism)
        chance = win_chance(Terms(rank, advantage, proselytism), aor.battle)
        assert round(chance * 100, 2) == Fraction(printed), (rank, advantage, proselytism)


def test_cathedral_settles_the_battle_whatever_the_dice_and_example_5(aor: Catalog) -> None:
    for roll in all_rolls():
        assert resolve(roll, Terms(6, cathedral=Cathedral.ATTACKER), aor.battle).attacker_wins
        held = resolve(roll, Terms(1, True, True, Cathedral.DEFENDER), aor.battle)
        assert not held.attacker_wins and held.reason is Reason.CATHEDRAL
    assert resolve(Roll(4, 1, 6), Terms(3), aor.battle).reason is Reason.GREEN  # 9.5.2 example 5
    assert not resolve(Roll(3, 2, 5), Terms(3), aor.battle).attacker_wins


def test_battle_ranks_are_order_of_play_spaces(aor: Catalog) -> None:
    assert aor.by_players[3].order_of_play == (2, 4, 6)  # section 2
    assert aor.by_players[6].order_of_play == (1, 2, 3, 4, 5, 6)  # B.1 positions
    assert set(aor.unverified) >= {"by_players.4.order_of_play", "by_players.5.order_of_play"}
    assert all(walk(parsed()["tables"], path) is not None for path in aor.unverified)


# --- B.2: region values --------------------------------------------------------------------------

B21 = {  # printed rows; columns I..VIII, Orient, New World
    "provinces": (6, 8, 11, 5, 8, 6, 13, 11, 3, 2),
    "tokens": (18, 25, 35, 13, 19, 24, 8, 28, 15, 12),
    "satellites": (5, 5, 5, 2, 3, 5, 3, 6, 0, 0),
    "income": (30, 55, 86, 36, 64, 69, 100, 97, 123, 41),
    "stone": (1, 0, 3, 0, 0, 0, 4, 0, 0, 0), "wool": (0, 4, 0, 2, 1, 0, 0, 2, 0, 0),
    "timber": (2, 1, 0, 0, 1, 0, 2, 1, 0, 0), "grain": (1, 1, 1, 0, 1, 0, 2, 1, 0, 1),
    "cloth": (0, 0, 3, 0, 0, 0, 3, 1, 0, 1), "wine": (0, 0, 1, 2, 0, 1, 1, 1, 0, 0),
    "metal": (1, 1, 1, 0, 0, 0, 1, 2, 0, 1), "fur": (1, 0, 1, 0, 2, 0, 0, 0, 0, 1),
    "silk": (0, 0, 0, 1, 1, 1, 0, 1, 2, 0), "spice": (0, 0, 0, 0, 1, 2, 0, 0, 3, 1),
    "gold": (0, 0, 1, 0, 1, 1, 0, 0, 1, 1), "ivory": (0, 1, 0, 0, 0, 1, 0, 2, 0, 0),
}
# R28: where the printed table disagrees with the scan-checked board, the board wins
MISPRINTS = {("tokens", "i"): 19, ("tokens", "vii"): 48, ("satellites", "vi"): 4, ("satellites", "viii"): 7}
# players: (provinces, commodity counts in COMMODITIES order, value of all, Stone-Fur, top four)
B22 = {
    3: (48, (4, 5, 4, 5, 5, 5, 4, 3, 6, 7, 4, 3), 1602, 623, 979),
    4: (59, (7, 5, 4, 6, 8, 6, 5, 4, 6, 7, 5, 3), 2122, 1053, 1069),
    5: (67, (7, 9, 5, 7, 8, 6, 6, 4, 6, 7, 5, 4), 2449, 1310, 1139),
    6: (73, (8, 9, 7, 8, 8, 6, 7, 5, 6, 7, 5, 4), 2737, 1598, 1139),
}


def counts(aor: Catalog, regions: set[str]) -> Counter[str]:
    return Counter(c for p in aor.provinces.values() if p.region in regions for c in p.commodities)


def value(aor: Catalog, tally: Counter[str], names: tuple[str, ...] = COMMODITIES) -> int:
    return sum(aor.commodities[c].value * tally[c] ** 2 for c in names)


def region_row(aor: Catalog, region: str) -> dict[str, int]:
    inside = [p for p in aor.provinces.values() if p.region == region]
    tally = counts(aor, {region})
    return {"provinces": sum(1 for p in inside if p.commodities),
            "tokens": sum(p.market for p in inside if p.commodities),
            "satellites": sum(1 for p in inside if p.satellite),
            "income": value(aor, tally), **{c: tally[c] for c in COMMODITIES}}


@pytest.mark.parametrize("column", range(len(COLUMNS)))
def test_b2_1_region_values(aor: Catalog, column: int) -> None:
    region = COLUMNS[column]
    expected = {row: MISPRINTS.get((row, region), printed[column]) for row, printed in B21.items()}
    assert region_row(aor, region) == expected


@pytest.mark.parametrize("players", sorted(B22))
def test_b2_2_values_by_player_count(aor: Catalog, players: int) -> None:
    provinces, per_commodity, total, cheap, dear = B22[players]
    tally = counts(aor, set(aor.by_players[players].regions))
    assert sum(1 for p in aor.provinces.values()
               if p.commodities and p.region in aor.by_players[players].regions) == provinces
    assert tuple(tally[c] for c in COMMODITIES) == per_commodity
    assert (value(aor, tally), value(aor, tally, COMMODITIES[:8]), value(aor, tally, COMMODITIES[8:])) \
        == (total, cheap, dear)


# --- A.1-A.3: the History cards ------------------------------------------------------------------

A1 = {  # commodities on the card: cards in Epochs 1, 2, 3
    ("stone",): (2, 0, 0), ("wool",): (2, 0, 0), ("timber",): (1, 2, 0), ("grain",): (0, 2, 0),
    ("cloth",): (0, 1, 1), ("wine",): (0, 1, 1), ("wine", "cloth"): (1, 0, 0), ("metal",): (1, 1, 1),
    ("fur",): (1, 0, 1), ("silk",): (1, 1, 1), ("spice",): (1, 1, 1), ("gold",): (0, 0, 1),
    ("ivory", "gold"): (1, 0, 0),
}
A1_ROWS = {  # the printed income progression (1 province, 2 provinces, ...)
    "stone": (1, 4, 9, 16, 25, 36, 49, 64, 81, 100), "wool": (2, 8, 18, 32, 50, 72, 98, 128, 162, 200, 242),
    "timber": (3, 12, 27, 48, 75, 108, 147, 192, 243), "grain": (4, 16, 36, 64, 100, 144, 196, 256, 324, 400),
    "cloth": (5, 20, 45, 80, 125, 180, 245, 320, 405, 500), "wine": (5, 20, 45, 80, 125, 180, 245, 320),
    "metal": (6, 24, 54, 96, 150, 216, 294, 384, 486), "fur": (7, 28, 63, 112, 175, 252, 343),
    "silk": (8, 32, 72, 128, 200, 288, 392, 512), "spice": (9, 36, 81, 144, 225, 324, 441, 576, 729),
    "gold": (10, 40, 90, 160, 250, 360, 490), "ivory": (10, 40, 90, 160, 250, 360),
}
A2 = {  # event: Epoch as printed, "(n)" circled (the card returns), "[n]" squared (it leaves)
    "enlightened_ruler": "(1)", "alchemists_gold": "(1)", "civil_war": "(1)", "the_crusades": "(1)",
    "rebellion": "(1)", "papal_decree": "(1)", "pirates_vikings": "(1)", "revolutionary_uprisings": "(1)",
    "famine": "(1)", "mysticism_abounds": "(1)", "war": "(1)", "stirrups": "(1)", "armor": "(1)",
    "black_death": "(2)", "religious_strife": "(2)", "mongol_armies": "[2]", "long_bow": "[2]",
    "gunpowder": "[2]",
}
A3 = {  # leader: (Epoch, {Advance letter: ducats})
    "charlemagne": (1, {"W": 20}), "dionysus_exiguus": (1, {"N": 20}),
    "rashid_ad_din": (1, {"R": 10, "N": 10}), "st_benedict": (1, {"E": 10, "N": 10}),
    "walter_the_penniless": (1, {"R": 20}),
    "christopher_columbus": (2, {"U": 30, "T": 30}), "desiderius_erasmus": (2, {"O": 20, "Q": 20}),
    "ahmed_ibn_majid": (2, {"T": 20, "Y": 20}), "johann_gutenberg": (2, {"O": 30}),
    "marco_polo": (2, {"R": 20, "Y": 20}), "nicolas_copernicus": (2, {"A": 20, "X": 20}),
    "prince_henry_the_navigator": (2, {"T": 20, "X": 20}), "william_caxton": (2, {"O": 20}),
    "andreas_vesalius": (3, {"B": 20, "D": 20}), "bartolome_de_las_casas": (3, {"Y": 30}),
    "galileo_galilei": (3, {"A": 20, "Q": 20}), "henry_oldenburg": (3, {"D": 30}),
    "leonardo_da_vinci": (3, {"P": 20, "B": 20, "Q": 20}), "isaac_newton": (3, {"C": 20, "D": 20}),
}


def test_sixty_four_cards_by_kind_and_epoch_and_a2_events(aor: Catalog) -> None:
    assert len(aor.cards) == 64
    assert Counter(c.kind for c in aor.cards.values()) == {"commodity": 27, "event": 18, "leader": 19}
    assert Counter(c.epoch for c in aor.cards.values()) == {1: 29, 2: 22, 3: 13}
    shape = {"returns": "({})", "leaves": "[{}]"}
    assert {c.id: shape[c.after_play].format(c.epoch) for c in aor.cards.values() if c.kind == "event"} == A2


def test_a1_commodity_cards_and_income_rows(aor: Catalog) -> None:
    tally: Counter[tuple[tuple[str, ...], int]] = Counter(
        (c.commodities, c.epoch) for c in aor.cards.values() if c.kind == "commodity")
    assert {k: tuple(tally[k, e] for e in (1, 2, 3)) for k in A1} == A1
    assert sum(tally.values()) == sum(map(sum, A1.values()))
    assert all(c.after_play == "returns" for c in aor.cards.values() if c.kind == "commodity")  # 7.1
    on_board = counts(aor, set(COLUMNS))
    for name, row in A1_ROWS.items():
        assert aor.commodities[name].value == row[0]
        assert row == tuple(row[0] * n * n for n in range(1, len(row) + 1))
        assert len(row) == on_board[name] + 2, name  # every province, plus Industry and shortage


def test_a3_leaders(aor: Catalog) -> None:
    letter = {a.letter: a.id for a in aor.advances.values()}
    leaders = {c.id: (c.epoch, c.discounts) for c in aor.cards.values() if c.kind == "leader"}
    assert leaders == {k: (e, {letter[x]: d for x, d in disc.items()}) for k, (e, disc) in A3.items()}
    assert all(aor.cards[k].after_play == "leaves" for k in A3)  # 7.3


def test_event_interactions_name_each_other(aor: Catalog) -> None:
    for card in aor.cards.values():
        for leader in card.interactions.get("boosts_leader", ()):
            assert aor.cards[leader].boosted_by == card.id
        if card.boosted_by:
            assert card.id in aor.cards[card.boosted_by].interactions["boosts_leader"]
    assert aor.cards["walter_the_penniless"].boosted == {"overland_east": 30}  # A.3
    for later in ("long_bow", "gunpowder"):
        assert set(aor.cards[later].interactions["obsoletes"]) == {"stirrups", "armor"}
    assert aor.cards["religious_strife"].interactions["obsoletes_from_epoch"] == 3
    assert aor.cards["mongol_armies"].interactions["obsoletes"] == ("the_crusades",)
    assert aor.cards["pirates_vikings"].params["count_by_epoch"] == (1, 2, 3)


def test_8_1_set_aside_cards(aor: Catalog) -> None:
    assert set(aor.set_aside) == {"the_crusades", "walter_the_penniless", "rashid_ad_din", "spice_e1",
                                  "silk_e1"}
    assert all(aor.cards[c].epoch == 1 for c in aor.set_aside)
    assert {n: p.set_aside_joins for n, p in aor.by_players.items()} == {
        3: "setup", 4: "setup", 5: "turn_2", 6: "turn_2"}


# --- C: the Advances -----------------------------------------------------------------------------

C = {  # letter: (group, cost, credit, prerequisite letters, misery change on purchase)
    "A": ("science", 30, 20, "", 0), "B": ("science", 60, 20, "", -1), "C": ("science", 90, 20, "", 0),
    "D": ("science", 120, 20, "", 0), "E": ("religion", 30, 20, "", 1), "F": ("religion", 60, 20, "", 1),
    "G": ("religion", 90, 20, "", 1), "H": ("religion", 120, 20, "F", 1),
    "I": ("commerce", 20, 10, "", 0), "J": ("commerce", 40, 10, "I", 0), "K": ("commerce", 50, 10, "J", -1),
    "L": ("commerce", 80, 10, "K", 0), "M": ("commerce", 110, 0, "L", 0),
    "N": ("communication", 30, 30, "", 0), "O": ("communication", 60, 20, "N", 0),
    "P": ("communication", 90, 10, "O", 0), "Q": ("communication", 120, 0, "P", 0),
    "R": ("exploration", 40, 20, "", 0), "S": ("exploration", 80, 20, "", 0),
    "T": ("exploration", 120, 20, "AS", 0), "U": ("exploration", 160, 0, "VT", 0),
    "V": ("civics", 20, 20, "", 0), "W": ("civics", 60, 30, "", 0), "X": ("civics", 100, 40, "", 0),
    "Y": ("civics", 150, 50, "R", 0), "Z": ("civics", 170, 60, "K", 0),
}
GROUP_TOTALS = {"science": 300, "religion": 300, "commerce": 300, "communication": 300,
                "exploration": 400, "civics": 500}


def test_c_twenty_six_advances(aor: Catalog) -> None:
    by_id = {a.id: a.letter for a in aor.advances.values()}
    got = {a.letter: (a.group, a.cost, a.credit, "".join(sorted(by_id[r] for r in a.requires)), a.misery)
           for a in aor.advances.values()}
    assert got == {k: (g, c, cr, "".join(sorted(req)), m) for k, (g, c, cr, req, m) in C.items()}
    assert len(aor.advances) == 26
    totals: Counter[str] = Counter()
    for advance in aor.advances.values():
        totals[advance.group] += advance.cost
    assert totals == GROUP_TOTALS and aor.groups == tuple(GROUP_TOTALS)
    owned: set[str] = set()  # the prerequisites have no cycle
    while len(owned) < len(aor.advances):
        ready = {a.id for a in aor.advances.values() if a.id not in owned and set(a.requires) <= owned}
        assert ready, f"a cycle among {sorted(set(aor.advances) - owned)}"
        owned |= ready


# --- the board: 4.1-4.6, 8.2, 9.4.1 and the rulings ---------------------------------------------

def test_adjacency_is_symmetric_and_names_known_spaces(aor: Catalog) -> None:
    for p in aor.provinces.values():
        for q in p.land:
            assert p.id in aor.provinces[q].land
        for q in p.coastal_neighbours:
            assert p.id in aor.provinces[q].coastal_neighbours
        assert set(p.seas) <= set(aor.seas) and set(p.supports) <= set(p.land) | set(p.coastal_neighbours)
    for sea, links in aor.sea_links.items():
        assert all(sea in aor.sea_links[other] for other in links)


def test_capitals_and_regions_by_player_count(aor: Catalog) -> None:
    capitals = {p.id: (p.region, p.market) for p in aor.provinces.values() if p.capital}
    assert capitals == {"venice": ("vii", 5), "genoa": ("vii", 5), "barcelona": ("iv", 3),
                        "paris": ("iii", 4), "london": ("ii", 5), "hamburg": ("i", 4)}
    order = ["venice", "genoa", "barcelona", "paris", "london", "hamburg"]
    mainland = ["viii", "vii", "vi", "v", "iv", "iii", "ii", "i"]
    for n, count in aor.by_players.items():  # 8.2
        assert list(count.capitals) == order[:n]
        assert set(count.regions) == set(mainland[:n + 2]) | {"orient", "new_world"}


def test_r23_loire_has_no_commodity(aor: Catalog) -> None:
    loire = aor.provinces["loire"]
    assert (loire.region, loire.market, loire.commodities, loire.printed_commodity) == ("iii", 3, (), "wine")
    assert sum(len(p.commodities) for p in aor.provinces.values()) == 80  # section 3: control cards


def test_r24_overseas_boxes_are_coastal_without_neighbours(aor: Catalog) -> None:
    boxes = {p.id for p in aor.provinces.values() if aor.regions[p.region].overseas}
    assert boxes == {"china", "east_indies", "india", "north_america", "south_america"}
    for box in boxes:
        p = aor.provinces[box]
        assert p.coastal and not (p.land or p.coastal_neighbours or p.seas or p.satellite)
    for ordinary in ("west_africa", "iceland"):  # 4.1: coastal provinces across one sea
        assert not aor.regions[aor.provinces[ordinary].region].overseas and aor.provinces[ordinary].seas
    assert aor.regions["v"].entry_requires == ("overland_east",)


def ship_reach(aor: Catalog, start: str, steps: int, heavens: bool = False,
               one_coast: bool = False) -> set[str]:
    """Provinces a galley fleet reaches within `steps` coastal provinces (9.4.1). A ship passes a
    province only along one of its coasts (R27); with The Heavens one sea counts as a step."""
    def coasts(pid: str) -> tuple[Coast, ...]:
        p = aor.provinces[pid]
        return (Coast(p.coastal_neighbours, p.seas),) if one_coast and p.coasts else p.coasts

    reached: set[str] = set()
    frontier = [(start, coast, False) for coast in coasts(start)]
    for _ in range(steps):
        following: list[tuple[str, Coast, bool]] = []
        for place, coast, crossed in frontier:
            if place in aor.seas:
                exits = [p.id for p in aor.provinces.values() if place in p.seas]
            else:
                exits = list(coast.coastal)
                following += [(sea, Coast((), ()), True) for sea in coast.seas if heavens and not crossed]
            for target in exits:
                reached.add(target)
                following += [(target, c, crossed) for c in coasts(target) if place in c.coastal + c.seas]
        frontier = following
    return reached - {start}


def test_9_4_1_shipping_examples_and_r27_two_coasts(aor: Catalog) -> None:
    two = {"naples", "rome", "portsmouth", "chester"}
    assert {p.id for p in aor.provinces.values() if len(p.coasts) > 1} == two
    expected = {"edinburg", "york", "portsmouth", "cornwall", "st_malo", "paris", "bruges", "amsterdam"}
    assert ship_reach(aor, "london", 2) == expected
    assert ship_reach(aor, "london", 2, one_coast=True) == expected | {"chester"}  # why R27 matters
    along_coast = ship_reach(aor, "stockholm", 2)
    assert "stettin" in along_coast and not {"danzig", "riga"} & along_coast
    assert {"danzig", "riga"} <= ship_reach(aor, "stockholm", 2, heavens=True)


def test_9_5_2_example_provinces(aor: Catalog) -> None:
    p = aor.provinces
    assert (p["fez"].market, p["oran"].satellite, "fez" in p["oran"].supports) == (2, True, True)
    assert (p["belgrade"].market, p["belgrade"].region) == (2, "vii")
    assert (p["bari"].satellite, p["bari"].region, p["tunis"].market) == (True, "vii", 4)


# --- tables: 9.4.3, 9.6.1 and the unverified values ----------------------------------------------

def stabilize(aor: Catalog, misery: int, cost: int) -> int:
    """9.4.3: move space by space until the rise covers the unpaid cost."""
    index = aor.misery_track.index(misery)
    while aor.misery_track[index] - misery < cost:
        index += 1
    return aor.misery_track[index]


def test_9_4_3_stabilization_fits_the_misery_track_and_9_6_1_roll_table(aor: Catalog) -> None:
    assert stabilize(aor, 90, 15) == 125 and stabilize(aor, 100, 21) == 125
    assert len(aor.misery_track) == 26 and aor.misery_track[0] == 0 and "misery.track" in aor.unverified
    rolls: dict[int, set[str]] = {}
    for commodity in aor.commodities.values():
        rolls.setdefault(commodity.roll, set()).add(commodity.id)
    assert rolls == {2 + i: {c} for i, c in enumerate(COMMODITIES[:10])} | {12: {"gold", "ivory"}}


# --- load-time errors name the file, the entry and the field -------------------------------------

def walk(node: Any, path: str) -> Any:
    """Follow a dotted path; a step into a list picks the entry with that `id` or `players`."""
    for step in path.split("."):
        node = node[step] if isinstance(node, dict) else next(
            x for x in node if step in (x.get("id"), str(x.get("players"))))
    return node


@pytest.mark.parametrize(("where", "value", "expected"), [
    ("cards.cards.war.verb", "teleport", "cards.yaml: war: verb: unknown id 'teleport'"),
    ("cards.cards.war.params.bogus", 1, "cards.yaml: war.params: bogus: unknown field"),
    ("cards.cards.civil_war.params.choose", "planet", "cards.yaml: civil_war.params: choose: unknown id"),
    ("cards.cards.charlemagne.discounts.flight", 10, "cards.yaml: charlemagne: discounts: unknown id"),
    ("advances.advances.cathedral.requires", ["alchemy"], "advances.yaml: cathedral: requires: unknown id"),
    ("board.adjacency.land", [["abasgia", "atlantis"]], "board.yaml: adjacency: land: unknown id"),
    ("board.provinces.danzig.commodities", ["tea"], "board.yaml: danzig: commodities: unknown id"),
    ("tables.by_players.3.capitals", ["danzig"], "tables.yaml: players 3: capitals: unknown id"),
    ("tables.battle.black_vs_white", "maybe", "tables.yaml: battle: black_vs_white: unknown id"),
])
def test_bad_data_is_refused_with_its_place(where: str, value: Any, expected: str) -> None:
    data, (path, _, last) = copy.deepcopy(parsed()), where.rpartition(".")
    walk(data, path)[last] = value
    with pytest.raises(CatalogError, match=f"^{expected}"):
        build(data)
