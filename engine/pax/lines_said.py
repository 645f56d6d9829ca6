"""What a legal order line does, as a message (id and arguments) from the reader's view: the
explanation a report may print beside the line. The line itself is the order language and is
never reworded; a line this does not know is shown without one."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

SIDES = ("west", "east")


def _slot(view: Mapping[str, Any], side: str, column: str) -> Mapping[str, Any] | None:
    for slot in view.get("market", {}).get(side, []):
        if str(slot.get("column")) == column:
            return dict(slot)
    return None


def line_said(view: Mapping[str, Any], line: str) -> dict[str, Any] | None:
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    verb, args = (words[0], words[1:]) if words else ("", [])
    if verb == "buy" and len(args) == 2 and args[0] in SIDES:
        slot = _slot(view, args[0], args[1])
        if slot is not None and slot.get("cost") is not None:
            return {"msg": "pax.line.buy", "args": {"market": f"{args[0]} market",
                                                    "column": args[1], "cost": slot["cost"]}}
    if verb in ("sell", "play") and len(args) == 1:
        return {"msg": f"pax.line.{verb}", "args": {"card": args[0]}}
    if verb in ("fair", "ops") and len(args) == 1 and args[0] in SIDES:
        return {"msg": f"pax.line.{verb}", "args": {"side": args[0]}}
    if verb == "concession" and len(args) == 1:
        return {"msg": "pax.line.concession", "args": {"border": args[0]}}
    if verb == "no" and args == ["concession"]:
        return {"msg": "pax.line.no_concession", "args": {}}
    if not args and verb in ("end", "done", "skip"):
        return {"msg": f"pax.line.{verb}", "args": {}}
    if verb == "standing" and args[:2] == ["taxed", "pay"]:
        if len(args) == 2:
            return {"msg": "pax.line.standing.pay", "args": {}}
        return {"msg": "pax.line.standing.pay_holding", "args": {"florins": args[2]}}
    if verb == "standing" and args in (["taxed", "repress"], ["taxed", "ask"]):
        return {"msg": f"pax.line.standing.{args[1]}", "args": {}}
    return None


def line_final(view: Mapping[str, Any], line: str) -> dict[str, Any] | None:
    """Why sending this line can never be taken back, as a message (or None): `end` refills
    an empty market slot from the deck (D2), a draw no takeback undoes (pbem, issue 24)."""
    market = view.get("market", {})
    if line.strip().lower() == "end" and any(slot.get("empty") for side in SIDES
                                             for slot in market.get(side, [])):
        return {"msg": "pax.final.refill", "args": {}}
    return None
