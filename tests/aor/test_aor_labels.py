"""Hand labels (issue 8): each card entering a hand gets a short label from HMAC(seed, draw),
unique across all hands, lengthened on a clash, and the same on every replay."""

from __future__ import annotations

import re

from engine.aor.deck import chance_labeler, draw_to_hand, held_labels
from engine.aor.model import player
from engine.core.chance import SeededChance, derive_label
from tests.aor.helpers import ScriptedChance, game

THREE = {"venice": "venice", "genoa": "genoa", "barcelona": "barcelona"}

SHAPE = re.compile(r"[a-z][0-9][a-z0-9]{2,}")


def test_derived_labels_are_short_shaped_and_deterministic() -> None:
    labels = {derive_label(b"seed", "g", n, f"draw ada turn {n}") for n in range(200)}
    assert all(SHAPE.fullmatch(x) and len(x) == 4 for x in labels)
    assert len(labels) > 190
    assert derive_label(b"seed", "g", 3, "p") == derive_label(b"seed", "g", 3, "p")
    assert derive_label(b"seed", "g", 3, "p") != derive_label(b"other", "g", 3, "p")
    assert derive_label(b"seed", "g", 3, "p", 6).startswith(derive_label(b"seed", "g", 3, "p"))


def test_a_clash_with_any_hand_lengthens_the_label() -> None:
    state = game(THREE)
    state["deck"] = ["armor", "stirrups"]
    chance = SeededChance(b"x", "g", 0)
    clash = derive_label(b"x", "g", 0, "draw venice turn 1")
    player(state, "genoa")["hand"] = {clash: "silk_e1"}
    label = draw_to_hand(state, chance, "venice", "draw venice turn 1")
    assert label == derive_label(b"x", "g", 0, "draw venice turn 1", 5) and len(label) == 5
    assert held_labels(state) == {clash, label}


def test_the_same_seed_gives_the_same_labels() -> None:
    hands = []
    for _ in range(2):
        state = game(THREE)
        state["deck"] = ["armor", "stirrups", "silk_e1"]
        chance = SeededChance(b"y", "g", 7)
        for turn in (1, 2, 3):
            draw_to_hand(state, chance, "venice", f"draw venice turn {turn}")
        hands.append(dict(player(state, "venice")["hand"]))
    assert hands[0] == hands[1] and all(SHAPE.fullmatch(x) for x in hands[0])


def test_a_chance_without_a_seed_falls_back_to_counters() -> None:
    state = game(THREE)
    state["deck"] = ["armor"]
    chance = ScriptedChance({"draw venice turn 1": "armor"})
    assert draw_to_hand(state, chance, "venice", "draw venice turn 1") == "h1"
    assert chance_labeler(state, chance)("x", {"h2"}) == "h3"
