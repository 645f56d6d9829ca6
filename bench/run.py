"""The pbem benchmark (issue 3): apply, verify, self-play and how cost grows with game length.

Run from the repository root:

    .venv/bin/python bench/run.py            # full run, under a minute on 2 cores
    .venv/bin/python bench/run.py --quick    # smoke run, a few seconds

Prints one JSON object on stdout; progress goes to stderr. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _board import bench_board
from _game import PLAYERS, Snapshot, longest
from _selfplay import bench_selfplay_cpu

from pbem import api, rulesets
from pbem.pipeline import replay
from pbem.pipeline.apply import apply_text
from pbem.pipeline.game import from_gamefile
from pbem.play import selfplay
from pbem.store import gamefile, seeds

ROOT = Path(__file__).resolve().parent.parent
APPLY_AT = 150
SCALE_AT = (50, 150, 400)
TARGET_RATIO = 3.0
TARGET_VERIFY_MS = 2.0
TARGET_GAMES_PER_S = 5.0
BASELINE = "import yaml, jinja2, cryptography"


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def median(values: list[float]) -> float:
    return round(statistics.median(values), 4)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


ENV: dict[str, str] = dict(os.environ)


def child_env(pyc_dir: Path | None) -> None:
    """Children cache bytecode in `pyc_dir` (outside the tree), as an installed pbem would
    (pip compiles a wheel at install); None keeps the environment as it is."""
    if pyc_dir is not None:
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        ENV["PYTHONPYCACHEPREFIX"] = str(pyc_dir)


def run_process(argv: list[str]) -> float:
    """Wall time of one whole process; a failure stops the benchmark (a timing of an error
    exit would be meaningless)."""
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=ENV, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bench: {' '.join(argv[1:])} exited {done.returncode}: "
                         f"{done.stderr.strip()}")
    return elapsed


def pbem(*args: str) -> list[str]:
    return [sys.executable, "-m", "pbem", *args]


def write_position(directory: Path, snap: Snapshot, name: str) -> tuple[Path, Path]:
    game, block = directory / f"{name}.yaml", directory / f"{name}.block.txt"
    game.write_text(snap.text, encoding="utf-8")
    block.write_text(snap.block, encoding="utf-8")
    return game, block


def time_rounds(directory: Path, snaps: list[Snapshot], runs: int) -> dict[str, list[float]]:
    """Whole-process wall times, interleaved round by round so that every series sees the
    same machine load: `pbem apply` at each position (on a fresh copy of the game each run),
    the baseline import and `import pbem.cli`. Round 0 warms the caches and is dropped."""
    series: dict[str, list[float]] = {"baseline": [], "import_pbem_cli": []}
    positions = []
    for snap in snaps:
        master, block = write_position(directory, snap, f"game-{snap.seq}")
        positions.append((snap, master.with_suffix(".work.yaml"), block))
        series[f"apply_{snap.seq}"] = []
    for index in range(runs + 1):
        times: dict[str, float] = {}
        for snap, work, block in positions:
            work.write_text(snap.text, encoding="utf-8")
            times[f"apply_{snap.seq}"] = run_process(pbem("apply", str(work), str(block)))
        times["baseline"] = run_process([sys.executable, "-c", BASELINE])
        times["import_pbem_cli"] = run_process([sys.executable, "-c", "import pbem.cli"])
        if index:
            for name, seconds in times.items():
                series[name].append(seconds)
    for snap, work, _ in positions:
        if gamefile.load(work).seq != snap.seq + 1:
            raise SystemExit(f"bench: pbem apply did not advance {work.name} to seq {snap.seq + 1}")
    return series


def summary(values: list[float]) -> dict[str, Any]:
    return {"median_s": median(values), "min_s": round(min(values), 4),
            "all_s": [round(t, 4) for t in values]}


def apply_in_process(master: Path, block: Path, runs: int) -> dict[str, float]:
    """The steps of one `pbem apply` after the imports (building the card catalog, then
    service.apply_block's), timed one by one: median of `runs`, in ms."""
    text = block.read_text(encoding="utf-8")
    steps: dict[str, list[float]] = {"catalog": [], "load": [], "apply_text": [],
                                     "dump_text": [], "write_atomic": []}
    work = master.with_suffix(".inproc.yaml")
    for index in range(runs + 1):  # run 0 is a warm-up
        begin = time.perf_counter()
        rulesets.catalog_for.cache_clear()  # every process builds the catalog once
        rulesets.pax_catalog()
        start = time.perf_counter()
        gf = gamefile.load(master)
        loaded = time.perf_counter()
        applied = apply_text(from_gamefile(gf, seeds.known_seed(master, gf), master), text)
        adjudicated = time.perf_counter()
        out = gamefile.dump_text(applied.gf)
        dumped = time.perf_counter()
        gamefile.write_atomic(work, out)
        written = time.perf_counter()
        if not index:
            continue
        for step, seconds in zip(steps, (start - begin, loaded - start, adjudicated - loaded,
                                         dumped - adjudicated, written - dumped), strict=True):
            steps[step].append(seconds)
    result = {f"{step}_ms": ms(statistics.median(values)) for step, values in steps.items()}
    result["total_ms"] = round(sum(result.values()), 3)
    return result


def bench_apply(directory: Path, snap: Snapshot, series: dict[str, list[float]],
                runs: int) -> dict[str, Any]:
    apply, base = series[f"apply_{snap.seq}"], series["baseline"]
    result: dict[str, Any] = {"block": snap.seq, "runs": len(apply), **summary(apply),
                              "baseline": f'python -c "{BASELINE}"'}
    result.update({f"baseline_{key}": value for key, value in summary(base).items()})
    result["import_pbem_cli_median_s"] = median(series["import_pbem_cli"])
    result["ratio"] = round(statistics.median(apply) / statistics.median(base), 2)
    result["ratio_of_minimums"] = round(min(apply) / min(base), 2)
    result["target_ratio_max"] = TARGET_RATIO
    result["met"] = result["ratio"] <= TARGET_RATIO
    master, block = directory / f"game-{snap.seq}.yaml", directory / f"game-{snap.seq}.block.txt"
    result["in_process"] = apply_in_process(master, block, runs)
    return result


def bench_verify(directory: Path, snap: Snapshot, runs: int) -> dict[str, Any]:
    game, _ = write_position(directory, snap, f"game-{snap.seq}")
    blocks = snap.seq
    log(f"verify: {runs} runs of pbem verify and of verify.replay on {blocks} blocks")
    process = [run_process(pbem("verify", str(game))) for _ in range(runs + 1)][1:]
    loads: list[float] = []
    replays: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        gf = gamefile.load(game)
        loaded = time.perf_counter()
        replay.verify(game, gf)
        replays.append(time.perf_counter() - loaded)
        loads.append(loaded - start)
    in_process = statistics.median(replays)
    return {
        "blocks": blocks, "runs": runs,
        "process_median_s": median(process),
        "process_per_block_ms": ms(statistics.median(process) / blocks),
        "in_process_replay_median_s": median(replays),
        "in_process_per_block_ms": ms(in_process / blocks),
        "in_process_load_median_s": median(loads),
        "target_per_block_ms_max": TARGET_VERIFY_MS,
        "met": in_process / blocks * 1000 < TARGET_VERIFY_MS,
        "process_met": statistics.median(process) / blocks * 1000 < TARGET_VERIFY_MS,
    }


def bench_selfplay(games: int) -> dict[str, Any]:
    log(f"selfplay: {games} fast {PLAYERS}-player games")
    stats = selfplay.run(games, PLAYERS, "bench", {}, fast=True)
    data = stats.to_data()
    return {
        "games": data["games"], "players": PLAYERS, "decisions": data["decisions"],
        "seconds": data["seconds"],
        "games_per_second": data["games_per_second"],
        "decisions_per_second": data["decisions_per_second"],
        "decisions_per_game": round(stats.decisions / max(stats.games, 1), 1),
        "endings": data["endings"],
        "target_games_per_second_min": TARGET_GAMES_PER_S,
        "met": (data["games_per_second"] or 0) >= TARGET_GAMES_PER_S,
    }


MODERATED_AT = (50, 200, 400)  # a moderated apply's cost at these game lengths (issue 12)


def bench_aor(games: int, moderated_blocks: int) -> dict[str, Any]:
    """Age of Renaissance: fast self-play, and `apply` in a moderated game (hidden hands and a
    secrets file) timed block by block in process, with the median of the 21 blocks around
    each length in MODERATED_AT: a flat cost means the apply does not grow with the game."""
    log(f"aor: {games} fast 4-player games; a moderated game up to {moderated_blocks} blocks")
    stats = selfplay.run(games, 4, "bench-aor", {"end": "epoch1"}, fast=True, ruleset="aor")
    data = stats.to_data()
    from pbem.orders.signatures import parse_public_key, public_key_line
    from pbem.pipeline.opening import open_game
    from pbem.pipeline.queries import legal_lines, status
    from pbem.play.selfplay_moderated import bot_keys, signed_block

    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="pbem-bench-aor-") as temp:
        path = Path(temp) / "game.yaml"
        keys = bot_keys("bench-aor", 6)  # six players: a game long enough to reach 400 blocks
        publics = [parse_public_key(public_key_line(k.public_key().public_bytes_raw(), n, None))
                   for n, k in keys.items()]
        api.new_game(path, publics, game_id="bench-aor", ruleset_name="aor",
                     seed_text="bench-aor", options={"end": "advances"})
        rng = random.Random("bench-aor")
        while len(times) < moderated_blocks:
            opened = open_game(path)
            gf = opened.gf
            if gf.state["over"]:
                break
            player = rng.choice(status(opened)["waiting_for"])
            lines = legal_lines(opened, player)["lines"]
            small = [x for x in lines if not x.startswith(("bid", "tokens"))
                     or abs(int(x.split()[1])) <= 6]  # keep the cash flowing for a long game
            text = signed_block(gf, player, keys[player], rng.choice(small or lines))
            started = time.perf_counter()
            api.apply_block(path, text)
            times.append(time.perf_counter() - started)
    at = {str(n): ms(median(times[max(0, n - 11):n + 10]))
          for n in MODERATED_AT if len(times) >= n}
    return {"selfplay_fast": {"games": data["games"], "decisions": data["decisions"],
                              "games_per_second": data["games_per_second"],
                              "decisions_per_second": data["decisions_per_second"]},
            "moderated_apply": {"blocks": len(times), "median_ms": ms(median(times)),
                                "max_ms": ms(max(times)), "median_ms_at_block": at}}


def bench_scale(directory: Path, snapshots: dict[int, Snapshot], series: dict[str, list[float]],
                runs: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for target in SCALE_AT:
        snap = snapshots[target]
        times = series[f"apply_{snap.seq}"]
        master = directory / f"game-{snap.seq}.yaml"
        rows.append({
            "target": target, "reached": snap.seq, "next_block_ends_game": snap.ends_game,
            "file_bytes": len(snap.text.encode()), "log_entries": snap.seq + 1,
            "apply_median_s": median(times), "apply_min_s": round(min(times), 4),
            "apply_runs": len(times),
            "in_process": apply_in_process(master, master.with_suffix(".block.txt"), runs),
        })
    return rows


def machine() -> dict[str, Any]:
    return {"cpus": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "processor": platform.machine(),
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="short smoke run")
    parser.add_argument("--out", type=Path, default=None,
                        help="keep the game files and blocks here (for profiling)")
    parser.add_argument("--no-pyc-cache", action="store_true",
                        help="run the child processes in this environment as it is (with "
                             "PYTHONDONTWRITEBYTECODE set, pbem's sources compile every run)")
    args = parser.parse_args(argv)
    quick: bool = args.quick
    runs = 3 if quick else 12
    in_process_runs = 3 if quick else 7
    verify_runs = 2 if quick else 7
    games = 10 if quick else 100
    seeds_to_try = [f"bench-{i}" for i in range(1 if quick else 6)]
    begun = time.perf_counter()

    log(f"building {PLAYERS}-player games up to block {max(SCALE_AT)} "
        f"(seeds tried: up to {len(seeds_to_try)})")
    started = time.perf_counter()
    built, lengths = longest(seeds_to_try, SCALE_AT)
    build_s = time.perf_counter() - started
    log(f"using seed {built.seed}: {built.final_seq} blocks"
        f"{' (game over)' if built.over else ''}; lengths {lengths}")
    result: dict[str, Any] = {
        "quick": quick, "machine": machine(),
        "game": {"seed": built.seed, "players": PLAYERS, "seeds_tried": len(lengths),
                 "blocks_played": lengths, "ended_before_target": built.over,
                 "build_seconds": round(build_s, 2)},
    }
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as temp:
        directory = args.out or Path(temp)
        directory.mkdir(parents=True, exist_ok=True)
        child_env(None if args.no_pyc_cache else Path(temp) / "pyc")
        result["machine"]["pyc_cache"] = "PYTHONDONTWRITEBYTECODE" not in ENV
        apply_snap = built.snapshots[APPLY_AT]
        positions = {snap.seq: snap for snap in built.snapshots.values()}
        log(f"apply: {runs} rounds of pbem apply at blocks {sorted(positions)}, interleaved "
            "with the baseline and `import pbem.cli`")
        series = time_rounds(directory, [positions[seq] for seq in sorted(positions)], runs)
        result["apply"] = bench_apply(directory, apply_snap, series, in_process_runs)
        result["verify"] = bench_verify(directory, apply_snap, verify_runs)
        result["selfplay"] = bench_selfplay(games)
        result["scale"] = bench_scale(directory, built.snapshots, series, in_process_runs)
        result["aor"] = bench_aor(3 if quick else 20, 60 if quick else 410)
        log("selfplay_cpu: checked Pax games, full AoR games (CPU time)")
        result["selfplay_cpu"] = bench_selfplay_cpu(quick)
        log("board: the SVG and the HTML report in process")
        result["board"] = bench_board(apply_snap.text, built.seed, in_process_runs * 3)
    result["targets_met"] = {name: result[name]["met"]
                             for name in ("apply", "verify", "selfplay", "selfplay_cpu", "board")}
    result["machine"]["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    result["seconds"] = round(time.perf_counter() - begun, 1)
    log(f"done in {result['seconds']} s")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
