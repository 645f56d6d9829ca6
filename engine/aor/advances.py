"""The Acquisition Phase's purchases (9.4.1, 9.4.2, 9.3.3, C; rulings R12-R14): the fleet, the
Advances with credits, Institutional Research, leaders, Patronage, Printed Word, Papal Decree.

Legality is membership: `purchase_options` lists every Advance a player may buy now, each with
the leader it would use and its price; `buy_advance` accepts only a listed one.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from engine.aor.catalog import Catalog
from engine.aor.memo import kept
from engine.aor.model import (
    State,
    add_advance,
    all_advances,
    discard,
    gain,
    misery_down,
    misery_up,
    owns,
    pay,
    played_this_turn,
    player,
)
from engine.aor.reasons import why
from engine.core.errors import IllegalOrder, InvariantViolation, Reason

PATRONAGE, PRINTED_WORD = "patronage", "printed_word"


@dataclass(frozen=True)
class Purchase:
    advance: str
    leader: str | None
    price: int

    @property
    def line(self) -> str:
        return f"buy {self.advance}" + (f" with {self.leader}" if self.leader else "")


# --- the fleet (9.4.1) ----------------------------------------------------------------------------


def next_fleet_box(catalog: Catalog, state: State, pid: str) -> tuple[str, int] | None:
    """The box one step up the fleet's own row; none from the last box (no jump between rows)."""
    data = player(state, pid)["fleet"]
    if data["stage"] == "none":
        first = next(s for s in catalog.fleet if s.entered_by is None)
        return first.id, 1
    stage = next(s for s in catalog.fleet if s.id == data["stage"])
    return (stage.id, data["box"] + 1) if data["box"] < len(stage.capacities) else None


def can_raise_fleet(catalog: Catalog, state: State, pid: str) -> bool:
    cost = catalog.numbers["fleet"]["box_cost"]
    return (pid not in state["round"]["fleet_raised"] and player(state, pid)["cash"] >= cost
            and next_fleet_box(catalog, state, pid) is not None)


def raise_fleet(catalog: Catalog, state: State, pid: str) -> None:
    """One box a turn for 10 ducats, before any Advance is bought (9.4)."""
    step = next_fleet_box(catalog, state, pid)
    if not can_raise_fleet(catalog, state, pid) or step is None:
        raise IllegalOrder(f"{pid} cannot raise the fleet now")
    pay(state, pid, catalog.numbers["fleet"]["box_cost"])
    player(state, pid)["fleet"] = {"stage": step[0], "box": step[1]}
    state["round"]["fleet_raised"] = sorted(state["round"]["fleet_raised"] + [pid])


# --- leaders (9.3.3, A.3) -------------------------------------------------------------------------


def leader_discounts(catalog: Catalog, state: State, leader: str) -> dict[str, int]:
    """A leader's discounts, raised while its booster is played this turn (R37)."""
    card = catalog.cards[leader]
    if card.boosted_by and played_this_turn(state, card.boosted_by):
        return dict(card.boosted)
    return dict(card.discounts)


def leader_slot(state: State, leader: str) -> int:
    return next(i for i, (_, card) in enumerate(state["round"]["leaders"]) if card == leader)


def leader_player(state: State, leader: str) -> str:
    return str(next(who for who, card in state["round"]["leaders"] if card == leader))


def claims_left(catalog: Catalog, state: State, leader: str) -> int | None:
    """E: how many more Patronage claims a leader allows (None: any number). The first leaders
    played lie on the protected spaces (two with 3-4 players, three with 5-6)."""
    slot = leader_slot(state, leader)
    if slot >= catalog.by_players[state["players_at_start"]].protected_leaders:
        return None
    allowed = catalog.numbers["patronage"]["claims_per_slot"][slot]
    return int(allowed) - int(state["round"]["claims"].get(leader, 0))


def play_leader(catalog: Catalog, state: State, pid: str, leader: str) -> int:
    """9.3.3: a played leader joins this turn's display; with Printed Word its owner is paid the
    discounts on Advances bought in earlier turns (O). Returns the rebate paid."""
    if catalog.cards[leader].kind != "leader":
        raise InvariantViolation(f"{leader} is not a leader")
    state["round"]["leaders"].append([pid, leader])
    state["round"]["played"].append([pid, leader])
    if not owns(state, pid, PRINTED_WORD):
        return 0
    rebate = sum(amount for advance, amount in leader_discounts(catalog, state, leader).items()
                 if advance in player(state, pid)["advances"])
    gain(state, pid, rebate)
    return rebate


def usable_leaders(catalog: Catalog, state: State, pid: str, advance: str) -> list[str]:
    """Leaders whose discount the player may use on this Advance: their own, or with Patronage
    another's with a claim left (R13: one leader per Advance; Printed Word never pays for it)."""
    usable = []
    for who, leader in state["round"]["leaders"]:
        if leader_discounts(catalog, state, leader).get(advance, 0) <= 0:
            continue
        left = claims_left(catalog, state, leader)
        if who == pid or owns(state, pid, PATRONAGE) and (left is None or left > 0):
            usable.append(leader)
    return usable


def leaders_leave(catalog: Catalog, state: State) -> None:
    """9.3.3, 7.3: at the end of the Acquisition Phase the played leaders leave the game."""
    for _, leader in state["round"]["leaders"]:
        discard(catalog, state, leader)
    state["round"]["leaders"] = []


# --- Advances (9.4.2, C) --------------------------------------------------------------------------


def papal_decree_bars(catalog: Catalog, state: State, pid: str, advance: str) -> bool:
    """R14: a Papal Decree in force bars every player but its author from the named group; a card
    played this turn that cancels it (Religious Strife) lifts the bar."""
    decree = state["round"]["papal_decree"]
    if not decree or decree["player"] == pid or catalog.advances[advance].group != decree["group"]:
        return False
    return not any("papal_decree" in catalog.cards[card].interactions.get("cancels", ())
                   for _, card in state["round"]["played"])


def credit(catalog: Catalog, state: State, pid: str, advance: str) -> int:
    """R12: the credits of the group's Advances bought in earlier turns; Institutional Research's
    extra discount from the moment it is owned."""
    group = catalog.advances[advance].group
    total = sum(catalog.advances[a].credit for a in player(state, pid)["advances"]
                if catalog.advances[a].group == group)
    research = catalog.numbers["institutional_research"]
    if owns(state, pid, research["advance"]) and group in research["groups"]:
        total += research["discount"]
    return int(total)


def price(catalog: Catalog, state: State, pid: str, advance: str, leader: str | None = None) -> int:
    cut = leader_discounts(catalog, state, leader).get(advance, 0) if leader else 0
    return max(0, catalog.advances[advance].cost - credit(catalog, state, pid, advance) - cut)


def purchase_problem(catalog: Catalog, state: State, pid: str, advance: str,
                     leader: str | None = None) -> Reason | None:
    """Why this purchase is illegal now; None when it is legal."""
    data = catalog.advances[advance]
    if owns(state, pid, advance):
        return why("owns_advance", player=pid, advance=data.name)
    missing = [catalog.advances[a].name for a in data.requires if not owns(state, pid, a)]
    if missing:
        return why("needs_first", advance=data.name, missing=missing)
    if papal_decree_bars(catalog, state, pid, advance):
        return why("papal_decree", group=data.group, player=pid)
    if leader is not None and leader not in usable_leaders(catalog, state, pid, advance):
        return why("no_discount", leader=catalog.cards[leader].name, player=pid,
                   advance=data.name)
    cost = price(catalog, state, pid, advance, leader)
    if cost > player(state, pid)["cash"]:
        return why("advance_cost", advance=data.name, cost=cost, player=pid,
                   cash=player(state, pid)["cash"])
    return None


def purchase_options(catalog: Catalog, state: State, pid: str) -> list[Purchase]:
    """Every legal purchase now, by Advance letter; with a leader only when it lowers the price.
    Those for which purchase_problem is None, tested without building a Reason for the many
    left out, with the player's Advances and each group's credit looked up once."""
    data = player(state, pid)
    owned, cash = {*data["advances"], *data["new_advances"]}, data["cash"]  # as `owns`
    credits: dict[str, int] = {}  # `credit`, by group
    leaders = _leaders_for(catalog, state, pid)
    options = []
    for advance in _by_letter(catalog):
        spec = catalog.advances[advance]
        if advance in owned or not owned.issuperset(spec.requires) \
                or papal_decree_bars(catalog, state, pid, advance):
            continue  # owns_advance, needs_first or papal_decree, with any leader
        if spec.group not in credits:
            credits[spec.group] = credit(catalog, state, pid, advance)
        full = spec.cost - credits[spec.group]
        if max(0, full) <= cash:  # `price`; advance_cost when above the cash
            options.append(Purchase(advance, None, max(0, full)))
        for leader, discounts in leaders:  # usable_leaders: those with a discount on it
            cut = discounts.get(advance, 0)
            if cut > 0 and max(0, full - cut) <= cash:
                options.append(Purchase(advance, leader, max(0, full - cut)))
    return options


def _leaders_for(catalog: Catalog, state: State, pid: str) -> list[tuple[str, dict[str, int]]]:
    """The leaders in play whose discounts the player may use (usable_leaders, before the
    Advance is known), each with its discounts."""
    found = []
    for who, leader in state["round"]["leaders"]:
        left = claims_left(catalog, state, leader)
        if who == pid or owns(state, pid, PATRONAGE) and (left is None or left > 0):
            found.append((leader, leader_discounts(catalog, state, leader)))
    return found


# The Advances by letter, per catalog.
_LETTERS: dict[Hashable, tuple[Catalog, tuple[str, ...]]] = {}


def _by_letter(catalog: Catalog) -> tuple[str, ...]:
    return kept(_LETTERS, id(catalog), catalog, lambda: tuple(
        sorted(catalog.advances, key=lambda a: catalog.advances[a].letter)))


def buy_advance(catalog: Catalog, state: State, pid: str, advance: str,
                leader: str | None = None) -> Purchase:
    """9.4.2: pay, own it at once (its properties work now, its credit from next turn), move the
    misery marker (Religion +1, Human Body and Improved Agriculture -1), and set the fleet when
    the Advance opens a new row (S: seaworthy 10, T: ocean-going 1)."""
    problem = purchase_problem(catalog, state, pid, advance, leader)
    if problem:
        raise IllegalOrder(problem, options=[o.line for o in purchase_options(catalog, state, pid)])
    bought = Purchase(advance, leader, price(catalog, state, pid, advance, leader))
    pay(state, pid, bought.price)
    add_advance(state, pid, advance)
    change = catalog.advances[advance].misery
    if change > 0:
        misery_up(catalog, state, pid, change)
    elif change < 0:
        misery_down(catalog, state, pid, -change)
    for stage in catalog.fleet:
        if stage.entered_by == advance:
            player(state, pid)["fleet"] = {"stage": stage.id, "box": 1}
    if leader:
        uses = state["round"]["leader_uses"]
        uses[pid] = uses.get(pid, []) + [[leader, advance]]
        if leader_player(state, leader) != pid:
            state["round"]["claims"][leader] = state["round"]["claims"].get(leader, 0) + 1
    return bought


def advance_value(catalog: Catalog, state: State, pid: str) -> int:
    """11.2: the printed cost of every Advance owned."""
    return sum(catalog.advances[a].cost for a in all_advances(state, pid))
