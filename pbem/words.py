"""Words at the edge: structured events (engine.core.table.event) rendered for people.

Every ruleset's message catalog is keyed by ids with the ruleset's prefix (`pax.`, `aor.`),
the core's by `core.`; pbem's own events (timeouts, unseals, roster changes, the reveal) use
`pbem.`. A few of pbem's are built in code, because their arguments are records.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from engine.core.messages import MESSAGES as CORE_MESSAGES
from engine.core.words import Messages, render
from pbem import rulesets

PBEM_MESSAGES: dict[str, str] = {
    "pbem.replacement": "The moderator hands {player:title} to {name} (key {key}).",
    "pbem.reveal": "The moderator reveals the seed.",
}


def _timeout(args: Mapping[str, Any]) -> str:
    lines = "; ".join(str(line) for line in args["lines"])
    return f"{str(args['player']).title()} did not answer in time; the defaults apply: {lines}."


def _unseal(args: Mapping[str, Any]) -> str:
    shown = {str(p): str(a) for p, a in dict(args["answers"]).items()}
    for player, line in dict(args.get("defaults") or {}).items():
        shown[str(player)] = f"{line} (default, timed out)"
    pairs = "; ".join(f"{p}: {a}" for p, a in sorted(shown.items()))
    return f"The sealed answers are opened: {pairs}."


def _settings(args: Mapping[str, Any]) -> str:
    said = []
    if "nmr" in args:
        shown = ", ".join(f"{k} {v}" for k, v in dict(args["decisions"]).items()) or "none"
        said.append(f"deadlines: {shown}; NMR policy: {args['nmr']}")
    if args.get("emails"):
        said.append("new e-mail address for " + ", ".join(str(p) for p in args["emails"]))
    return "Settings: " + "; ".join(said) + "."


_BUILT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "pbem.timeout": _timeout, "pbem.unseal": _unseal, "pbem.settings": _settings}


@cache
def catalog(prefix: str) -> Messages:
    """The catalog for ids starting `prefix.`: a ruleset's ids start with its name, so only
    the ruleset whose events are rendered is loaded."""
    if prefix in rulesets.TABLE:
        return rulesets.ruleset_for(prefix).messages
    return ChainMap(PBEM_MESSAGES, CORE_MESSAGES)


def say(event: Mapping[str, Any]) -> str:
    msg = str(event.get("msg"))
    built = _BUILT.get(msg)
    if built is not None:
        return built(dict(event.get("args") or {}))
    return render(event, catalog(msg.partition(".")[0]))


def public_texts(events: Iterable[Mapping[str, Any]]) -> list[str]:
    return [say(e) for e in events if "visible_to" not in e]
