"""The systematic family of single edits to a game file, for the tamper table (issue 21 §5).

An edit is a name (what it changes, so a failing row says which) and a function that changes
the parsed game file in place. The family: every key of the header, of the state and the
agenda, of the roster (a seat, the moderator, the deadlines; an unknown key added to each) and the
randomness, and of the first log entry of every kind and the first change of a seat's own
settings (change its value, delete it, and for blocks and events, a change inside);
then the log as a whole: two entries swapped, one deleted, one duplicated, the log truncated
(with the state left, and with the state of the shorter game).
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

from pbem.orders.orderblock import find_blocks

Data = dict[str, Any]
Edit = tuple[str, Callable[[Data], None]]
HEX = "0123456789abcdef"
KINDS = ("setup", "orders", "sealed", "unseal", "timeout", "replacement", "reveal")


def altered(value: Any, key: str = "") -> Any:
    """A different value of the same shape (so the edit is not refused only for its type)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        if key == "kind" and value in KINDS:  # another real kind, not a name pbem refuses
            return KINDS[(KINDS.index(value) + 1) % len(KINDS)]
        if "-----BEGIN PBEM ORDERS-----" in value:
            return changed_block(value, "change")
        if value and all(c in HEX for c in value.lower().removeprefix("sha256:")):
            last = value[-1].lower()
            return value[:-1] + HEX[(HEX.index(last) + 1) % 16]
        return value + "x" if value else "x"
    if isinstance(value, list):
        if value:
            return value[:-1]  # the last item dropped
        return [{"forged": 1}]
    if isinstance(value, dict):
        if not value:
            return {"forged": 1}
        changed = dict(value)
        first = next(iter(changed))
        changed[first] = altered(changed[first], first)
        return changed
    return "forged"


def changed_block(text: str, how: str) -> str:
    """A logged block with its order lines changed ('change', 'add', 'remove', 'reorder');
    the signature is left as it was (a forger has no key)."""
    (block,) = find_blocks(text)
    lines = [line.text for line in block.lines]
    if how == "change":
        lines[0] = lines[0] + " 1" if not lines[0].endswith(" 1") else lines[0][:-2]
    elif how == "add":
        lines.append("end")
    elif how == "remove":
        lines = lines[:-1] if len(lines) > 1 else ["pass"]
    elif how == "reorder":
        lines = lines[::-1] if len(lines) > 1 else [lines[0], lines[0]]
    head, _, rest = text.partition("\n\n")
    body, sep, tail = rest.partition("-----BEGIN PBEM SIGNATURE-----")
    assert sep, "a logged block is signed"
    return head + "\n\n" + "".join(f"{line}\n" for line in lines) + sep + tail


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = copy.deepcopy(value)
    return edit


def _delete(path: tuple[Any, ...]) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        target = data
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]
    return edit


def _name(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def key_edits(data: Data, path: tuple[Any, ...], *, deep: int = 0) -> list[Edit]:
    """Change and delete each key under `path` (and, `deep` levels down, each nested key)."""
    target = data
    for step in path:
        target = target[step]
    edits: list[Edit] = []
    items = target.items() if isinstance(target, dict) else enumerate(target)
    for key, value in list(items):
        where = (*path, key)
        edits.append((f"change {_name(where)}", _set(where, altered(value, str(key)))))
        if isinstance(target, dict):
            edits.append((f"delete {_name(where)}", _delete(where)))
        if deep and isinstance(value, dict | list) and value:
            edits += key_edits(data, where, deep=deep - 1)
    return edits


def first_of_each_kind(log: list[Data]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, entry in enumerate(log):
        found.setdefault(str(entry["kind"]), index)
    return found


def entry_edits(data: Data, index: int) -> list[Edit]:
    entry = data["log"][index]
    edits = key_edits(data, ("log", index))
    kind = entry["kind"]
    for key in ("events", "draws"):
        if entry.get(key):
            edits += [(f"{kind}: change {key}[0].{k}", _set(("log", index, key, 0, k),
                                                            altered(v, k)))
                      for k, v in entry[key][0].items()]
    blocks: list[tuple[str, ...]] = [("block",)] if isinstance(entry.get("block"), str) else []
    blocks += [("blocks", str(who)) for who in dict(entry.get("blocks") or {})]
    for where in blocks[:1] + blocks[1:2]:
        text = entry
        for step in where:
            text = text[step]
        for how in ("change", "add", "remove", "reorder"):
            edited = changed_block(str(text), how)
            edits.append((f"{kind}: {how} a line of {_name(where)}",
                          _set(("log", index, *where), edited)))
            if "payload_sha256" in entry:  # a careful forger fixes the payload hash too
                digest = hashlib.sha256(find_blocks(edited)[0].payload()).hexdigest()
                edits.append((f"{kind}: {how} a line of {_name(where)}, payload hash fixed",
                               _both(_set(("log", index, *where), edited),
                                     _set(("log", index, "payload_sha256"), digest))))
    return [(f"log[{index}] ({kind}) {name}", edit) for name, edit in edits]


def _both(*edits: Callable[[Data], None]) -> Callable[[Data], None]:
    def edit(data: Data) -> None:
        for one in edits:
            one(data)
    return edit


def log_edits(data: Data) -> list[Edit]:
    """Whole-log edits: swap, delete, duplicate, truncate (state left as it is)."""
    last = len(data["log"]) - 1
    middle = last // 2

    def swap(data: Data) -> None:
        log = data["log"]
        log[middle], log[middle + 1] = log[middle + 1], log[middle]

    def duplicate(data: Data) -> None:
        data["log"].insert(middle + 1, copy.deepcopy(data["log"][middle]))

    def duplicate_renumbered(data: Data) -> None:  # the copy renumbered to chain
        log = data["log"]
        twin = copy.deepcopy(log[middle])
        twin["seq"] += 1
        twin["prev_state"] = twin["post_state"]
        log.insert(middle + 1, twin)
        for entry in log[middle + 2:]:
            entry["seq"] += 1
        data["seq"] += 1

    return [
        (f"swap log[{middle}] and log[{middle + 1}]", swap),
        (f"delete log[{middle}]", _delete(("log", middle))),
        (f"duplicate log[{middle}]", duplicate),
        (f"duplicate log[{middle}], renumbered", duplicate_renumbered),
        ("delete the last log entry, state left", _delete(("log", last))),
        ("truncate the log to its setup, state left", lambda d: d.update(log=d["log"][:1])),
        ("append a copy of the last entry", lambda d: d["log"].append(
            copy.deepcopy(d["log"][-1]))),
    ]


def head_edits(data: Data) -> list[Edit]:
    edits: list[Edit] = [("change format", _set(("format",), 1)),
                         ("change seq", _set(("seq",), data["seq"] + 1))]
    edits += key_edits(data, ("game",), deep=2)
    edits += key_edits(data, ("state",))
    edits += [(f"agenda: {name}", edit) for name, edit in key_edits(data, ("agenda",), deep=1)]
    edits.append(("agenda: a node added", lambda d: d["agenda"].append(
        copy.deepcopy(d["agenda"][0]) if d["agenda"] else {"id": "n0", "action": "x"})))
    edits += key_edits(data, ("roster",))
    edits += key_edits(data, ("roster", "players", 0))  # the other seats are alike
    for key in ("moderator", "deadlines"):
        if isinstance(data["roster"].get(key), dict):
            edits += key_edits(data, ("roster", key), deep=1)
    edits += key_edits(data, ("randomness",))
    for where in (("roster",), ("roster", "players", 0), ("roster", "moderator")):
        if isinstance(data["roster"].get(where[1]) if len(where) > 1 else data, dict):
            edits.append((f"add an unknown key to {_name(where)}", _set((*where, "forged"), "x")))
    return edits


def entries_to_edit(log: list[Data]) -> list[int]:
    """The first entry of every kind, and the last answer before the first unseal (a sealed
    answer or a timeout that completes a sealed decision is replayed by its unseal)."""
    chosen = set(first_of_each_kind(log).values())
    seats = next((i for i, e in enumerate(log) if e["kind"] == "settings" and "seats" in e), None)
    if seats is not None:  # a seat's own settings changed (time zones, digests)
        chosen.add(seats)
    unseal = next((i for i, e in enumerate(log) if e["kind"] == "unseal"), None)
    if unseal is not None:
        chosen.add(unseal - 1)
    return sorted(chosen)


def every_edit(data: Data) -> list[Edit]:
    edits = head_edits(data)
    if "seats" in (data["log"][0].get("settings") or {}):  # the seats' settings it began with
        edits += [(f"log[0] (setup) {name}", edit) for name, edit in
                  key_edits(data, ("log", 0, "settings", "seats"), deep=1)]
    for index in entries_to_edit(data["log"]):
        edits += entry_edits(data, index)
    return edits + log_edits(data)
