"""Fighting for a province (9.5.2, G, H, W, Y, A.2 military cards; rulings R05, R15, R21, R31,
R33, R34, R44-R46): strengths, the tokens an attack needs, and the battle itself.

An attack must bring tokens equal to the defence plus the market size, less the attacker's own
bonuses, and at least one. Defence: every opponent's tokens, a marker as its market size (twice
in its owner's capital), 1 per supporting satellite (2 with Cosmopolitan), military advantages,
Nationalism in the home region. The dice are those of engine.aor.dice.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from engine.aor.board import (
    add_token_from_stock,
    marker_of,
    markers_in_stock,
    place_tokens,
    presence,
    put_marker,
    record_weight,
    remove_marker,
    remove_tokens,
    tokens_in,
)
from engine.aor.catalog import Catalog
from engine.aor.dice import Cathedral, Outcome, Roll, Terms, resolve, roll
from engine.aor.memo import kept
from engine.aor.model import State, cards_played_by, home_region, owns, player
from engine.aor.order import rank
from engine.aor.reach import reach, record_shipped, shipped
from engine.aor.reasons import why
from engine.core.chance import Chance
from engine.core.errors import IllegalOrder, Reason

NATIONALISM, COSMOPOLITAN = "nationalism", "cosmopolitan"
PROSELYTISM, CATHEDRAL = "proselytism", "cathedral"


def _uses(state: State, pid: str, advance: str) -> bool:
    """An Advance that still works for this player: the eliminated keep only Nationalism (9.4.3,
    R46)."""
    return owns(state, pid, advance) and (advance == NATIONALISM or not player(state, pid)["eliminated"])


# --- military advantages (A.2, R15) ---------------------------------------------------------------


def cancelled(catalog: Catalog, state: State, card: str) -> bool:
    """A card some card played this turn cancels (Long Bow and Gunpowder cancel Stirrups, Armor)."""
    return any(card in catalog.cards[c].interactions.get("cancels", ()) for _, c in state["round"]["played"])


def advantages(catalog: Catalog, state: State, pid: str) -> list[str]:
    """The military cards a player played this turn that are still in effect."""
    return [c for c in cards_played_by(state, pid)
            if catalog.cards[c].verb == "military_advantage" and not cancelled(catalog, state, c)]


def has_advantage(catalog: Catalog, state: State, pid: str) -> bool:
    """Any military card in effect: black equal to white then wins the attacker's battle."""
    return bool(advantages(catalog, state, pid))


def effective_advantages(catalog: Catalog, state: State, pid: str, against: list[str]) -> list[str]:
    """The player's cards in effect that no opponent's card negates (Armor negates Stirrups,
    Gunpowder Long Bow)."""
    mine = advantages(catalog, state, pid)
    if not mine:  # nothing to negate: the opponents' cards need not be looked at
        return []
    theirs = {c for other in against for c in advantages(catalog, state, other)}
    return [c for c in mine
            if not theirs & set(catalog.cards[c].interactions.get("strength_negated_by", ()))]


def military_bonus(catalog: Catalog, state: State, pid: str, against: list[str]) -> int:
    """+strength for each card in effect and not negated (9.5.2: 1 per military advantage)."""
    if not state["round"]["played"]:  # no card played this turn: none in effect
        return 0
    cards = effective_advantages(catalog, state, pid, against)
    return sum(int(catalog.cards[c].params["strength"]) for c in cards)


def nationalism(catalog: Catalog, state: State, pid: str, where: str) -> int:
    """W: +1 in attack and defence in the player's home region (the region of their capital)."""
    home = home_region(catalog, state, pid)
    return 1 if _uses(state, pid, NATIONALISM) and catalog.provinces[where].region == home else 0


def satellites(catalog: Catalog, state: State, pid: str, where: str) -> list[str]:
    """The satellites whose arrow points to `where` and which hold one of the player's tokens."""
    return [s for s in _supporters(catalog).get(where, ()) if tokens_in(state, s, pid)]


# The map's satellites by the province each supports, per catalog.
_SUPPORTERS: dict[Hashable, tuple[Catalog, dict[str, tuple[str, ...]]]] = {}


def _supporters(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    def build() -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for s, p in sorted(catalog.provinces.items()):
            if p.satellite:
                for where in dict.fromkeys(p.supports):
                    found.setdefault(where, []).append(s)
        return {w: tuple(v) for w, v in found.items()}
    return kept(_SUPPORTERS, id(catalog), catalog, build)


# --- strengths ----------------------------------------------------------------------------------


def defenders(state: State, attacker: str, where: str, catalog: Catalog) -> list[str]:
    """Every other player with a token or a marker in the province (R33: all are attacked)."""
    return [p for p in presence(catalog, state, where) if p != attacker]


def defence(catalog: Catalog, state: State, pid: str, where: str, attacker: str) -> int:
    """One defender's strength (9.5.2): pieces, satellites (only for a province under their
    marker), military advantages against the attacker, Nationalism."""
    return _Sides(catalog, state, attacker).defence(pid, where)


class _Sides:
    """The attacker's and each defender's facts that do not depend on the province (military
    bonuses, Nationalism's home region, Cosmopolitan, capital): an option list weighs one
    attacker against many provinces, so each is looked up once."""

    def __init__(self, catalog: Catalog, state: State, attacker: str) -> None:
        self.catalog, self.state, self.attacker = catalog, state, attacker
        # each defender's military bonus against the attacker, and the region where
        # Nationalism adds 1 for them (None: nowhere)
        self._side: dict[str, tuple[int, str | None]] = {}
        self._push: dict[tuple[str, ...], int] = {}  # the attacker's bonus against defenders
        # no military card in effect for the attacker: no bonus against anyone (military_bonus)
        self.unarmed = not state["round"]["played"] or not advantages(catalog, state, attacker)
        self.cosmopolitan = _uses(state, attacker, COSMOPOLITAN)
        self.capital = player(state, attacker)["capital"]
        self.home = self.side(attacker)[1]  # where Nationalism helps the attacker

    def defence(self, pid: str, where: str) -> int:
        """One defender's strength (9.5.2), as `defence`."""
        guard, home = self.side(pid)
        strength = tokens_in(self.state, where, pid) + guard + \
            (1 if home is not None and self.catalog.provinces[where].region == home else 0)
        if marker_of(self.state, where) == pid:
            strength += self.catalog.provinces[where].market + self.held(pid, where)
        return strength

    def held(self, pid: str, where: str) -> int:
        """What a marker adds to its owner's defence beyond its market size: the market size
        again in the owner's capital, and the supporting satellites."""
        catalog, state = self.catalog, self.state
        support = 2 if _uses(state, pid, COSMOPOLITAN) else 1
        extra = catalog.provinces[where].market if player(state, pid)["capital"] == where else 0
        return extra + support * len(satellites(catalog, state, pid, where))

    def side(self, pid: str) -> tuple[int, str | None]:
        """A player's military bonus against the attacker, and the region where Nationalism
        adds 1 for them, if any (W)."""
        known = self._side.get(pid)
        if known is None:
            catalog, state = self.catalog, self.state
            home = home_region(catalog, state, pid) if _uses(state, pid, NATIONALISM) else None
            known = self._side[pid] = (
                military_bonus(catalog, state, pid, [self.attacker]) if pid != self.attacker
                else 0, home)
        return known

    def terms(self, where: str, weight: dict[str, int], present: int | None = None) -> Attack:
        """attack_terms, `weight` being the province's `presence` (a defender's weight is its
        tokens and its marker counted once as the market size) and `present` the attacker's
        tokens there, when the caller already has them."""
        catalog, state, attacker = self.catalog, self.state, self.attacker
        province = catalog.provinces[where]
        market, region = province.market, province.region
        against = []  # defenders(), from the weights at hand
        total = others = 0
        known = self._side
        for pid, pieces in weight.items():
            if pid != attacker:
                against.append(pid)
                others += pieces
                guard, home = known.get(pid) or self.side(pid)
                total += pieces + guard + (1 if home == region else 0)
        data = state["provinces"].get(where)
        marker = None if data is None else data["marker"]  # marker_of
        if marker is not None and marker != attacker and marker in weight:
            total += self.held(marker, where)
        bonus = (0 if self.unarmed else self.attacker_bonus(against)) + \
            (1 if self.home == region else 0)
        if self.cosmopolitan:
            bonus += len(satellites(catalog, state, attacker, where))
        required = max(1, total + market - bonus)
        if self.capital == where:
            required = -(-required // 2)
        required = max(required, market + 1 - others)  # only an overflowing market is fought over (R44)
        return Attack(where, attacker, tuple(against), total, bonus, required,
                      tokens_in(state, where, attacker) if present is None else present)

    def attacker_bonus(self, against: list[str]) -> int:
        if self.unarmed:
            return 0
        key = tuple(against)
        if key not in self._push:
            self._push[key] = military_bonus(self.catalog, self.state, self.attacker, against)
        return self._push[key]


@dataclass(frozen=True)
class Attack:
    province: str
    attacker: str
    defenders: tuple[str, ...]
    defence: int  # all defenders together (R33)
    bonus: int  # the attacker's military advantages, Nationalism, Cosmopolitan satellites
    required: int  # tokens the attack commits, counting the attacker's tokens already there
    present: int  # the attacker's tokens already in the province

    @property
    def new_tokens(self) -> int:
        """Tokens to place now; an attack is started by placing at least one (R44)."""
        return max(1, self.required - self.present)


def attack_terms(catalog: Catalog, state: State, attacker: str, where: str,
                 weight: dict[str, int] | None = None) -> Attack:
    """The tokens an attack on `where` needs: defence + market size - the attacker's bonuses,
    at least 1; retaking one's own capital the committed tokens count double (R34); never fewer
    than would overfill the market, since only an overfilled market is fought over (R44).
    `weight` is the province's `presence`, when the caller already has it."""
    weight = presence(catalog, state, where) if weight is None else weight
    return _Sides(catalog, state, attacker).terms(where, weight)


# --- Cathedral (H, R21) ---------------------------------------------------------------------------


def cathedral_free(state: State, user: str, against: str) -> bool:
    """An owner may win one battle a turn against each player who does not own Cathedral."""
    return (_uses(state, user, CATHEDRAL) and not owns(state, against, CATHEDRAL)
            and against not in state["round"]["cathedral"].get(user, []))


def attacker_may_declare(state: State, attack: Attack) -> bool:
    """The attacker's Cathedral must be free against every defender (R45)."""
    return bool(attack.defenders) and all(cathedral_free(state, attack.attacker, d) for d in attack.defenders)


def defenders_who_may_declare(state: State, attack: Attack) -> list[str]:
    """Defenders to ask out of turn before the dice (R21)."""
    return [d for d in attack.defenders if cathedral_free(state, d, attack.attacker)]


def _record_cathedral(state: State, user: str, against: list[str]) -> None:
    uses = state["round"]["cathedral"]
    uses[user] = sorted(set(uses.get(user, [])) | set(against))
    state["round"]["cathedral"] = dict(sorted(uses.items()))


def attack_options(catalog: Catalog, state: State, pid: str,
                   routes: dict[str, int | None] | None = None) -> list[Attack]:
    """Every attack the player can make now, by province (`routes`: the player's `reach`, when
    the caller already has it). A province's weights are read only where an attack may fit."""
    purchased = player(state, pid)["purchased"]
    if purchased < 1:  # an attack places at least one token (R44)
        return []
    routes = reach(catalog, state, pid) if routes is None else routes
    stock = markers_in_stock(catalog, state, pid)  # the same for each attack
    sides = _Sides(catalog, state, pid)
    attacks = []
    provinces, board = catalog.provinces, state["provinces"]
    for where in routes:
        data = board.get(where)
        if data is None:
            continue  # empty: attack_problem's no_opponent
        province = provinces[where]
        if stock <= 0 and not province.satellite:
            continue  # attack_problem's no_marker, whatever the strengths
        tokens, new, marker = data["tokens"], data["new"], data["marker"]
        if len(tokens) - (pid in tokens) <= 0 and len(new) - (pid in new) <= 0 \
                and marker in (None, pid):
            continue  # attack_problem's no_opponent: nobody else in `presence`
        # attack_problem's attack_tokens for the tokens that only overfill the market (R44):
        # the market size + 1 less the opponents' weight, less the attacker's tokens there
        present = int(tokens.get(pid, 0)) + int(new.get(pid, 0))  # tokens_in
        mine = present + (province.market if marker == pid else 0)  # the attacker's weight
        overfill = province.market + 1 - record_weight(data, province.market) + mine
        if max(1, overfill - present) > purchased:
            continue
        attack = sides.terms(where, presence(catalog, state, where), present)
        if _fits(state, attack, purchased, routes[where]):
            attacks.append(attack)
    return attacks


def _fits(state: State, attack: Attack, purchased: int, ship_limit: int | None) -> bool:
    """attack_problem is None, for an attack within reach, on an opponent, with a marker to
    take it: the tokens bought cover it and the fleet carries them (no Reason built for the
    many attacks an option list leaves out)."""
    if attack.new_tokens > purchased:
        return False
    if ship_limit is None:
        return True
    carried = max(shipped(state, attack.attacker, attack.province),
                  tokens_in(state, attack.province, attack.attacker, new=True))
    return carried + attack.new_tokens <= ship_limit


# --- the battle ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Battle:
    attack: Attack
    dice: Roll | None  # None when a Cathedral settled it before the roll
    outcome: Outcome
    took_marker_from: str | None  # whose domination marker the attacker took (Written Record)


def attack_problem(catalog: Catalog, state: State, attack: Attack,
                   routes: dict[str, int | None] | None = None,
                   stock: int | None = None) -> Reason | None:
    """Why this attack cannot be made now; None if it can. `routes` is the attacker's `reach`
    and `stock` its markers in stock, when the caller already has them."""
    routes = reach(catalog, state, attack.attacker) if routes is None else routes
    where = catalog.provinces[attack.province].name
    if attack.province not in routes:
        return why("out_of_reach", province=where, player=attack.attacker)
    ship_limit = routes[attack.province]
    if not attack.defenders:
        return why("no_opponent", province=where)
    if attack.new_tokens > player(state, attack.attacker)["purchased"]:
        return why("attack_tokens", province=where, needed=attack.new_tokens,
                   player=attack.attacker, held=player(state, attack.attacker)["purchased"])
    carried = max(shipped(state, attack.attacker, attack.province),
                  tokens_in(state, attack.province, attack.attacker, new=True))
    if ship_limit is not None and carried + attack.new_tokens > ship_limit:
        return why("fleet_carries", limit=ship_limit, province=where)
    satellite = catalog.provinces[attack.province].satellite
    stock = markers_in_stock(catalog, state, attack.attacker) if stock is None else stock
    if not satellite and stock <= 0:
        return why("no_marker", player=attack.attacker)
    return None


def fight(catalog: Catalog, state: State, attack: Attack, chance: Chance, *,
          cathedral: Cathedral = Cathedral.NONE, defender_cathedral: str | None = None) -> Battle:
    """Place the tokens, then settle the battle: by a declared Cathedral, else by three public
    dice. The loser's pieces go back to stock; a winner takes the province with a marker (one
    token in a satellite)."""
    where, attacker = attack.province, attack.attacker
    routes = reach(catalog, state, attacker)
    problem = attack_problem(catalog, state, attack, routes)
    if problem:
        legal = attack_options(catalog, state, attacker)
        raise IllegalOrder(problem, options=[f"attack {a.province}" for a in legal])
    if cathedral is Cathedral.ATTACKER and not attacker_may_declare(state, attack):
        raise IllegalOrder(f"{attacker} cannot use Cathedral against everyone in {where}")
    if cathedral is Cathedral.DEFENDER and defender_cathedral not in defenders_who_may_declare(state, attack):
        raise IllegalOrder(f"{defender_cathedral} cannot use Cathedral against {attacker}")
    place_tokens(state, attacker, where, attack.new_tokens)
    if routes[where] is not None:  # shipped: lost or not, they used the fleet's capacity (9.4.1)
        record_shipped(state, attacker, where, attack.new_tokens)
    placed = state["round"]["placed"]
    placed[attacker] = placed.get(attacker, 0) + attack.new_tokens
    state["round"]["placed"] = dict(sorted(placed.items()))
    dice = None
    terms = Terms(rank(catalog, state, attacker), has_advantage(catalog, state, attacker),
                  _uses(state, attacker, PROSELYTISM), cathedral)
    if cathedral is Cathedral.ATTACKER:
        _record_cathedral(state, attacker, list(attack.defenders))
    elif cathedral is Cathedral.DEFENDER and defender_cathedral:
        _record_cathedral(state, defender_cathedral, [attacker])
    else:
        dice = roll(chance, f"battle turn {state['turn']} {attacker} {where}")
    # a declared Cathedral decides before any die is read, so no roll is drawn for it
    outcome = resolve(dice or Roll(1, 1, 1), terms, catalog.battle)
    taken = None
    if outcome.attacker_wins:
        taken = marker_of(state, where)
        for loser in attack.defenders:
            remove_tokens(state, loser, where)
        remove_marker(state, where)
        remove_tokens(state, attacker, where)
        if catalog.provinces[where].satellite:
            add_token_from_stock(state, attacker, where, new=True)
        else:
            put_marker(catalog, state, attacker, where)
    else:
        remove_tokens(state, attacker, where)
    return Battle(attack, dice, outcome, taken)
