"""The curated game data: the JSON start-up cache matches the YAML sources, and loads."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.rulesets import pax_catalog
from tests import fast_yaml

PAX = Path(__file__).resolve().parents[1] / "games" / "pax"


def test_json_cache_matches_the_yaml_sources() -> None:
    cached = json.loads((PAX / "catalog.json").read_text(encoding="utf-8"))
    for name in ("cards", "map", "abilities"):
        source = fast_yaml.safe_load((PAX / f"{name}.yaml").read_text(encoding="utf-8"))
        assert cached[name] == source, f"rerun: python tools/curate_pax.py --json-only ({name})"


def test_catalog_counts() -> None:
    catalog = pax_catalog()
    base = [c for c in catalog.cards.values() if c.set == "base"]
    assert len(base) == 168
    assert len([c for c in base if c.kind == "comet"]) == 4
    assert len(catalog.cards) - len(base) == 9  # Age of Reformation promos
    assert len(catalog.squares) == 10 and len(catalog.borders) == 13
    assert len([b for b in catalog.borders.values() if b.sea]) == 9
