"""The Age of Renaissance start-up cache games/aor/catalog.json matches the YAML sources."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from pbem.resources import AOR_FILES, aor_catalog
from pbem.rulesets import RULESETS, catalog_for, ruleset_for

AOR = Path(__file__).resolve().parents[2] / "games" / "aor"


def test_json_cache_matches_the_yaml_sources() -> None:
    cached = json.loads((AOR / "catalog.json").read_text(encoding="utf-8"))
    assert sorted(cached) == sorted(AOR_FILES)
    for name in AOR_FILES:
        source = yaml.safe_load((AOR / f"{name}.yaml").read_text(encoding="utf-8"))
        assert cached[name] == source, \
            f"rerun: python -c 'from pbem.resources import write_aor_cache; write_aor_cache()' ({name})"


def test_the_ruleset_is_registered() -> None:
    assert "aor" in RULESETS and ruleset_for("aor").name == "aor"
    catalog = aor_catalog()
    assert catalog_for("aor") is catalog
    assert len(catalog.cards) == 64 and len(catalog.advances) == 26
