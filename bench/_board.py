"""The board and the HTML report, timed in process (issue 16): each should take well under
100 ms once pbem is loaded, so a report mail or a history page costs little.

For a Pax game at block 150 (the apply position) and a 6-player Age of Renaissance game after
150 random blocks, after one warm-up render (templates compiled, layout and catalog loaded):
`model` is `report_model` for the player who must act, `svg` draws the board from that model,
`html` renders the whole page (board included) from it, and `report_html` is model + page, what
`pbem report --format html` pays after opening the game. Wall-clock medians and maxima in ms,
and the median CPU time of the process (steadier on a shared machine). `met`: every `svg`
and `report_html` wall-clock median under 100 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.pipeline.game import Game, from_gamefile
from pbem.store import gamefile, seeds
from pbem.views import html
from pbem.views.board import draw_model
from pbem.views.model import report_model

TARGET_MS = 100.0


def _timed(step: Callable[[], object], runs: int) -> dict[str, float]:
    step()  # warm-up: templates compiled, layout and catalog loaded
    times, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        step()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2),
            "cpu_median_ms": round(statistics.median(cpu), 2)}


def _one(game: Game, runs: int) -> dict[str, Any]:
    viewer = report_model(game, None)["waiting_for"][0]
    model = report_model(game, viewer)
    return {"model": _timed(lambda: report_model(game, viewer), runs),
            "svg": _timed(lambda: draw_model(model), runs),
            "html": _timed(lambda: html.page(model), runs),
            "report_html": _timed(lambda: html.page(report_model(game, viewer)), runs),
            "html_bytes": len(html.page(model).encode("utf-8"))}


def bench_board(pax_text: str, pax_seed: str, runs: int) -> dict[str, Any]:
    sys.path.append(str(Path(__file__).resolve().parent.parent))  # the repository's tests/
    from tests.board.games import played  # the same seeded random play the board tests use

    pax = from_gamefile(gamefile.load_text(pax_text), seeds.make_seed(pax_seed))
    result = {"pax": _one(pax, runs), "aor": _one(played("aor", 6, 150, seed="bench-board",
                                                        end="epoch1"), runs)}
    worst = max(result[name][step]["median_ms"] for name in ("pax", "aor")
                for step in ("svg", "report_html"))
    return {**result, "target_ms_max": TARGET_MS, "met": worst < TARGET_MS}
