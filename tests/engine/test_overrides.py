"""The card one-offs of engine/pax/overrides.py are pinned: adding one is a reviewed decision
(architecture.md section 5)."""

from __future__ import annotations

from engine.pax.overrides import OVERRIDES, override

PINNED: list[tuple[str, str]] = []


def test_the_override_list_is_pinned() -> None:
    assert sorted(OVERRIDES) == PINNED


def test_no_override_answers_none() -> None:
    assert override("PREN001", "behead") is None
