"""`make demo`: a short seeded three-player Pax Renaissance game, played exactly as players would.

It makes keys, starts a game, and for each turn writes an orders file, signs it with
`pbem sign` and applies it with `pbem apply`. The lines are chosen by a simple seeded policy
from the legal lines the engine lists. At the end it prints the last report and verifies the log.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

from engine.core.adjudicate import answer, options_now, run_automatic
from engine.core.agenda import waiting_for
from engine.core.chance import SeededChance
from pbem.pipeline.game import table_of
from pbem.store import gamefile, seeds

OUT = Path("demo-out")
PLAYERS = [("ada", "ada@example.org"), ("ben", "ben@example.org"), ("cy", "cy@example.org")]
BLOCKS = 12
PREFERENCE = ("buy", "play", "fair", "knight", "rook", "pawn", "pirate", "bishop", "levy",
              "activate", "old maid", "sell", "end")


def pbem(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"pbem {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def choose(lines: list[str], rng: random.Random) -> str:
    """Prefer doing something over passing, with a little seeded variety."""
    for verb in PREFERENCE:
        matching = [line for line in lines if line.startswith(verb)]
        if matching and rng.random() < 0.8:
            return rng.choice(matching)
    return rng.choice(lines)


def plan_block(game: Path, rng: random.Random) -> tuple[str, list[str]]:
    """The lines one player sends: answer their decisions until control leaves them."""
    gf = gamefile.load(game)
    ruleset, table = table_of(gf)
    player = waiting_for(table.agenda)[0]
    chance = SeededChance(seeds.require_seed(game, gf), gf.game_id, int(gf.state["draws"]))
    work = table.copy()
    lines: list[str] = []
    while work.agenda and waiting_for(work.agenda) == [player] and len(lines) < 8:
        options = options_now(ruleset, work)
        picked = choose([o.line for o in options], rng)
        choice = next(c for c in options if c.line == picked)
        lines.append(choice.line)
        answer(ruleset, work, choice, chance)
        # A decision with one legal answer resolves by itself and takes no line (orders.md 2).
        run_automatic(ruleset, work, chance)
        if choice.verb == "end":
            break
    return player, lines


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir()
    for name, email in PLAYERS:
        pbem("keygen", name, "--email", email, "--dir", str(OUT))
    game = OUT / "demo.yaml"
    print(pbem("new", str(game), *[a for n, _ in PLAYERS for a in ("--player", str(OUT / f"{n}.pub"))],
               "--seed", "demo"), end="")
    keys = {}
    for entry in gamefile.load(game).roster["players"]:
        keys[entry["id"]] = OUT / f"{entry['name']}.key"
    rng = random.Random(2027)
    for number in range(1, BLOCKS + 1):
        player, lines = plan_block(game, rng)
        orders = OUT / f"orders-{number:02d}-{player}.txt"
        orders.write_text("\n".join(lines) + "\n", encoding="utf-8")
        signed = OUT / f"block-{number:02d}-{player}.txt"
        signed.write_text(pbem("sign", str(orders), "--key", str(keys[player]), "--game", str(game)),
                          encoding="utf-8")
        print(f"\n== block {number}: {player} sends {len(lines)} line(s): {'; '.join(lines)}")
        print(pbem("apply", str(game), str(signed)), end="")
    status = gamefile.load(game)
    last = waiting_for(status.agenda)
    print("\n== the report for the player who must act next ==\n")
    print(pbem("report", str(game), "--for", last[0] if last else status.player_ids()[0]))
    print(pbem("verify", str(game)), end="")


if __name__ == "__main__":
    main()
