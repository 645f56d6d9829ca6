"""Every ruleset's start-up cache games/<name>/catalog.json matches its YAML sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.rulesets import RULESETS, aor_catalog, catalog_for, ruleset_for
from tests import fast_yaml

GAMES = Path(__file__).resolve().parents[2] / "games"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_json_cache_matches_the_yaml_sources(ruleset: str) -> None:
    files = ruleset_for(ruleset).data_files
    cached = json.loads((GAMES / ruleset / "catalog.json").read_text(encoding="utf-8"))
    assert sorted(cached) == sorted(files)
    for name in files:
        source = fast_yaml.safe_load((GAMES / ruleset / f"{name}.yaml").read_text(encoding="utf-8"))
        assert cached[name] == source, (
            "rerun: python -c 'from pbem import resources, rulesets; resources.write_cache("
            f"\"{ruleset}\", rulesets.ruleset_for(\"{ruleset}\").data_files)' ({name})")


def test_the_ruleset_is_registered() -> None:
    assert "aor" in RULESETS and ruleset_for("aor").name == "aor"
    catalog = aor_catalog()
    assert catalog_for("aor") is catalog
    assert len(catalog.cards) == 64 and len(catalog.advances) == 26
