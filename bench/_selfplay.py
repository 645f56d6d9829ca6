"""Self-play rates in CPU time (issue 17): checked four-player Pax games (signed blocks through
the pipeline, invariants, the JSON check per block, the exact YAML check every 40 blocks, the
final replay) and full Age of Renaissance games (`end=advances`, fast mode) at 3 and 6 players.

CPU seconds (`time.process_time`) rather than wall time: on a shared machine a neighbour's load
stretches wall time several times over and CPU time far less. Runs alone too, against any
checkout on PYTHONPATH (for before/after figures): `python bench/_selfplay.py [--quick]`.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pbem.play import selfplay

TARGET_GAMES_PER_CPU_S = 5.0
AOR_OPTIONS = {"end": "advances"}


def _rate(games: int, players: int, seed: str, options: dict[str, Any], *, fast: bool,
          ruleset: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pbem-bench-selfplay-") as temp:
        started = time.process_time()
        stats = selfplay.run(games, players, seed, options, fast=fast, ruleset=ruleset,
                             out_dir=Path(temp))
        cpu = time.process_time() - started
    return {"games": stats.games, "players": players, "decisions": stats.decisions,
            "violations": len(stats.violations), "cpu_seconds": round(cpu, 2),
            "games_per_cpu_second": round(stats.games / cpu, 2) if cpu else None}


def bench_selfplay_cpu(quick: bool) -> dict[str, Any]:
    pax, aor = (4, 5) if quick else (20, 20)
    rows = {
        "checked_pax_4p": _rate(pax, 4, "bench-checked", {}, fast=False, ruleset="pax"),
        "aor_advances_3p_fast": _rate(aor, 3, "bench-aor", AOR_OPTIONS, fast=True,
                                      ruleset="aor"),
        "aor_advances_6p_fast": _rate(aor, 6, "bench-aor", AOR_OPTIONS, fast=True,
                                      ruleset="aor"),
    }
    rates = [row["games_per_cpu_second"] or 0 for row in rows.values()]
    return {**rows, "target_games_per_cpu_second_min": TARGET_GAMES_PER_CPU_S,
            "met": all(rate >= TARGET_GAMES_PER_CPU_S for rate in rates)}


if __name__ == "__main__":
    print(json.dumps(bench_selfplay_cpu("--quick" in sys.argv[1:]), indent=2))
