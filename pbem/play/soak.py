"""`make soak` (issue 14): many self-play games across both games, every map and option, every
player count, all with the per-step checks on, and reproducing files for any violation.

    python -m pbem.play.soak --games 10000 --out soak-failures
    python -m pbem.play.soak --first 500 --games 500 --summary shard-1.json   # one shard
    python -m pbem.play.soak --merge shard-0.json shard-1.json ...            # their total
    python -m pbem.play.soak --games 10000 --jobs 2                           # on two cores

Game i plays configuration i modulo the plan (so any prefix of a run covers the plan evenly)
with the seed SEED-i, the policies taken in turn: a shard `--first I --games N` plays games
I..I+N-1 exactly as the whole run would, in any process or session. Prints one JSON summary
(and writes it to `--summary`); exit status 0 when no invariant was broken, 70 otherwise, 2 for
bad arguments. `--merge` sums shard summaries (soak_merge.py).
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.aor.ruleset import ENDS, SEALINGS
from engine.pax.setup import MAPS
from pbem import rulesets
from pbem.errors import ExitCode
from pbem.play.policy import POLICIES
from pbem.play.selfplay import run
from pbem.play.soak_merge import merge, merge_main
from pbem.play.stats import Stats

# The values of each option that is not a yes/no, from the engines' own tables; yes/no options
# are played off, each on alone, and all on.
CHOICES: dict[str, tuple[str, ...]] = {"map": MAPS, "end": ENDS, "sealing": SEALINGS}
MODERATED = ("sealing", "moderator")  # sealed bids kept by a moderator: played on disk
PIECE = 31  # games a worker takes at a time under --jobs: a third of the plan, so the workers
# finish close together


@dataclass(frozen=True)
class Config:
    ruleset: str
    players: int
    options: tuple[tuple[str, Any], ...]
    moderated: bool = False

    def name(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options) or "defaults"
        return f"{self.ruleset} {self.players}p {opts}{' moderated' if self.moderated else ''}"


def plan() -> list[Config]:
    """Every ruleset, every player count, every value of every option, and the yes/no options
    (Pax: every map with each variant; Age of Renaissance: every ending and sealing)."""
    configs = []
    for name in rulesets.RULESETS:
        rules = rulesets.ruleset_for(name)
        low, high = rules.player_counts
        defaults = rules.check_options({}, players=low, open_game=False)
        flags = sorted(key for key, value in defaults.items() if isinstance(value, bool))
        variants = [{}, *({flag: True} for flag in flags)] + ([dict.fromkeys(flags, True)]
                                                             if len(flags) > 1 else [])
        choices = [[(key, value) for value in CHOICES[key]] for key in defaults if key in CHOICES]
        for picked, variant, players in itertools.product(
                itertools.product(*choices), variants, range(low, high + 1)):
            options = tuple(sorted({**dict(picked), **variant}.items()))
            configs.append(Config(name, players, options, MODERATED in options))
    return configs


def soak(games: int, out_dir: Path, seed: str = "soak", first: int = 0, jobs: int = 1,
         piece: int = PIECE) -> dict[str, Any]:
    """Games first..first+games-1 of the run called `seed`, summed (a shard of it); with
    `jobs` above 1, played in pieces of `piece` games by that many processes, with the same
    summary (each game depends on its number only) but `seconds`, the run's wall time."""
    if jobs > 1 and games > piece:
        return _in_parallel(games, out_dir, seed, first, jobs, piece)
    configs = plan()
    start = time.perf_counter()
    totals: dict[str, Any] = {"seed": seed, "first": first, "count": games, "games": 0,
                              "decisions": 0, "invariant_violations": 0, "violations": [],
                              "repro_files": [], "endings": {}}
    by_config: dict[str, int] = {}
    for index in range(first, first + games):
        config = configs[index % len(configs)]
        policy = POLICIES[(index // len(configs)) % len(POLICIES)]
        try:
            stats: Stats = run(1, config.players, f"{seed}-{index}", dict(config.options),
                               out_dir=out_dir, ruleset=config.ruleset,
                               moderated=config.moderated, policy=policy)
        except Exception as error:  # noqa: BLE001 - a bug in pbem: named, and the shard goes on
            totals["games"] += 1
            totals["invariant_violations"] += 1
            totals["violations"].append(
                f"{config.name()} {policy}: game {index} crashed ({type(error).__name__}: "
                f"{error}); `--first {index} --games 1 --seed {seed}` shows where")
            by_config[config.name()] = by_config.get(config.name(), 0) + 1
            continue
        totals["games"] += stats.games
        totals["decisions"] += stats.decisions
        totals["invariant_violations"] += len(stats.violations)
        totals["violations"] += [f"{config.name()} {policy}: {v}" for v in stats.violations]
        totals["repro_files"] += stats.failures
        for ending, count in stats.endings.items():
            key = f"{config.ruleset}: {ending}"
            totals["endings"][key] = totals["endings"].get(key, 0) + count
        by_config[config.name()] = by_config.get(config.name(), 0) + 1
    totals["endings"] = dict(sorted(totals["endings"].items()))
    totals["configurations"] = len(configs)
    totals["configurations_played"] = len(by_config)
    totals["by_configuration"] = dict(sorted(by_config.items()))
    totals["seconds"] = round(time.perf_counter() - start, 1)
    totals["checked"] = True
    return totals


def _in_parallel(games: int, out_dir: Path, seed: str, first: int, jobs: int,
                 piece: int) -> dict[str, Any]:
    start = time.perf_counter()
    pieces = [(min(piece, first + games - at), out_dir, seed, at)
              for at in range(first, first + games, piece)]
    # fork: the workers start with the rules already imported (Linux, no threads here)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        parts = pool.starmap(soak, pieces, chunksize=1)
    total = merge([(Path(f"piece-{part['first']}"), part) for part in parts], start=first)
    del total["shards"]
    total["seconds"] = round(time.perf_counter() - start, 1)
    return total


def _probe_writable(path: Path) -> None:
    """Fail now if the summary's folder cannot take it, without leaving a file that a shard
    loop would take for a finished shard when this run is killed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    probe = path.with_name(path.name + ".probe")
    probe.touch()
    probe.unlink()


def _write_whole(path: Path, text: str) -> None:
    """The summary appears whole or not at all, so its existence means the shard ended."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbem.play.soak", description=__doc__)
    parser.add_argument("--games", "--count", type=int, default=10000,
                        help="how many games (in this shard)")
    parser.add_argument("--first", type=int, default=0, help="the first game's number i")
    parser.add_argument("--out", type=Path, default=Path("soak-failures"),
                        help="where reproducing game files go")
    parser.add_argument("--seed", default="soak", help="game i uses SEED-i")
    parser.add_argument("--summary", type=Path, help="also write the JSON summary here")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes playing at once (one per core: the same summary)")
    parser.add_argument("--merge", type=Path, nargs="+", metavar="SHARD",
                        help="sum these shard summaries instead of playing")
    args = parser.parse_args(argv)
    if args.merge:
        return merge_main(args.merge)
    if args.games < 1 or args.first < 0 or args.jobs < 1:
        bad = f"--games must be 1 or more, not {args.games}" if args.games < 1 \
            else f"--first must be 0 or more, not {args.first}" if args.first < 0 \
            else f"--jobs must be 1 or more, not {args.jobs}"
        print(f"soak: {bad}", file=sys.stderr)
        return int(ExitCode.USAGE)
    try:  # a summary that could not be written would lose the shard's hours: fail first
        if args.summary is not None:
            _probe_writable(args.summary)
    except OSError as exc:
        print(f"soak: cannot write {args.summary}: {exc.strerror}", file=sys.stderr)
        return int(ExitCode.IO)
    summary = soak(args.games, args.out, args.seed, args.first, args.jobs)
    text = json.dumps(summary, ensure_ascii=False)
    print(text)
    if args.summary is not None:
        _write_whole(args.summary, text + "\n")
    return int(ExitCode.INTERNAL) if summary["invariant_violations"] else int(ExitCode.OK)


if __name__ == "__main__":
    sys.exit(main())
