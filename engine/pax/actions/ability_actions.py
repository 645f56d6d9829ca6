"""Ability actions, taken as one of the turn's actions (once per turn each):

- `apostasy RELIGION RELIGION` (Oratory of Divine Love, apostasy_as_action): an Apostasy (K3)
  between any two religions, offered only when some tableau would discard (R-402);
- `revolt QUEEN` (Elizabeth Báthory, discard_to_launch_peasant_revolt): discard the crowned
  queen to launch a Peasant Revolt (J2) in her husband's empire, offered only when the revolt
  has an attacker (R-401).
"""

from __future__ import annotations

from itertools import combinations

from engine.core.agenda import new_node
from engine.core.chance import Chance
from engine.core.choice import Choice
from engine.core.table import Table
from engine.pax.abilities import Ability, ability_cards, ability_event
from engine.pax.actions.common import Result, card_choice
from engine.pax.catalog import RELIGIONS
from engine.pax.model import banks, card_name, discard, husband_of


def apostasy_options(t: Table, bank: str) -> list[Choice]:
    if not ability_cards(t, bank, Ability.APOSTASY_AS_ACTION):
        return []
    from engine.pax.actions.oneshots.apostasy import exposed_faiths  # start-up: first use

    # some tableau is condemned: `condemned` is not empty exactly for these faiths
    exposed = [exposed_faiths(t, other) for other in banks(t)]
    return [Choice("apostasy", (first, second), ("religion", "religion"),
                   f"apostasy {first} {second}")
            for first, second in combinations(RELIGIONS, 2)
            if any({first, second} <= faiths for faiths in exposed)]


def apply_apostasy(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    first, second = choice.args
    card_id = ability_cards(t, bank, Ability.APOSTASY_AS_ACTION)[0]
    called = ability_event(Ability.APOSTASY_AS_ACTION, "pax.apostasy.called", bank=bank,
                           card=card_name(t, card_id), first=first, second=second)
    trial = new_node(t.state, "apostasy", bank, card=card_id, religions=[first, second])
    return Result([called], [trial])


def revolt_options(t: Table, bank: str) -> list[Choice]:
    choices = []
    for queen in ability_cards(t, bank, Ability.DISCARD_TO_LAUNCH_PEASANT_REVOLT):
        from engine.pax.actions.oneshots.civil_war import (  # start-up: on first use
            PEASANT_REVOLT,
            attackers,
        )

        husband = husband_of(t, queen)
        if husband is not None and attackers(t, bank, queen, husband, PEASANT_REVOLT):
            choices.append(card_choice(t, "revolt", queen))
    return choices


def apply_revolt(t: Table, bank: str, choice: Choice, chance: Chance) -> Result:
    from engine.pax.actions.oneshots.civil_war import PEASANT_REVOLT, attackers
    from engine.pax.actions.oneshots.common import city_fighters, empire_name
    from engine.pax.battle import start_battle  # start-up: loaded on first use

    queen = choice.args[0]
    empire = husband_of(t, queen)
    assert empire is not None
    fighters = attackers(t, bank, queen, empire, PEASANT_REVOLT)
    name = card_name(t, queen)
    discard(t, queen)
    launched = ability_event(Ability.DISCARD_TO_LAUNCH_PEASANT_REVOLT, "pax.oneshot.revolt_by_queen",
                             bank=bank, card=name, empire=empire_name(t, empire))
    started, battle = start_battle(t, bank, target=empire, kind=PEASANT_REVOLT,
                                   attackers=fighters, defenders=city_fighters(t, empire),
                                   victory={"cause": PEASANT_REVOLT})
    return Result([launched, *started], [battle])
