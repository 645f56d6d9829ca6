"""Issue 14: the coverage policy steers toward an unseen Advance through the steps to it (the
catalog's own `requires`), not through rules knowledge of its own."""

from __future__ import annotations

from types import SimpleNamespace

from engine.core.choice import Choice
from pbem.play.coverage_keys import leads_to, steps_toward
from pbem.play.policy import CoveragePolicy, make_policy
from pbem.rulesets import catalog_for


def test_an_advance_leads_to_every_advance_that_needs_it_at_any_remove() -> None:
    advances = catalog_for("aor").advances
    assert leads_to(advances, "ocean_navigation") == {"advance:New World"}
    assert leads_to(advances, "the_heavens") == {"advance:Ocean Navigation", "advance:New World"}
    assert leads_to(advances, "new_world") == set()
    assert {"advance:Industry", "advance:Middle Class"} <= leads_to(advances, "caravan")


def _buy(advance: str) -> Choice:
    return Choice("buy", (advance,), ("advance",), f"buy {advance}")


def test_coverage_always_tries_a_step_toward_an_advance_never_bought() -> None:
    """New World needs Ocean Navigation first: once every other Advance was seen, a player who
    owns The Heavens, Seaworthy Vessels and Urban Ascendancy always tries buying Ocean
    Navigation, however many other purchases are on offer."""
    catalog = catalog_for("aor")
    table = SimpleNamespace(catalog=catalog)
    bot = make_policy("coverage")
    assert isinstance(bot, CoveragePolicy)
    bot.new_game("steps")
    bot.seen = {f"advance:{data.name}" for key, data in catalog.advances.items()
                if key != "new_world"}
    owned = {"the_heavens", "seaworthy_vessels", "urban_ascendancy", "new_world"}
    offered = [_buy(a) for a in catalog.advances if a not in owned]
    assert len(offered) == 22
    assert steps_toward(catalog, _buy("ocean_navigation")) - bot.seen == {"advance:New World"}
    for _ in range(20):
        sample = bot._sample(table, offered, 6)  # type: ignore[arg-type]
        assert len(sample) == 6 and _buy("ocean_navigation") in sample
