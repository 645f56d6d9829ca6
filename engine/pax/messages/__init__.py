"""The English message catalog of Pax Renaissance: event message id -> template (engine.core.words).

Ids start with "pax."; the templates are our own words. Rewording one changes reports, never
what the log proves. The catalog is split by area; each part is plain data, and where the words
vary with a condition (a count, a kind of battle, a religion's article) the part spells out one
template per case, and the rules choose the id.
"""

from __future__ import annotations

from engine.pax.messages import board, cards, lines, oneshots, ops, turn

PARTS: tuple[dict[str, str], ...] = (turn.MESSAGES, board.MESSAGES, ops.MESSAGES, oneshots.MESSAGES,
                                      cards.MESSAGES, lines.MESSAGES)

MESSAGES: dict[str, str] = {}
for _part in PARTS:
    assert not MESSAGES.keys() & _part.keys(), sorted(MESSAGES.keys() & _part.keys())
    MESSAGES.update(_part)
