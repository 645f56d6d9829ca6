"""Curate shared/reference/pax-renaissance into games/pax/ (run by hand when the reference changes).

The reference files are facts from a public implementation; we keep the facts our engine reads,
drop source-code bookkeeping (class names, colours used only for display) and add nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

HEADER = (
    "# Pax Renaissance (2nd edition): {what}.\n"
    "# Curated by tools/curate_pax.py from shared/reference/pax-renaissance (component facts only).\n"
)


def _dump(path: Path, what: str, data: Any) -> None:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    path.write_text(HEADER.format(what=what) + text, encoding="utf-8")


def curate(ref: Path, out: Path) -> None:
    cards = yaml.safe_load((ref / "cards.yaml").read_text(encoding="utf-8"))
    for card in cards["tableau_cards"]:
        card.pop("source_class", None)
        card.pop("location_note", None)
        for agent in card["agents"]:
            agent.pop("colour", None)
    for square in cards["empire_squares"]:
        square.pop("source_class", None)
    for victory in cards["victory_cards"]:
        victory.pop("source_class", None)
    cards.pop("counts", None)
    _dump(out / "cards.yaml", "ops, empire squares, victory squares and tableau cards", cards)

    board = yaml.safe_load((ref / "map.yaml").read_text(encoding="utf-8"))
    for city in board["cities"].values():
        for levy in city["levy"].values():
            levy.pop("colour", None)
    for bank in board["banks"]["list"].values():
        bank.pop("colour_hex", None)
    _dump(out / "map.yaml", "empires, cities, borders, emporia, routes, banks, tokens", board)

    abilities = yaml.safe_load((ref / "abilities.yaml").read_text(encoding="utf-8"))
    for ability in abilities["abilities"].values():
        ability.pop("source_constants", None)
    _dump(out / "abilities.yaml", "ability ids with own-words summaries", abilities)


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    reference = Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared/reference/pax-renaissance"
    curate(reference, root / "games" / "pax")
