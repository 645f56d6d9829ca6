"""`make demo-aor`: a seeded moderated three-player Age of Renaissance game, played as players
would: each block is an orders file signed with `pbem sign` and applied with `pbem apply`.

It goes through the sealed capital bids and token purchases, plays until there has been a
battle and a War (or a block limit), then prints the public report and one private report and
verifies the log. The moderator's secrets file (hands, deck, sealed bids) is demo-out/aor/
lisbon.seed; the game file lisbon.yaml holds only the public state. The lines are chosen by a
simple seeded policy from the legal lines `pbem options --for PLAYER` lists. The commands run in
this process (through the same CLI entry point) to keep the demo quick.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import sys
from pathlib import Path

from pbem.cli import app

OUT = Path("demo-out") / "aor"  # demo-out/ is ignored by git
PLAYERS = ("ada", "ben", "cy")
MAX_BLOCKS = 400
PREFERENCE = ("play war", "attack", "play", "place", "buy", "fleet", "capital", "pay", "mill",
              "stabilize", "done", "pass")


def pbem(*args: str) -> str:
    """Run one pbem command; stop the demo if it fails."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            app(list(args), prog_name="pbem", standalone_mode=False)
            code = 0
        except SystemExit as done:
            code = int(done.code or 0)
    if code:
        sys.exit(f"pbem {' '.join(args)} failed ({code}): {err.getvalue().strip()}")
    return out.getvalue()


def choose(lines: list[str], rng: random.Random) -> str:
    """Modest bids; otherwise prefer acting (attacks and War first) over passing."""
    if lines[0].startswith(("bid ", "tokens ")):
        verb = lines[0].split()[0]
        return f"{verb} {rng.randint(1, 8)}" if f"{verb} 8" in lines else lines[-1]
    for verb in PREFERENCE:
        matching = [line for line in lines if line.startswith(verb)]
        if matching and rng.random() < 0.85:
            return rng.choice(matching)
    return rng.choice(lines)


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    for name in PLAYERS:
        pbem("keygen", name, "--email", f"{name}@example.org", "--dir", str(OUT))
    game = OUT / "lisbon.yaml"
    print(pbem("new", str(game), "--ruleset", "aor", "--seed", "demo-aor", "--option",
               "end=epoch1", *[a for n in PLAYERS for a in ("--player", str(OUT / f"{n}.pub"))]),
          end="")
    rng = random.Random(1492)
    seen: set[str] = set()
    for number in range(1, MAX_BLOCKS + 1):
        status = json.loads(pbem("status", str(game), "--json"))
        if status["over"] or {"battle", "war"} <= seen:
            break
        player = rng.choice(status["waiting_for"])
        lines = json.loads(pbem("options", str(game), "--for", player, "--json"))["lines"]
        line = choose(lines, rng)
        orders = OUT / "orders.txt"
        orders.write_text(line + "\n", encoding="utf-8")
        signed = OUT / "block.txt"
        signed.write_text(pbem("sign", str(orders), "--key", str(OUT / f"{player}.key"),
                               "--game", str(game)), encoding="utf-8")
        sealed = " (sealed: to the moderator only)" if status.get("sealed") else ""
        print(f"\n== block {number}: {player} sends `{line}`{sealed}")
        result = pbem("apply", str(game), str(signed))
        print(result, end="")
        seen |= {kind for kind, word in (("battle", " attacks "), ("war", "declares War"))
                 if word in result}
    print("\n== the public report (anyone may read it) ==\n")
    print(pbem("report", str(game)))
    print("== ada's private report (her hand, her legal lines) ==\n")
    print(pbem("report", str(game), "--for", "ada"))
    print(pbem("verify", str(game)), end="")
    print(f"(the game file {game} holds only the public state; the moderator's secrets file "
          f"{game.with_suffix('.seed')} holds the hands, the deck and unopened bids)")


if __name__ == "__main__":
    main()
