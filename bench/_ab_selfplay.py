"""Checked four-player Pax self-play of two checkouts, compared in finely interleaved rounds
(issue 17): is a change to the checked path faster, and by how much?

On a shared machine the host's own speed drifts by a fifth within an hour, and one process
can run a few per cent faster than its twin for its whole life. So each checkout gets several
long-lived worker processes (each plays one warm-up game first), and each round asks one
worker of each side, in a random order, to play the same seeded games, timing them in CPU
seconds. The figure to read is the median of the paired ratios; the two checkouts are also
checked to play the same games (the same number of decisions).

    python bench/_ab_selfplay.py BASE_ROOT NEW_ROOT [--rounds 40] [--games 2] [--workers 5]

Each ROOT is a checkout's top folder (`git archive REV | tar -x -C DIR` makes one).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAYERS = 4
SEED = "bench-checked"


def worker() -> None:
    """Play `n` seeded checked games for each line `n` read; answer with the CPU seconds."""
    from pbem.play import selfplay

    with tempfile.TemporaryDirectory(prefix="pbem-ab-") as temp:
        selfplay.run(1, PLAYERS, "warm", {}, fast=False, ruleset="pax", out_dir=Path(temp))
        print("ready", flush=True)
        for line in sys.stdin:
            started = time.process_time()
            stats = selfplay.run(int(line), PLAYERS, SEED, {}, fast=False, ruleset="pax",
                                 out_dir=Path(temp))
            print(time.process_time() - started, stats.decisions, len(stats.violations),
                  flush=True)


def spawn(root: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=root)
    process = subprocess.Popen([sys.executable, __file__, "--worker"], cwd=tempfile.gettempdir(),
                               env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    if process.stdout.readline().strip() != "ready":
        raise SystemExit(f"a worker on {root} did not start")
    return process


def compare(roots: list[str], rounds: int, games: int, workers: int) -> None:
    sides = [[spawn(root) for _ in range(workers)] for root in roots]
    seconds: list[list[float]] = [[], []]
    played: set[tuple[int, int]] = set()
    order = random.Random(1)
    for number in range(rounds):
        turn = [0, 1]
        order.shuffle(turn)
        for side in turn:
            process = sides[side][number % workers]
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(f"{games}\n")
            process.stdin.flush()
            cpu, decisions, violations = process.stdout.readline().split()
            seconds[side].append(float(cpu))
            played.add((int(decisions), int(violations)))
    for process in (p for workers_of_side in sides for p in workers_of_side):
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    if len(played) != 1:
        raise SystemExit(f"the two checkouts did not play the same games: {sorted(played)}")
    ratios = [base / new for base, new in zip(seconds[0], seconds[1], strict=True)]
    for root, series in zip(roots, seconds, strict=True):
        print(f"{root}: {games / statistics.median(series):.2f} games per CPU second (median "
              f"of {rounds} rounds of {games} games)")
    print(f"new speed / base speed, median of the paired ratios: {statistics.median(ratios):.3f}"
          f" (mean {statistics.mean(ratios):.3f}); decisions, violations: {played.pop()}")


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        worker()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--workers", type=int, default=5)
    args = parser.parse_args()
    compare([args.base, args.new], args.rounds, args.games, args.workers)


if __name__ == "__main__":
    main()
