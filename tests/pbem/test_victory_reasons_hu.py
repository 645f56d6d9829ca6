"""A refused victory says which conditions fall short, with the numbers, in the reader's
language (issue 18): the shortfalls are keyed reasons (engine.pax.explain), the English is
as before (tests/scenarios/victory/reject-victory-*.yaml), the rule and the rival's id verbatim."""

from __future__ import annotations

from engine.core.errors import Verbatim, because
from engine.pax.messages.reasons import REASONS
from pbem.i18n.errors import say_reason


def _why(key: str, **fields: object) -> object:
    return because(REASONS, f"reason:pax.{key}", **fields)


REFUSED = _why(
    "victory_not_met_both", square="renaissance", rule=Verbatim("L6"),
    first=_why("shortfall", label=_why("measure.republics"), mine=0, needed=1,
               rival=Verbatim("medici"), best=0),
    second=_why("shortfall_by", label=_why("measure.law_prestige"), mine=0, needed=2,
                margin=2, rival=Verbatim("medici"), best=0))


def test_a_refused_victory_in_english_reads_as_before() -> None:
    assert str(REFUSED) == ("renaissance victory not met (L6): Republics: 0, needs 1 (more than "
                            "medici's 0); Law prestige: 0, needs 2 (2 more than medici's 0)")


def test_a_refused_victory_in_hungarian() -> None:
    said = say_reason(REFUSED, "hu")  # type: ignore[arg-type]
    assert said == ("a(z) reneszánsz győzelem feltételei nem teljesülnek (L6): Köztársaságok: 0, "
                    "kellene 1 (több, mint medici 0); Törvény presztízs: 0, kellene 2 (2-vel "
                    "több, mint medici 0)")
