"""Every command's cost as a ratio to the bare import (issue 17), in one run, on a wheel install.

pbem is built into a wheel and installed into a fresh virtual environment (pip compiles its
bytecode at install, as a user's install does), and every process is started from there. Each
round runs, interleaved so that every series sees the same machine load:

- the baseline `python -c "import yaml, jinja2, cryptography"`;
- `pbem --help`;
- at each game length (10, 50, 100, 200 and 400 blocks, or as far as the game goes): `apply`
  (the next signed block, on a fresh copy), `status`, `options`, `report --for` the player to
  move, and `verify`.

Each process is timed twice: its wall time, and its CPU time (user + system, from the kernel's
accounting of that child alone). On a shared machine a neighbour stretches wall time several
times over and CPU time far less, so the ratios are of CPU medians; the wall ratios are printed
beside them. Round 0 warms the caches and is dropped.

    python bench/_commands.py [--quick] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _game import longest

from engine.core.agenda import waiting_for
from pbem.store import gamefile

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "import yaml, jinja2, cryptography"
LENGTHS = (10, 50, 100, 200, 400)
AT = 150  # the table is at a 150-block game
TARGETS = {"apply": 1.5, "status": 1.5, "options": 1.5, "report": 2.0, "verify": 2.5,
           "help": 2.0}
COMMANDS = ("apply", "status", "options", "report", "verify")


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def install_wheel(where: Path) -> Path:
    """Build pbem's wheel and install it with its dependencies into a new environment; the
    environment's bin directory."""
    wheels = where / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                    str(ROOT)], check=True)
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    wheel = next(wheels.glob("pbem-*.whl"))
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True)
    return venv / "bin"


@dataclass(frozen=True)
class Timed:
    wall: float
    cpu: float


def run_process(argv: list[str], cwd: Path, env: dict[str, str]) -> Timed:
    """One whole process: its wall time and its own CPU time. A failure stops the bench: the
    timing of an error exit would mean nothing."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    error = child.stderr.read().decode() if child.stderr else ""
    if child.stderr:
        child.stderr.close()
    if child.returncode != 0:
        raise SystemExit(f"bench: {' '.join(argv)} exited {child.returncode}: {error.strip()}")
    return Timed(wall, usage.ru_utime + usage.ru_stime)


@dataclass(frozen=True)
class Position:
    seq: int
    game: Path
    block: Path
    player: str
    text: str


def positions(directory: Path, quick: bool) -> tuple[list[Position], str]:
    lengths = (*LENGTHS, AT) if not quick else (10, 50)
    built, _ = longest([f"bench-{i}" for i in range(1 if quick else 6)], sorted(set(lengths)))
    found: dict[int, Position] = {}
    for snap in built.snapshots.values():
        if snap.seq in found:
            continue
        game = directory / f"game-{snap.seq}.yaml"
        block = directory / f"game-{snap.seq}.block.txt"
        game.write_text(snap.text, encoding="utf-8")
        block.write_text(snap.block, encoding="utf-8")
        player = waiting_for(gamefile.load(game).agenda)[0]
        found[snap.seq] = Position(snap.seq, game, block, player, snap.text)
    return [found[seq] for seq in sorted(found)], built.seed


def argvs(bin_dir: Path, at: Position) -> dict[str, list[str]]:
    pbem = str(bin_dir / "pbem")
    work = at.game.with_suffix(".work.yaml")
    return {"apply": [pbem, "apply", str(work), str(at.block)],
            "status": [pbem, "status", str(at.game), "--now", "2026-12-01T00:00:00Z"],
            "options": [pbem, "options", str(at.game)],
            "report": [pbem, "report", str(at.game), "--for", at.player],
            "verify": [pbem, "verify", str(at.game)]}


def measure(bin_dir: Path, places: list[Position], rounds: int,
            cwd: Path) -> dict[str, list[Timed]]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "VIRTUAL_ENV")}
    env["XDG_CACHE_HOME"] = str(cwd / "cache")  # the template cache a user keeps
    python = str(bin_dir / "python")
    series: dict[str, list[Timed]] = {}
    for index in range(rounds + 1):
        log(f"round {index}/{rounds}")
        times: dict[str, Timed] = {
            "baseline": run_process([python, "-c", BASELINE], cwd, env),
            "help": run_process([str(bin_dir / "pbem"), "--help"], cwd, env)}
        for at in places:
            for name, argv in argvs(bin_dir, at).items():
                if name == "apply":
                    at.game.with_suffix(".work.yaml").write_text(at.text, encoding="utf-8")
                times[f"{name}@{at.seq}"] = run_process(argv, cwd, env)
        if index:
            for name, timed in times.items():
                series.setdefault(name, []).append(timed)
    return series


def median(values: list[float]) -> float:
    return statistics.median(values)


def report(series: dict[str, list[Timed]], places: list[Position]) -> dict[str, Any]:
    base_cpu = median([t.cpu for t in series["baseline"]])
    base_wall = median([t.wall for t in series["baseline"]])

    def ratios(name: str) -> dict[str, float]:
        return {"cpu_ms": round(median([t.cpu for t in series[name]]) * 1000, 1),
                "wall_ms": round(median([t.wall for t in series[name]]) * 1000, 1),
                "cpu_ratio": round(median([t.cpu for t in series[name]]) / base_cpu, 2),
                "wall_ratio": round(median([t.wall for t in series[name]]) / base_wall, 2)}

    at = min(places, key=lambda p: abs(p.seq - AT)).seq
    table = {name: {**ratios(f"{name}@{at}"), "target": TARGETS[name],
                    "met": ratios(f"{name}@{at}")["cpu_ratio"] <= TARGETS[name]}
             for name in COMMANDS}
    table["help"] = {**ratios("help"), "target": TARGETS["help"],
                     "met": ratios("help")["cpu_ratio"] <= TARGETS["help"]}
    growth = {name: {str(p.seq): ratios(f"{name}@{p.seq}")["cpu_ratio"] for p in places}
              for name in COMMANDS}
    verify_rows = [(p.seq, median([t.cpu for t in series[f"verify@{p.seq}"]])) for p in places]
    (first, low), (last, high) = verify_rows[0], verify_rows[-1]
    return {"baseline": {"cpu_ms": round(base_cpu * 1000, 1),
                         "wall_ms": round(base_wall * 1000, 1)},
            "at_block": at, "table": table, "growth_cpu_ratio": growth,
            "verify_marginal_ms_per_block": round((high - low) / max(last - first, 1) * 1000, 3),
            "rounds": len(series["baseline"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="two lengths, three rounds")
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 15)")
    args = parser.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 15)
    begun = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pbem-bench-commands-") as temp:
        where = Path(temp)
        log("building the wheel and installing it into a new environment")
        bin_dir = install_wheel(where)
        log("playing the game to each length")
        places, seed = positions(where, args.quick)
        log(f"seed {seed}: positions at {[p.seq for p in places]}; {rounds} rounds")
        result = report(measure(bin_dir, places, rounds, where), places)
        shutil.rmtree(where / "venv", ignore_errors=True)
    result.update({"seed": seed, "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
                   "seconds": round(time.perf_counter() - begun, 1)})
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
