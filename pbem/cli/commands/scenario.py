"""`pbem scenario`: run scenario files (docs/scenarios.md) against the rules engine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pbem.cli.typer_app import app, boundary
from pbem.errors import ExitCode, UsageError


def scenario_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(path.rglob("*.yaml"))
        elif path.exists():
            found.append(path)
        else:
            raise UsageError(f"no such file or folder: {path}")
    return found


@app.command()
@boundary
def scenario(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files, or folders of them.")],
    ruleset: Annotated[str | None, typer.Option(
        help="pax or aor (default: the file's `ruleset:`, else aor under a folder named aor).")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Print only failures and the total.")] = False,
) -> None:
    """Run scenario files: each prints ok, FAIL (the engine disagrees) or BAD (the file is
    wrong). Exit 0 when all pass, 1 when one fails, 2 when a file is bad."""
    from engine.core.errors import InvariantViolation, RuleError
    from pbem.play.scenarios.paths import ScenarioError, ScenarioFailed
    from pbem.play.scenarios.run import load, ruleset_of, run_case

    counts = {"ok": 0, "failed": 0, "bad": 0}
    for path in scenario_files(paths):
        name = path.stem
        try:
            data = load(path)
            name = str(data.get("id", path.stem)) if isinstance(data, dict) else path.stem
            run_case(data, ruleset or ruleset_of(data, path))
        except ScenarioFailed as error:
            counts["failed"] += 1
            typer.echo(f"FAIL {name}: {error}")
            continue
        except (ScenarioError, InvariantViolation, RuleError) as error:
            counts["bad"] += 1
            typer.echo(f"BAD  {path}: {error}")
            continue
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as error:
            # A value of the wrong type or shape somewhere in `given:` (players: 0, a number
            # where a path belongs...): the file is wrong, and the batch goes on.
            counts["bad"] += 1
            typer.echo(f"BAD  {path}: a value has the wrong type or shape "
                       f"({type(error).__name__}: {str(error)[:120]})")
            continue
        counts["ok"] += 1
        if not quiet:
            typer.echo(f"ok   {name}")
    typer.echo(f"scenarios: {counts['ok']} ok, {counts['failed']} failed, {counts['bad']} bad")
    if counts["bad"]:
        raise typer.Exit(int(ExitCode.USAGE))
    if counts["failed"]:
        raise typer.Exit(int(ExitCode.REJECTED))
