"""`pbem selfplay`: random legal games to prove the engine holds up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pbem import rulesets
from pbem.cli.typer_app import app, boundary
from pbem.errors import ExitCode, UsageError


@app.command()
@boundary
def selfplay(
    games: Annotated[int, typer.Option(help="How many games.")] = 10,
    players: Annotated[int, typer.Option(help="pax: 2 to 4; aor: 3 to 6.")] = 4,
    seed: Annotated[str, typer.Option(help="Seed text; game i uses SEED-Np-i.")] = "selfplay",
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="A game option as KEY=VALUE (map=1550, astrology=true...).")] = None,
    fast: Annotated[bool, typer.Option(help="Engine only, no per-step checks (benchmark).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    out: Annotated[Path, typer.Option(help="Where reproducing game files go.")] = Path("selfplay-failures"),
    ruleset: Annotated[str, typer.Option(
        help="pax or aor (aor games end with Epoch 1 unless --option end=... says otherwise).")
    ] = rulesets.DEFAULT,
    moderated: Annotated[bool, typer.Option(
        help="Moderated games on disk (the seed, hidden hands and sealed bids stay with "
             "the moderator).")] = False,
    policy: Annotated[str, typer.Option(
        help="coverage (seek mechanics not yet seen), greedy (play to win) or random.")
    ] = "coverage",
    min_coverage: Annotated[str | None, typer.Option(
        "--min-coverage", help="Fail (exit 1) if a name in these coverage families stayed at "
                               "zero: comma-separated (abilities,victories...) or all.")] = None,
) -> None:
    """Play whole games with legal choices, checking invariants at every step."""
    rules = rulesets.ruleset_for(ruleset)
    low, high = rules.player_counts
    if not low <= players <= high:
        raise UsageError(f"--players must be {low} to {high} for {rules.title}, not {players}")
    from pbem.play.policy import POLICIES
    from pbem.play.selfplay import run as run_selfplay  # only this command needs it
    from pbem.play.stats import Stats, zeros

    if policy not in POLICIES:
        raise UsageError(f"--policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    families = Stats(ruleset=ruleset).coverage()
    wanted = _families(min_coverage, list(families))

    options = parse_options(option or [])
    options = {**rules.selfplay_options, **options}
    if moderated and fast:
        raise UsageError("--moderated plays on disk through the moderator's pipeline; it "
                         "cannot be --fast")
    stats = run_selfplay(games, players, seed, options, fast=fast, out_dir=out, ruleset=ruleset,
                         moderated=moderated, policy=policy)
    data = stats.to_data()
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        typer.echo(f"{data['games']} games, {data['decisions']} decisions in {data['seconds']} s "
                   f"({data['games_per_second']} games/s); endings: {data['endings']}")
        typer.echo(f"actions: {data['actions']}")
        typer.echo("coverage: " + ", ".join(
            f"{family} {sum(1 for n in names.values() if n)}/{len(names)}"
            for family, names in data["coverage"].items()))
        if data["checked"]:
            typer.echo(f"invariant violations: {data['invariant_violations']}")
        else:
            typer.echo("invariant violations: not checked (--fast skips the per-step checks)")
        for path in data["repro_files"]:
            typer.echo(f"reproduce with: {path}")
    if data["invariant_violations"]:
        raise typer.Exit(int(ExitCode.INTERNAL))
    missing = zeros(data["coverage"], wanted)
    if missing:
        named = "; ".join(f"{family}: {', '.join(names)}" for family, names in missing.items())
        typer.echo(f"pbem: coverage: stayed at zero: {named}", err=True)
        raise typer.Exit(int(ExitCode.REJECTED))


def _families(text: str | None, known: list[str]) -> list[str]:
    """The families `--min-coverage` names (all of them for "all")."""
    if text is None:
        return []
    asked = [part.strip() for part in text.split(",") if part.strip()]
    if asked == ["all"]:
        return known
    unknown = [family for family in asked if family not in known]
    if unknown or not asked:
        raise UsageError(f"--min-coverage: unknown family {', '.join(unknown) or repr(text)}; "
                         f"use all or some of {', '.join(known)}")
    return asked


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"--option '{pair}' should be KEY=VALUE")
        lowered = value.lower()
        options[key.replace("-", "_")] = (
            lowered == "true" if lowered in ("true", "false") else value)
    return options
