"""The core's own message catalog (engine.core.words): answers to simultaneous decisions."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "core.answer.sealed": "{player}'s sealed answer is in.",
    "core.answer.in": "{player} has answered.",
    "core.answer.yours": "{player} answered: {line}",
    "core.seal.in": "{player} seals their answer.",
}
