"""`make fuzz` (issue 20 §6): FUZZ_N inputs (default 100,000) across the families of
tests/reliability/families.py, through the CLI in-process, in turn. It fails on any exit 70
or traceback, any failing input that changed a file, and any input that takes over a second
of CPU. Input i of a run is made from random.Random(f"{seed}-{i}"), so `--only i` replays it.
Failing inputs are written to fuzz-failures/ (argv, stdin and files)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.families import FAMILIES, Arena, Outcome  # noqa: E402

SLOW = 1.0  # seconds of CPU for one input


def keep(outcome: Outcome, number: int, out: Path) -> None:
    folder = out / f"{number}-{outcome.case.family.replace(' ', '-')}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "argv.json").write_text(json.dumps(outcome.case.argv) + "\n")
    (folder / "output.txt").write_text(outcome.describe() + "\n")
    if outcome.case.stdin is not None:
        (folder / "stdin").write_bytes(outcome.case.stdin)
    for name, data in outcome.case.files.items():
        (folder / name.replace("/", "_")).write_bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=int(os.environ.get("FUZZ_N", "100000")))
    parser.add_argument("--seed", default=os.environ.get("FUZZ_SEED", "fuzz"))
    parser.add_argument("--start", type=int, default=0,
                        help="first input number (two runs with --start 0 and --start N/2 "
                        "split one run between two cores)")
    parser.add_argument("--only", type=int, help="replay input number ONLY and show it")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"))
    options = parser.parse_args()
    names = sorted(FAMILIES)
    numbers = [options.only] if options.only is not None else range(options.start, options.start + options.n)
    runs: Counter[str] = Counter()
    codes: dict[str, Counter[int]] = defaultdict(Counter)
    bad: Counter[str] = Counter()
    slowest: dict[str, float] = defaultdict(float)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-") as scratch:
        arena = Arena(Path(scratch))
        for number in numbers:
            family = names[number % len(names)]
            outcome = arena.run(FAMILIES[family](random.Random(f"{options.seed}-{number}"),
                                                 arena))
            runs[family] += 1
            codes[family][outcome.code] += 1
            slowest[family] = max(slowest[family], outcome.seconds)
            problem = "crash or write on failure" if not outcome.ok else \
                "slower than 1 s" if outcome.seconds > SLOW else ""
            if problem or options.only is not None:
                bad[problem] += bool(problem)
                keep(outcome, number, options.out)
                print(f"#{number} {problem or 'ok'}: {outcome.describe()}", flush=True)
            if number and number % 1000 == 0:
                print(f"fuzz: {number - options.start} inputs, {sum(bad.values())} bad, "
                      f"{time.monotonic() - started:.0f} s", flush=True)
    print(f"fuzz: {sum(runs.values())} inputs in {time.monotonic() - started:.0f} s, seed "
          f"{options.seed!r}, numbers {numbers[0]} to {numbers[-1]}")
    for family in names:
        shown = ", ".join(f"{code}: {count}" for code, count in sorted(codes[family].items()))
        print(f"  {family}: {runs[family]} inputs; exit codes {{{shown}}}; slowest "
              f"{slowest[family]:.2f} s CPU")
    print(f"  exit 70, tracebacks or writes on failure: {bad['crash or write on failure']}")
    print(f"  slower than {SLOW:g} s: {bad['slower than 1 s']}")
    raise SystemExit(1 if sum(bad.values()) else 0)


if __name__ == "__main__":
    main()
