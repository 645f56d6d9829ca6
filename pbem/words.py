"""Words at the edge: structured events (engine.core.table.event) rendered for people.

Every ruleset's message catalog is keyed by ids with the ruleset's prefix (`pax.`, `aor.`);
pbem's own events (timeouts, unseals, roster changes) use `pbem.`.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from engine.core.messages import MESSAGES as CORE_MESSAGES
from engine.core.words import Messages, render

PBEM_MESSAGES: dict[str, str] = {}


@cache
def catalog() -> Messages:
    from pbem.rulesets import all_messages

    return ChainMap(PBEM_MESSAGES, CORE_MESSAGES, *all_messages())


def say(event: Mapping[str, Any]) -> str:
    return render(event, catalog())


def public_texts(events: Iterable[Mapping[str, Any]]) -> list[str]:
    return [say(e) for e in events if "visible_to" not in e]
