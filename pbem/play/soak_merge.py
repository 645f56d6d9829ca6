"""`python -m pbem.play.soak --merge a.json b.json ...`: the total of a soak run played in
shards (issue 14). The shards must be of one run (same seed and plan) and together cover games
0..N-1 exactly once: a gap or an overlap is refused, so a merged summary always stands for one
reproducible run of N games. Exit status as for a soak: 0 clean, 70 when a shard saw an
invariant violation, 2 when the shards do not fit together or a file is unreadable.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from pbem.errors import ExitCode

SUMMED = ("games", "decisions", "invariant_violations", "seconds")
JOINED = ("violations", "repro_files")
COUNTED = ("endings", "by_configuration")


class ShardError(ValueError):
    """Shards that do not make one run; the message is one line for people."""


def read_shard(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ShardError(f"{path}: not a soak summary ({type(exc).__name__})") from exc
    needed = ("seed", "first", "count", "configurations", *SUMMED, *JOINED, *COUNTED)
    if not isinstance(data, dict) or any(key not in data for key in needed):
        raise ShardError(f"{path}: not a soak shard summary (no first/count: rerun with --first)")
    if not all(isinstance(data[key], int) and data[key] >= 0 for key in ("first", "count")):
        raise ShardError(f"{path}: first and count must be whole numbers, 0 or more")
    return data


def ranges_problem(shards: list[tuple[Path, dict[str, Any]]], start: int = 0) -> str | None:
    """Why the shards' game ranges do not tile start..N-1 (a gap or an overlap); None if they
    do."""
    expected = start
    for path, shard in sorted(shards, key=lambda s: (s[1]["first"], s[1]["count"])):
        first, last = shard["first"], shard["first"] + shard["count"] - 1
        if first > expected:
            return f"games {expected}..{first - 1} are in no shard (gap before {path})"
        if first < expected:
            return f"{path} plays games {first}..{last}, overlapping games {first}..{expected - 1}"
        expected = last + 1
    return None


def merge(shards: list[tuple[Path, dict[str, Any]]], start: int = 0) -> dict[str, Any]:
    """The sum of shard summaries that make one run (from game `start`: a shard played in
    parallel pieces); ShardError if they do not."""
    for key in ("seed", "configurations"):
        values = {json.dumps(shard[key]) for _, shard in shards}
        if len(values) > 1:
            raise ShardError(f"the shards are of different runs: {key} {', '.join(sorted(values))}")
    problem = ranges_problem(shards, start)
    if problem:
        raise ShardError(problem)
    total: dict[str, Any] = {"seed": shards[0][1]["seed"], "first": start,
                             "count": sum(shard["count"] for _, shard in shards),
                             "shards": len(shards)}
    for key in SUMMED:
        total[key] = sum(shard[key] for _, shard in shards)
    total["seconds"] = round(total["seconds"], 1)
    for key in JOINED:
        total[key] = [item for _, shard in sorted(shards, key=lambda s: s[1]["first"])
                      for item in shard[key]]
    for key in COUNTED:
        counts: Counter[str] = Counter()
        for _, shard in shards:
            counts.update(shard[key])
        total[key] = dict(sorted(counts.items()))
    total["configurations"] = shards[0][1]["configurations"]
    total["configurations_played"] = len(total["by_configuration"])
    total["checked"] = all(shard.get("checked") for _, shard in shards)
    return total


def merge_main(paths: list[Path]) -> int:
    try:
        total = merge([(path, read_shard(path)) for path in paths])
    except ShardError as exc:
        print(f"soak: merge: {exc}", file=sys.stderr)
        return int(ExitCode.USAGE)
    print(json.dumps(total, ensure_ascii=False))
    return int(ExitCode.INTERNAL) if total["invariant_violations"] else int(ExitCode.OK)
