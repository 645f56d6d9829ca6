"""Data words a reader sees inside sentences and tables: values of events and views that are
English words ("catholic", "knight", "west"), translated through the `term` context. Names
printed on the cards and the map (cards, empires, cities, borders) are not terms: they stay as
printed, so players can match them against the physical game."""

from __future__ import annotations

TERMS: tuple[str, ...] = (
    # religions and prestige
    "catholic", "islamic", "reformist", "law", "discovery", "patron",
    # tokens
    "knight", "rook", "pawn", "pirate", "bishop",
    # sides, regions, regimes
    "west", "east", "the West", "the East", "west market", "east market",
    "king", "republic", "queen", "vassal", "medieval",
    # victory squares and their state
    "holy", "imperial", "globalization", "renaissance", "active", "inactive",
    # the turn's actions
    "buy", "play", "sell", "ops", "fair", "victory",
    # the ops
    "behead", "campaign", "commerce", "corsair", "inquisitor", "repress", "siege", "tax", "vote",
    # game options
    "astrology", "bankruptcy", "default", "map", "open hands",
    # a seat's own settings (pbem.pipeline.clock.SEAT_SETTINGS)
    "timezone", "digest", "language",
)
