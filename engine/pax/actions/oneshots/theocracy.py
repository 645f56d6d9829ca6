"""K2: a new theocracy keeps every ruling-class token in its city, except that the attacker
chooses how the tokens sit in a city of several slots (Constantinople's three cities), which
decides the levy icons its free slots show under the new map card.

engine.pax.battle.BattleWon asks this once per such city (`shared_cities`). The answer names
the levy icons of the slots left free, in slot order (the order levies fill them, R-006):
`free constantinople islamic knight`. It resolves by itself when the choice does not matter.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.agenda import Node
from engine.core.chance import Chance
from engine.core.choice import Choice, fold
from engine.core.ruleset import Action
from engine.core.table import Event, Table, event
from engine.pax.model import cat, describe_token, levy_token


def _free_choices(t: Table, slots: list[str]) -> list[tuple[Choice, tuple[str, ...]]]:
    free = len(slots) - sum(s in t.state["cities"] for s in slots)
    seen: dict[str, tuple[Choice, tuple[str, ...]]] = {}
    for kept_free in combinations(slots, free):
        icons = [levy_token(t, slot) for slot in kept_free]
        line = f"free {fold(cat(t).cities[slots[0]].name)} " + " ".join(
            describe_token(icon) for icon in icons)
        choice = Choice("free", (slots[0], *icons), ("city", *["token"] * len(icons)), line)
        seen.setdefault(line, (choice, kept_free))
    return list(seen.values())


class Arrange(Action):
    name = "arrange"
    decision = "which slots of the city stay free under the new theocracy"

    def options(self, t: Table, node: Node) -> list[Choice]:
        return [choice for choice, _ in _free_choices(t, node["args"]["slots"])]

    def default(self, t: Table, node: Node, options: list[Choice]) -> Choice:  # type: ignore[override]
        return options[0]

    def apply(self, t: Table, node: Node, choice: Choice, chance: Chance) -> list[Event]:
        slots: list[str] = node["args"]["slots"]
        kept_free = next(free for option, free in _free_choices(t, slots) if option == choice)
        cities = t.state["cities"]
        tokens = sorted(cities.pop(s) for s in slots if s in cities)
        for slot, tok in zip([s for s in slots if s not in kept_free], tokens, strict=True):
            cities[slot] = tok
        t.state["cities"] = dict(sorted(cities.items()))
        name = cat(t).cities[slots[0]].name
        icons = [describe_token(levy_token(t, s)) for s in kept_free]
        return [event("pax.oneshot.arranged", city=name, levies=icons)]
