"""Curate shared/reference/pax-renaissance into games/pax/ (run by hand when the reference changes).

The reference files are facts from a public implementation; we keep the facts our engine reads,
drop source-code bookkeeping (class names, colours used only for display) and add nothing.
"""

from __future__ import annotations

import json
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
    write_json_cache(out)


def write_json_cache(out: Path) -> None:
    """games/pax/catalog.json: the same data as the YAML files, read ~50x faster at start-up.
    tests/test_data.py checks it matches the YAML."""
    data = {name: yaml.safe_load((out / f"{name}.yaml").read_text(encoding="utf-8"))
            for name in ("cards", "map", "abilities")}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # keeps YAML order
    (out / "catalog.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    if sys.argv[1:] == ["--json-only"]:
        write_json_cache(root / "games" / "pax")
        sys.exit(0)
    reference = Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared/reference/pax-renaissance"
    curate(reference, root / "games" / "pax")
