"""The event cards' effects (A.2, 7.2, 9.3.2; rulings R14-R18, R29, R38, R50), one function per
verb of the closed vocabulary in games/aor/cards.yaml, with the choices each one offers.

Choices pick opponents (9.3.2): Alchemist's Gold and Civil War spare a player protected by
Enlightened Ruler this turn; Alchemist's Gold also spares owners of Laws of Matter. The War
and military-advantage cards are handled by engine.aor.war and engine.aor.battle.
"""

from __future__ import annotations

from engine.aor.board import (
    marker_of,
    markers_in_stock,
    markers_on_board,
    province,
    put_marker,
    reduce_marker,
    remove_marker,
    remove_tokens,
)
from engine.aor.catalog import Catalog
from engine.aor.model import (
    State,
    active_players,
    all_advances,
    gain,
    misery_up,
    opponents,
    owns,
    pay,
    player,
)
from engine.aor.reach import in_play

PROTECT, WAR = "protect", "war"


# --- playability (7.2) ----------------------------------------------------------------------------


def obsolete_now(catalog: Catalog, state: State, card: str) -> list[str]:
    """The cards a play makes unplayable for the rest of the game (Long Bow and Gunpowder end
    Stirrups and Armor; Mongol Armies The Crusades; Religious Strife in Epoch 3 Papal Decree)."""
    rules = catalog.cards[card].interactions
    start = rules.get("obsoletes_from_epoch")
    if start is not None and state["epoch"] < int(start):
        return []
    return list(rules.get("obsoletes", ()))


def note_obsolete(catalog: Catalog, state: State, card: str) -> list[str]:
    cards = [c for c in obsolete_now(catalog, state, card) if c not in state["obsolete"]]
    state["obsolete"] = sorted(state["obsolete"] + cards)
    return cards


def playable(catalog: Catalog, state: State, card: str) -> bool:
    """Whether a card in hand may be played now: not made obsolete, and not a card whose
    targets all own the Advances that defeat it (Alchemist's Gold, Mysticism Abounds)."""
    if card in state["obsolete"]:
        return False
    need = catalog.cards[card].interactions.get("unplayable_when_all_own", ())
    players = active_players(state)
    return not (need and players and all(owns(state, p, a) for p in players for a in need))


def protected(catalog: Catalog, state: State, pid: str, card: str) -> bool:
    """Enlightened Ruler played by `pid` this turn shields them from `card` (A.2)."""
    return any(who == pid and catalog.cards[c].verb == PROTECT
               and card in catalog.cards[c].params["against"]
               for who, c in state["round"]["played"])


# --- choices --------------------------------------------------------------------------------------


def target_players(catalog: Catalog, state: State, pid: str, card: str) -> list[str]:
    """Opponents the card may pick (9.3.2): not protected, not owning a blocking Advance."""
    blockers = catalog.cards[card].interactions.get("blocked_by_advance", ())
    return [p for p in opponents(state, pid) if not protected(catalog, state, p, card)
            and not any(owns(state, p, a) for a in blockers)]


def seizable(catalog: Catalog, state: State, pid: str, card: str) -> list[str]:
    """The Crusades: a province of the card's region in play that can hold a marker and does
    not hold the player's already; only while the player has a marker in stock."""
    region = str(catalog.cards[card].params["region"])
    if markers_in_stock(catalog, state, pid) <= 0:
        return []
    return sorted(w for w, p in catalog.provinces.items()
                  if p.region == region and not p.satellite and in_play(catalog, state, w)
                  and marker_of(state, w) != pid)


def reducible(catalog: Catalog, state: State, pid: str, card: str) -> list[str]:
    """Rebellion, Pirates/Vikings: provinces with an opponent's marker within the card's limits
    (R17); a player protected from the card is spared."""
    params = catalog.cards[card].params
    found = []
    for where, record in state["provinces"].items():
        owner, data = record["marker"], catalog.provinces[where]
        if owner in (None, pid) or protected(catalog, state, owner, card):
            continue
        if params["coastal_only"] and not data.coastal:
            continue
        if data.region in params["exclude_regions"]:
            continue
        if params["exclude_capitals"] and data.capital:
            continue
        found.append(where)
    return sorted(found)


def reductions(catalog: Catalog, state: State, card: str) -> int:
    """How many markers the card reduces in the current Epoch."""
    counts = catalog.cards[card].params["count_by_epoch"]
    return int(counts[min(int(state["epoch"]), len(counts)) - 1])


def stricken_regions(catalog: Catalog, state: State) -> list[str]:
    """Black Death: a region I-VIII in play (R17, R29)."""
    regions = catalog.by_players[state["players_at_start"]].regions
    return [r for r in regions if not catalog.regions[r].overseas]


def groups_to_bar(catalog: Catalog, card: str) -> list[str]:
    return list(catalog.cards[card].params["groups"])


# --- effects --------------------------------------------------------------------------------------


def levy_cash(catalog: Catalog, state: State, card: str, victim: str) -> int:
    """Alchemist's Gold: half the recorded cash, rounded up, never more than the cash (R18)."""
    divisor = int(catalog.cards[card].params["divisor"])
    data = player(state, victim)
    amount = min(-(-int(data["recorded_cash"]) // divisor), int(data["cash"]))
    pay(state, victim, amount)
    return amount


def civil_war(catalog: Catalog, state: State, card: str, victim: str) -> bool:
    """Civil War: one misery step; a marker in the victim's capital becomes a token; the victim
    goes last in the Expansion Phase (R50). Returns whether the victim is still in the game."""
    misery_up(catalog, state, victim, int(catalog.cards[card].params["misery"]))
    if player(state, victim)["eliminated"]:
        return False
    capital = player(state, victim)["capital"]
    if capital and marker_of(state, capital) == victim:
        reduce_marker(state, capital)
    state["round"]["civil_war"] = sorted(set(state["round"]["civil_war"]) | {victim})
    return True


def civil_war_loss(catalog: Catalog, state: State, card: str, victim: str, what: str) -> int:
    """The victim's choice (R18): half the recorded cash (as Alchemist's Gold) or half of this
    turn's purchased tokens, rounded up, back to stock. Returns ducats or tokens lost."""
    if what == "cash":
        return levy_cash(catalog, state, card, victim)
    data = player(state, victim)
    lost = -(-int(data["purchased"]) // int(catalog.cards[card].params["divisor"]))
    data["purchased"] -= lost
    data["stock"] += lost
    return lost


def seize(catalog: Catalog, state: State, card: str, pid: str, where: str) -> None:
    """The Crusades: every other piece leaves the province; the player's marker goes there;
    one misery step."""
    for other in sorted(set(province(state, where)["tokens"]) | set(province(state, where)["new"])):
        remove_tokens(state, other, where)
    remove_marker(state, where)
    put_marker(catalog, state, pid, where)
    misery_up(catalog, state, pid, int(catalog.cards[card].params["misery"]))


def clear_region(catalog: Catalog, state: State, region: str) -> tuple[int, int]:
    """Black Death: every token in the region back to stock, every marker reduced to a token.
    Returns (tokens removed, markers reduced)."""
    removed = reduced = 0
    for where in sorted(state["provinces"]):
        if catalog.provinces[where].region != region:
            continue
        record = province(state, where)
        for pid in sorted(set(record["tokens"]) | set(record["new"])):
            removed += remove_tokens(state, pid, where)
        if marker_of(state, where):
            reduce_marker(state, where)
            reduced += 1
    return removed, reduced


def misery_all(catalog: Catalog, state: State, card: str) -> dict[str, int]:
    """Famine, Mysticism Abounds, Revolutionary Uprisings, Religious Strife: each active player
    not protected from the card moves base + per-item steps, never fewer than 0 (R38)."""
    params = catalog.cards[card].params
    moved = {}
    for pid in active_players(state):
        if protected(catalog, state, pid, card):
            continue
        owned = all_advances(state, pid)
        steps = int(params["base"])
        for group, per in dict(params.get("per_group_advance", {})).items():
            steps += per * sum(1 for a in owned if catalog.advances[a].group == group)
        for commodity, per in dict(params.get("per_commodity_province", {})).items():
            steps += per * sum(1 for w in markers_on_board(state, pid)
                               if commodity in catalog.provinces[w].commodities)
        for advance, per in dict(params.get("per_advance", {})).items():
            steps += per * (1 if advance in owned else 0)
        if steps > 0:
            misery_up(catalog, state, pid, steps)
            moved[pid] = steps
    return moved


def bar_group(state: State, pid: str, group: str) -> None:
    """Papal Decree (R14): the group is barred to every other player this turn."""
    state["round"]["papal_decree"] = {"player": pid, "group": group}


def gain_cash(catalog: Catalog, state: State, card: str, pid: str) -> int:
    amount = int(catalog.cards[card].params["amount"])
    gain(state, pid, amount)
    return amount
