"""`make torture` (issue 20 §6): real processes racing and dying, then the figures.

- competing applies: N processes apply N different blocks for one seq at once; exactly one
  may win, the game must verify;
- command pairs: apply raced against timeout, inbox, roster and new;
- kill -9: apply, inbox, timeout, new and a moderated AoR apply (the last sealed bid of a
  round) are killed at a random moment near their writes, RUNS times each; then the same
  command runs again and must complete the work or find it done, and verify must pass.

Checks run in-process (pbem's library and the CLI in-process); the raced and killed runs are
real `pbem` processes. Run from the repository root: `.venv/bin/python tools/torture.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.delivery import queue  # noqa: E402
from pbem.store import gamefile, secrets  # noqa: E402
from tests.pbem.test_mail_helpers import drop, make_maildir, plain  # noqa: E402
from tests.reliability.kit import (  # noqa: E402
    copy_game,
    next_block,
    ok,
    pbem,
    signed,
    status,
    strays,
)

PBEM = str(Path(sys.executable).with_name("pbem"))
ENV = {**os.environ, "PBEM_MAIL_FROM": "host@example.org"}
T0, LATE = "2027-03-01T00:00:00Z", "2027-03-01T05:00:00Z"
figures: Counter[str] = Counter()


def verified(game: Path) -> bool:
    seed = game.with_suffix(".seed")
    args = ["verify", str(game), *(["--secrets", str(seed)] if seed.exists() else [])]
    result = pbem(*args)
    return result.exit_code == 0


def intact(game: Path) -> bool:
    """The game file parses and matches its log; the secrets file (if any) parses."""
    try:
        gamefile.load(game)
        seed = game.with_suffix(".seed")
        if seed.exists() and seed.read_text().lstrip().startswith("{"):
            secrets.read(seed)
        return True
    except Exception:  # noqa: BLE001 - anything unreadable is a torn file
        return False


# --- the games ------------------------------------------------------------------------------


def last_bid(folder: Path) -> tuple[Path, list[str]]:
    """A moderated AoR game where one sealed bid is owed and it unseals the round."""
    game = copy_game("aor", folder)
    for _ in range(12):
        data = status(game)
        owed = [str(p) for p in data["waiting_for"]]  # type: ignore[attr-defined]
        menu = json.loads(ok("options", str(game), "--json", "--for", owed[0]))
        block = signed(game, owed[0], [str(menu["lines"][0])])
        if data.get("sealed") and len(owed) == 1:
            return game, ["apply", str(game), str(block)]
        ok("apply", str(game), str(block))
    raise SystemExit("torture: the AoR game never reached a last sealed bid")


def prepare(kind: str, folder: Path) -> tuple[Path, list[str]]:
    """A fresh game in `folder` and the command to torture on it."""
    if kind == "moderated apply":
        return last_bid(folder)
    game = copy_game("pax", folder)
    out = ["--outbox", str(folder / "out")]
    if kind == "apply":
        return game, ["apply", str(game), str(next_block(game))]
    if kind == "inbox":
        maildir = make_maildir(folder / "Maildir")
        drop(maildir, plain(next_block(game).read_text(), "cy@example.org"))
        return game, ["inbox", str(game), "--maildir", str(maildir), *out]
    if kind == "timeout":
        ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", "--now", T0,
           "--key", str(game.parent / "max.key"))
        ok("timeout", str(game), "--now", T0)  # a mail run starts the clock at T0
        return game, ["timeout", str(game), "--now", LATE, "--mail", *out]
    if kind == "new":
        new = folder / "fresh.yaml"
        return new, ["new", str(new), *[a for n in ("ada", "ben", "cy") for a in
                                         ("--player", str(folder / f"{n}.pub"))],
                     "--moderator", str(folder / "max.pub"), "--seed", "torture"]
    raise ValueError(kind)


# --- kill -9 --------------------------------------------------------------------------------


def uninterrupted(kind: str, scratch: Path) -> tuple[float, int]:
    """How long the command takes, and the seq it leaves, when nothing kills it."""
    game, command = prepare(kind, scratch)
    start = time.monotonic()
    subprocess.run([PBEM, *command], env=ENV, capture_output=True, check=False)
    return time.monotonic() - start, gamefile.load(game).seq


def kill_loop(kind: str, runs: int, scratch: Path, rng: random.Random) -> None:
    template = scratch / f"{kind}-template"
    game, command = prepare(kind, template)
    full, expected = uninterrupted(kind, scratch / f"{kind}-timing")
    for run in range(runs):
        folder = scratch / f"{kind}-{run}"
        shutil.copytree(template, folder)
        here = [a.replace(str(template), str(folder)) for a in command]
        process = subprocess.Popen([PBEM, *here], env=ENV, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.4, 1.1) * full)  # most of a run is start-up: aim late
        killed = process.poll() is None
        if killed:
            process.send_signal(signal.SIGKILL)
        process.wait()
        figures[f"kill -9 {kind}: runs"] += 1
        figures[f"kill -9 {kind}: killed before the end"] += killed
        check_after(kind, folder, folder / game.name, here, expected)
        shutil.rmtree(folder, ignore_errors=True)


def leftovers(folder: Path) -> tuple[list[str], list[str]]:
    """What killed runs left that the next run should have cleared: temporary files and
    creation journals of the game (its folder and mail queue), and temporary files in the
    outbox (a folder the host names, shared by games, that no run clears)."""
    outbox = folder / "out"
    game = [p.name for p in folder.rglob(".*") if p.is_file() and outbox not in p.parents
            and (p.name.endswith(".tmp") or p.name.endswith(".creating"))]
    return sorted(game), strays(outbox) if outbox.is_dir() else []


def check_after(kind: str, folder: Path, game: Path, command: list[str], expected: int) -> None:
    figures[f"kill -9 {kind}: temp files left by the killed run"] += len(strays(folder))
    if kind == "new" and game.exists() and game.stat().st_size == 0:
        figures["new: half-made (an empty game file left, so new refuses the name)"] += 1
        return
    if game.exists() and not intact(game):
        figures["torn files"] += 1
        return
    again = pbem(*command, env={"PBEM_MAIL_FROM": "host@example.org"})
    done_before = again.exit_code == 4 or (kind == "new" and "already exists" in again.stderr)
    if again.exit_code != 0 and not done_before:
        figures["wedged games (the next run failed)"] += 1
        print(f"wedged after kill: {kind}: exit {again.exit_code}: {again.stderr.strip()}")
        return
    left, in_outbox = leftovers(folder)
    figures["stray temp files"] += len(left)  # the next run holds the lock: none may stay
    figures[f"kill -9 {kind}: temp files left in the outbox"] += len(in_outbox)
    if left:
        print(f"after kill and the next run: {kind} left {left} in {folder}")
    if gamefile.load(game).seq != expected:
        figures["lost or doubled updates"] += 1
        print(f"after kill: {kind} left seq {gamefile.load(game).seq}, not {expected}")
    figures[f"kill -9 {kind}: mail still queued after the next run"] += len(queue.queued(game))
    if not verified(game):
        figures["verify failures"] += 1
        print(f"verify failed after kill: {kind} in {folder}")


# --- races ----------------------------------------------------------------------------------


def competing(count: int, rounds: int, scratch: Path) -> None:
    for number in range(rounds):
        folder = scratch / f"compete-{number}"
        game = copy_game("pax", folder)
        player = str(status(game)["waiting_for"][0])  # type: ignore[index]
        lines = json.loads(ok("options", str(game), "--json"))["lines"]
        blocks = [signed(game, player, [line, "end"] if line.startswith("buy") else [line],
                         f"b{i}") for i, line in enumerate((lines * count)[:count])]
        processes = [subprocess.Popen([PBEM, "apply", str(game), str(b)], env=ENV,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                     for b in blocks]
        codes = Counter(p.wait() for p in processes)
        figures["competing applies: runs"] += count
        figures["competing applies: winners"] += codes[0]
        figures["competing applies: busy (75)"] += codes[75]
        if codes[0] != 1 or gamefile.load(game).seq != 1 or set(codes) - {0, 4, 75}:
            figures["lost or doubled updates"] += 1
            print(f"competing applies, round {number}: exit codes {dict(codes)}")
        figures["verify failures"] += not verified(game)
        figures["stray temp files"] += len(leftovers(folder)[0])


def pairs(rounds: int, scratch: Path, rng: random.Random) -> None:
    for number in range(rounds):
        for other in ("timeout", "inbox", "roster", "new"):
            folder = scratch / f"pair-{other}-{number}"
            game = copy_game("pax", folder)
            block = next_block(game)
            ok("deadlines", str(game), "--set", "default=1h", "--nmr", "skip", "--now", T0,
           "--key", str(game.parent / "max.key"))
            ok("timeout", str(game), "--now", T0)
            base = gamefile.load(game).seq  # the deadlines are a logged settings change
            rival = {
                "timeout": ["timeout", str(game), "--now", LATE],
                "roster": ["roster", str(game), "--timezone", "coeur=Europe/Lisbon",
                           "--key", str(game.parent / "max.key")],  # a logged change
                "new": ["new", str(game), "--player", str(folder / "ada.pub"), "--player",
                        str(folder / "ben.pub")],
            }.get(other)
            if other == "inbox":
                maildir = make_maildir(folder / "Maildir")
                drop(maildir, plain(block.read_text(), "cy@example.org"))
                rival = ["inbox", str(game), "--maildir", str(maildir), "--outbox",
                         str(folder / "out")]
            assert rival is not None
            first = [PBEM, "apply", str(game), str(block)]
            order = [first, [PBEM, *rival]]
            rng.shuffle(order)
            processes = [subprocess.Popen(c, env=ENV, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE) for c in order]
            codes = [p.wait() for p in processes]
            figures["command pairs: runs"] += 1
            check_pair(other, folder, game, codes, base)


def check_pair(other: str, folder: Path, game: Path, codes: list[int], base: int) -> None:
    gf = gamefile.load(game)
    left = leftovers(folder)[0]
    figures["stray temp files"] += len(left)
    bad = 70 in codes or not verified(game) or bool(left)
    if other == "roster":  # both land, whatever the order
        zone = next(p.get("timezone") for p in gf.roster["players"] if p["id"] == "coeur")
        bad = bad or zone != "Europe/Lisbon" or gf.seq != base + 2  # a logged change too
    else:  # the block or the timeout, never both for one decision; one apply of one block
        bad = bad or gf.seq != base + 1 or gf.game_id != "lisbon"
    if bad:
        figures["lost or doubled updates"] += 1
        print(f"pair apply + {other} in {folder}: exit codes {codes}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="kill -9 runs per command")
    parser.add_argument("--competitors", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of competing applies")
    parser.add_argument("--pairs", type=int, default=10, help="rounds of each command pair")
    parser.add_argument("--seed", type=int, default=20)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pbem-torture-") as scratch:
        competing(options.competitors, options.rounds, Path(scratch))
        pairs(options.pairs, Path(scratch), rng)
        for kind in ("apply", "inbox", "timeout", "new", "moderated apply"):
            kill_loop(kind, options.runs, Path(scratch), rng)
    for name in ("torn files", "stray temp files", "lost or doubled updates", "verify failures",
                 "wedged games (the next run failed)"):
        figures.setdefault(name, 0)
    print(f"torture: {time.monotonic() - started:.0f} s")
    for name, value in sorted(figures.items()):
        print(f"  {name}: {value}")
    failed = sum(figures[k] for k in ("torn files", "stray temp files", "lost or doubled updates",
                                      "verify failures", "wedged games (the next run failed)",
                                      "new: half-made (an empty game file left, so new refuses "
                                      "the name)"))
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
