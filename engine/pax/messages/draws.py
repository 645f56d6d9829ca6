"""Draws in words: the log keeps each draw as data (purpose, outcome); these templates tell the
public ones in a turn's summary, keyed by the purpose's first word. The purpose's other words
are the positional fields ("refill-west-5": {0} is "west", {1} is "5"); {card} is the card
drawn, by name. A draw whose purpose is not here is not told (a dealt bank, a hidden card)."""

from __future__ import annotations

DRAWS: dict[str, str] = {
    "refill": "The {0} market refills: {card} is dealt into {0} {1}.",
    "astrology": "{card} turns up as the next {0} card (astrology).",
}
