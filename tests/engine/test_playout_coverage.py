"""Seeded play-outs that reach every card and every ability (issue 6), across the variants.

Answers come only from the option lists and the invariants are checked after every decision.
Two steers keep the run short:
- the deal: before a game, cards not yet played are swapped from the box into the decks and
  the market (so the whole catalogue comes up in a few dozen games);
- the policy: a legal victory is declared, ability actions and one-shots are taken, cards are
  played and bought eagerly; otherwise the choice is random.
Abilities that need a rare position (a victory counted with an ability, a sale under an
ability...) get games that start from their scenario's constructed position
(tests/scenarios/abilities), with a few more florins each; the first try opens with the
scenario's own first block, and each is then played out to the end with the same policy.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path
from typing import Any

from engine.core.adjudicate import adjudicate, answer
from engine.core.chance import SeededChance
from engine.core.choice import Choice
from engine.core.errors import RuleError
from engine.core.table import Table
from engine.pax.ability_ids import Ability
from engine.pax.catalog import Catalog
from engine.pax.ruleset import PAX
from pbem.play.scenarios.pax import build_table
from pbem.rulesets import pax_catalog
from tests import fast_yaml
from tests.engine.playing import settle_options

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
VARIANTS: list[dict[str, Any]] = [
    {"map": "age_of_reformation"}, {"map": "default", "astrology": True},
    {"map": "1550", "bankruptcy": True}, {"map": "age_of_reformation", "open_hands": True},
]
EAGER = (("victory",), ("apostasy", "revolt"), ("oneshot", "oneshot in", "marry"),
         ("play",), ("borrow",))
MAX_GAMES = 40
TRIES = 20
RICHER = 6


def _steer(t: Table, wanted: set[str]) -> None:
    """Swap wanted cards from the box into the deck segments and market slots."""
    state = t.state
    catalog: Catalog = t.catalog
    for side in ("east", "west"):
        spare = sorted(c for c in state["box"] if c in wanted and catalog.cards[c].deck == side)
        places: list[tuple[list[str], int]] = []
        for segment in state["decks"][side]:
            places += [(segment, i) for i, c in enumerate(segment) if c not in wanted]
        for (segment, index), card_id in zip(places, spare, strict=False):
            state["box"].append(segment[index])
            state["box"].remove(card_id)
            segment[index] = card_id
        for slot in state["market"][side][1:]:
            rest = sorted(c for c in state["box"] if c in wanted
                          and catalog.cards[c].deck == side)
            if rest and slot["card"] not in wanted:
                state["box"].append(slot["card"])
                state["box"].remove(rest[0])
                slot["card"] = rest[0]
    state["box"].sort()


def _with_ability(catalog: Catalog, choice: Choice) -> bool:
    """A choice that names a card carrying an ability (to play, sell or run an op of)."""
    if not choice.args:
        return False
    card_id = choice.args[0].split("/", 1)[0]
    if card_id not in catalog.cards:
        return False
    abilities = catalog.cards[card_id].abilities
    if choice.verb == "sell":  # selling a card only uses its sales abilities
        return any(a.startswith("sell") for a in abilities)
    return bool(abilities)


def _pick(options: list[Choice], rng: random.Random) -> Choice:
    bold = [o for o in options if o.verb == "op" and (" campaign " in o.line or " vote " in o.line)]
    if bold and rng.random() < 0.5:
        return rng.choice(bold)
    special = [o for o in options if _with_ability(pax_catalog(), o)]
    if special and rng.random() < 0.4:
        return rng.choice(special)
    for verbs in EAGER:
        eager = [o for o in options if o.verb in verbs]
        if eager:
            return rng.choice(eager)
    sells = [o for o in options if o.verb == "sell" and rng.random() < 0.3]
    busy = [o for o in options if o.verb in ("buy", "ops", "op", "fair")]
    if busy and rng.random() < 0.7:
        return rng.choice(busy)
    return rng.choice(sells or options)


def play(table: Table, chance: SeededChance, seed: int, played: set[str],
         fired: Counter[str]) -> None:
    rng = random.Random(seed)
    settled, options = settle_options(PAX, table, chance)
    fired.update(e["kind"] for e in settled)
    decisions = 0
    while not table.state["over"]:
        assert options, "a pending decision always has at least one legal answer"
        choice = _pick(options, rng)
        if choice.verb == "play" or (choice.verb == "buy"
                                     and table.catalog.cards[choice.args[0]].kind == "comet"):
            played.add(choice.args[0])
        events = answer(PAX, table, choice, chance)
        settled, options = settle_options(PAX, table, chance)
        fired.update(e["kind"] for e in settled)
        fired.update(e["kind"] for e in events)
        PAX.check_invariants(table)
        decisions += 1
        assert decisions < 4000, "a game must end"


def _open(table: Table, chance: SeededChance, opening: dict[str, Any], fired: Counter[str]
          ) -> Table:
    """The scenario's first block, when the engine accepts it (some scenarios expect an error)."""
    lines = list(enumerate(opening["lines"], start=1))
    try:
        outcome = adjudicate(PAX, table, opening["player"], lines, chance)
    except RuleError:
        return table
    fired.update(e["kind"] for e in outcome.events)
    return outcome.table


def _ability_starts() -> dict[str, list[tuple[dict[str, Any], dict[str, Any] | None]]]:
    """The constructed positions of the ability scenarios, by the ability ids they name, with
    each scenario's first block."""
    starts: dict[str, list[tuple[dict[str, Any], dict[str, Any] | None]]] = {}
    for path in sorted((SCENARIOS / "abilities").glob("*.yaml")) + sorted(
            (SCENARIOS / "variants").glob("variants-aor-*.yaml")):
        data = fast_yaml.safe_load(path.read_text(encoding="utf-8"))
        for ability in Ability:
            if ability.value in data["title"]:
                opening = (data.get("orders") or [None])[0]
                starts.setdefault(ability.value, []).append((data["given"], opening))
    return starts


def test_every_card_is_played_and_every_ability_fires() -> None:
    catalog = pax_catalog()
    everything = set(catalog.cards)
    played: set[str] = set()
    fired: Counter[str] = Counter()
    games = 0
    while games < MAX_GAMES and played < everything:
        options = VARIANTS[games % len(VARIANTS)]
        chance = SeededChance(f"coverage-{games}".encode(), "coverage", 0)
        seats = ["p1", "p2", "p3", "p4"][: 2 + games % 3]
        table, _ = PAX.setup(catalog, "coverage", seats, dict(options), chance)
        _steer(table, everything - played)
        PAX.check_invariants(table)
        play(table, chance, games, played, fired)
        games += 1
    assert played == everything, f"never played in {games} games: {sorted(everything - played)}"
    for ability, starts in _ability_starts().items():
        for index, (given, opening) in enumerate(starts):
            for seed in range(TRIES):
                if fired[f"ability:{ability}"]:
                    break
                table, chance, _ = build_table(copy.deepcopy(given))
                for data in table.state["players"].values():
                    data["florins"] += RICHER  # so a costly op is not priced out at once
                if seed == 0 and opening:  # first the scenario's own opening block
                    table = _open(table, chance, opening, fired)
                play(table, chance, seed * 7 + index, played, fired)
    missing = sorted(a.value for a in Ability if not fired[f"ability:{a.value}"])
    assert not missing, f"abilities that never fired: {missing}"
