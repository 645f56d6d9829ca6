"""The strength of each side of an attack (9.5.2, G, W, Y, A.2 military cards; rulings R15,
R31, R33, R34, R44): the tokens an attack needs.

An attack must bring tokens equal to the defence plus the market size, less the attacker's own
bonuses, and at least one. Defence: every opponent's tokens, a marker as its market size (twice
in its owner's capital), 1 per supporting satellite (2 with Cosmopolitan), military advantages,
Nationalism in the home region.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from engine.aor.board import marker_of, presence, tokens_in
from engine.aor.catalog import Catalog
from engine.aor.memo import kept
from engine.aor.model import State, cards_played_by, home_region, owns, player

NATIONALISM, COSMOPOLITAN = "nationalism", "cosmopolitan"


def uses_advance(state: State, pid: str, advance: str) -> bool:
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
    return sum(_strength(catalog, c) for c in cards)


def _strength(catalog: Catalog, card: str) -> int:
    return int(catalog.cards[card].params["strength"])


_STRENGTHS: dict[Hashable, tuple[Catalog, bool]] = {}


def _no_negative_strength(catalog: Catalog) -> bool:
    """Whether every military card adds (a strength of 0 or more), per catalog."""
    return kept(_STRENGTHS, id(catalog), catalog, lambda: all(
        _strength(catalog, c) >= 0 for c, card in catalog.cards.items()
        if card.verb == "military_advantage"))


def nationalism(catalog: Catalog, state: State, pid: str, where: str) -> int:
    """W: +1 in attack and defence in the player's home region (the region of their capital)."""
    home = home_region(catalog, state, pid)
    return 1 if uses_advance(state, pid, NATIONALISM) and catalog.provinces[where].region == home else 0


def satellites(catalog: Catalog, state: State, pid: str, where: str,
               supporters: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """The satellites whose arrow points to `where` and which hold one of the player's tokens
    (`supporters`: the map's, when the caller already has them)."""
    supporters = _supporters(catalog) if supporters is None else supporters
    return [s for s in supporters.get(where, ()) if tokens_in(state, s, pid)]


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
    return Sides(catalog, state, attacker).defence(pid, where)


class Sides:
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
        self.cosmopolitan = uses_advance(state, attacker, COSMOPOLITAN)
        self.capital = player(state, attacker)["capital"]
        self.home = self.side(attacker)[1]  # where Nationalism helps the attacker
        self.supporters = _supporters(catalog)
        # the most the attacker's military cards can add (each counts only if not negated),
        # when no card weakens a side (then no bonus lowers the defence either)
        self.push_at_most = None if not _no_negative_strength(catalog) else \
            0 if self.unarmed else sum(_strength(catalog, c) for c in advantages(catalog, state, attacker))
        self._support: dict[str, int] = {}  # a marker's owner's points per satellite

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
        support = self._support.get(pid)
        if support is None:
            support = self._support[pid] = 2 if uses_advance(state, pid, COSMOPOLITAN) else 1
        extra = catalog.provinces[where].market if player(state, pid)["capital"] == where else 0
        return extra + support * len(satellites(catalog, state, pid, where, self.supporters))

    def side(self, pid: str) -> tuple[int, str | None]:
        """A player's military bonus against the attacker, and the region where Nationalism
        adds 1 for them, if any (W)."""
        known = self._side.get(pid)
        if known is None:
            catalog, state = self.catalog, self.state
            home = home_region(catalog, state, pid) if uses_advance(state, pid, NATIONALISM) else None
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
            bonus += len(satellites(catalog, state, attacker, where, self.supporters))
        required = max(1, total + market - bonus)
        if self.capital == where:
            required = -(-required // 2)
        required = max(required, market + 1 - others)  # only an overflowing market is fought over (R44)
        return Attack(where, attacker, tuple(against), total, bonus, required,
                      tokens_in(state, where, attacker) if present is None else present)

    def least_required(self, where: str, others: int) -> int | None:
        """A floor under terms(where, ...).required from the opponents' weight there alone
        (`others`): their military cards, Nationalism, capital and satellites only add to the
        defence, and the attacker's bonuses are at most its cards in effect, Nationalism and
        every supporting satellite. None when a card could lower a strength."""
        if self.push_at_most is None:
            return None
        province = self.catalog.provinces[where]
        most = self.push_at_most + (1 if self.home == province.region else 0) + \
            (len(self.supporters.get(where, ())) if self.cosmopolitan else 0)
        least = max(1, others + province.market - most)
        if self.capital == where:
            least = -(-least // 2)
        return max(least, province.market + 1 - others)

    def attacker_bonus(self, against: list[str]) -> int:
        if self.unarmed:
            return 0
        key = tuple(against)
        if key not in self._push:
            self._push[key] = military_bonus(self.catalog, self.state, self.attacker, against)
        return self._push[key]


class Attack(NamedTuple):  # a named tuple: option lists build thousands, and it is immutable
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
    return Sides(catalog, state, attacker).terms(where, weight)
