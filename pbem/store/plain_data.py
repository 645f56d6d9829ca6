"""Whether loaded YAML holds only what JSON holds, and the error naming the first place that
does not (split from gamefile; importable from there as before)."""

from __future__ import annotations

import math
from typing import Any

from pbem.errors import CorruptGameError
from pbem.store.yaml_codec import Rejected

_PLAIN_KINDS = frozenset({str, int, bool, type(None)})


def _is_plain(data: Any) -> bool:
    """Whether `check_plain_data` passes, found without building the path of every value (the
    paths are built only to name a problem)."""
    stack = [data]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is dict:
            for key in value:
                if type(key) is not str:
                    return False
            stack.extend(value.values())
        elif kind is list:
            stack.extend(value)
        elif kind is float:
            if not math.isfinite(value):
                return False
        elif kind not in _PLAIN_KINDS:
            return False
    return True


def check_plain_data(data: Any, where: str = "") -> None:
    """CorruptGameError naming the first key whose value JSON cannot hold as it is: keys are
    strings; values are strings, whole or finite numbers, true/false, null, lists, mappings."""
    if _is_plain(data):
        return
    stack: list[tuple[Any, str]] = [(data, where)]
    while stack:
        value, path = stack.pop()
        kind = type(value)
        # Children are pushed last first, so the first bad value in the file is the one named.
        if kind is dict:
            for key in value:
                if type(key) is not str:
                    shown = key.what if isinstance(key, Rejected) else repr(key)[:40]
                    raise CorruptGameError(f"game file: {_place(path)} has a key {shown} that is "
                                           "not a string")
            stack.extend((value[key], f"{path}.{key}" if path else key) for key in reversed(value))
        elif kind is list:
            stack.extend((value[index], f"{path}[{index}]") for index in reversed(range(len(value))))
        elif kind is float and not math.isfinite(value):
            raise CorruptGameError(f"game file: {_place(path)} is {value}, not a finite number")
        elif kind not in (str, int, bool, float, type(None)):
            what = f"a YAML {value.what} (line {value.line})" if kind is Rejected else \
                f"a {kind.__name__}"
            raise CorruptGameError(f"game file: {_place(path)} holds {what}; a game file holds "
                                   "only strings, numbers, true/false, null, lists and mappings")


def _place(path: str) -> str:
    shown = "".join(char if char.isprintable() else "?" for char in path[:80])  # one line
    shown = shown if len(path) <= 80 else shown[:77] + "..."
    return f"'{shown}'" if path else "the top level"
