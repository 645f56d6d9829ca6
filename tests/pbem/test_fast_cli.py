"""The fast path (pbem.cli.fast) reads hot command lines exactly as Typer does, runs them with
the same output and exit codes, and never builds the Typer app (issue 17)."""

from __future__ import annotations

import inspect
import itertools
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from pbem.cli import app, fast, hot, main

runner = CliRunner()
COMMANDS = typer.main.get_command(app).commands  # type: ignore[attr-defined]


def typer_reads(argv: list[str]) -> dict[str, Any] | None:
    """The arguments the Typer command hands its hot function (pbem.cli.hot), or None when it
    refuses the line. Read where the command calls it: Typer releases convert a `Path`, a list
    or a tuple at different stages after the parse, and what the function gets is the contract."""
    real = getattr(hot, argv[0])
    names = list(inspect.signature(real).parameters)
    seen: dict[str, Any] = {}

    def record(*args: Any) -> None:
        seen.update(zip(names, args, strict=True))

    setattr(hot, argv[0], record)
    try:
        result = runner.invoke(app, argv)
    finally:
        setattr(hot, argv[0], real)
    if result.exit_code != 0 or not seen:  # click's usage errors, and --help's exit
        return None
    return {name: value or None if isinstance(value, list | tuple) else value
            for name, value in seen.items()}


def fast_reads(argv: list[str]) -> dict[str, Any] | None:
    parsed = fast.parse(argv)
    if parsed is None:
        return None
    command, given = parsed
    defaults = {name: p.default for name, p in inspect.signature(getattr(hot, command)).parameters.items()
                if p.default is not inspect.Parameter.empty}
    return {**defaults, **given}


def test_each_spec_names_the_typer_commands_options() -> None:
    for name, spec in fast.SPECS.items():
        params = COMMANDS[name].params
        arguments = tuple(p.name for p in params if not p.opts[0].startswith("-"))
        assert arguments == tuple(argument for argument, _ in spec.arguments), name
        options = {opt: p for p in params for opt in p.opts if opt.startswith("-")}
        assert set(options) == set(spec.options), name
        for opt, param in options.items():
            mine = spec.options[opt]
            assert mine.dest == param.name, (name, opt)
            assert mine.flag == bool(param.is_flag), (name, opt)
            assert mine.many == bool(param.multiple), (name, opt)
        signature = inspect.signature(getattr(hot, name)).parameters
        assert set(signature) == {p.name for p in params}, name


def corpus() -> list[list[str]]:
    """Command lines of every hot command: options before, between and after the arguments,
    `--opt=value`, repeats, and lines Typer refuses."""
    lines: list[list[str]] = []
    for name, spec in fast.SPECS.items():
        arguments = [("g.yaml" if path else "-") for _, path in spec.arguments]
        for opt, option in spec.options.items():
            words = [opt] if option.flag else [opt, "x.txt"]
            for at in range(len(arguments) + 1):
                lines.append([name, *arguments[:at], *words, *arguments[at:]])
            if not option.flag:
                lines.append([name, *arguments, f"{opt}=a=b"])
                lines.append([name, *arguments, opt, "one", opt, "two"])
                lines.append([name, *arguments, opt])  # the value is missing
                lines.append([name, *arguments, opt, "--json"])
                lines.append([name, *arguments, opt, ""])
            else:
                lines.append([name, *arguments, f"{opt}=yes"])
        for first, second in itertools.combinations(spec.options, 2):
            values = [[o] if spec.options[o].flag else [o, "v"] for o in (first, second)]
            lines.append([name, *values[1], *arguments, *values[0]])
        lines += [[name], [name, *arguments, "extra"], [name, *arguments, "--help"],
                  [name, *arguments, "--bogus"], [name, "--", *arguments], [name, *arguments, "-x"]]
    lines += [[name, "-", "-"] for name in fast.SPECS]
    return lines


def test_both_parsers_read_every_line_the_same_way() -> None:
    taken = 0
    for argv in corpus():
        mine = fast_reads(argv)
        if mine is None:
            continue  # the fast path declines: Typer reads it, with its own errors
        taken += 1
        assert mine == typer_reads(argv), argv
    assert taken > 50


@pytest.mark.parametrize("argv", [
    ["status", "g.yaml"], ["status", "g.yaml", "--json", "--now", "2027-01-01T00:00Z"],
    ["options", "g.yaml", "--for", "ada"], ["report", "--for=ada", "g.yaml", "--format", "markdown"],
    ["apply", "g.yaml", "-"], ["apply", "g.yaml", "block.txt", "--dry-run"],
    ["verify", "g.yaml", "--expect", "3:abcdef12", "--expect", "4:abcdef34"]])
def test_the_common_lines_take_the_fast_path(argv: list[str]) -> None:
    assert fast_reads(argv) is not None
    assert fast_reads(argv) == typer_reads(argv)


@pytest.mark.parametrize("argv", [["status", "g.yaml", "--help"], ["apply", "g.yaml"],
                                  ["status", "g.yaml", "--no-such"], ["report", "--", "g.yaml"],
                                  ["keygen", "ada"], []])
def test_lines_it_does_not_know_go_to_typer(argv: list[str]) -> None:
    assert fast.parse(argv) is None


@pytest.fixture
def game(tmp_path: Path) -> Path:
    for name in ("ada", "ben", "cy"):
        assert runner.invoke(app, ["keygen", name, "--dir", str(tmp_path)]).exit_code == 0
    path = tmp_path / "g.yaml"
    result = runner.invoke(app, ["new", str(path), "--seed", "fast", *itertools.chain.from_iterable(
        ("--player", str(tmp_path / f"{n}.pub")) for n in ("ada", "ben", "cy"))])
    assert result.exit_code == 0, result.output
    return path


def through_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 argv: list[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["pbem", *argv])
    with pytest.raises(SystemExit) as exit_:
        main()
    out, err = capsys.readouterr()
    return int(exit_.value.code or 0), out, err


def through_typer(argv: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, argv)
    return result.exit_code, result.stdout, result.stderr


def test_fast_and_typer_print_the_same(game: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    g = str(game)
    for argv in (["status", g], ["status", g, "--json", "--now", "2027-01-01T00:00Z"],
                 ["options", g], ["options", g, "--json"], ["report", g],
                 ["report", g, "--for", "coeur", "--format", "bbcode"], ["verify", g],
                 ["report", g, "--for", "nobody"], ["report", g, "--format", "pdf"],
                 ["verify", g, "--expect", "bad"], ["status", str(game.with_name("none.yaml"))]):
        assert fast.parse(argv) is not None
        fast_result = through_main(monkeypatch, capsys, argv)
        assert fast_result == through_typer(argv), argv


def test_an_apply_through_either_path_writes_the_same_file(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "copy" / "g.yaml"
    other.parent.mkdir()
    shutil.copy(game, other)
    bank = str(runner.invoke(app, ["status", str(game), "--json"]).stdout.split('"waiting_for": ["')[1]
               .split('"')[0])
    names = {"fugger": "ada", "coeur": "ben", "medici": "cy", "marchionni": "cy"}
    key = game.parent / f"{names.get(bank, 'ada')}.key"
    orders = tmp_path / "orders.txt"
    orders.write_text("end\n")
    signed = runner.invoke(app, ["sign", str(orders), "--key", str(key), "--game", str(game),
                                 "--force"])
    block = tmp_path / "block.txt"
    block.write_text(signed.stdout)
    fast_result = through_main(monkeypatch, capsys, ["apply", str(game), str(block)])
    assert fast_result == through_typer(["apply", str(other), str(block)])
    assert game.read_bytes() == other.read_bytes()


def test_the_fast_path_never_builds_the_typer_app(game: Path) -> None:
    script = ("import sys\nsys.argv = ['pbem', *sys.argv[1:]]\nfrom pbem.cli import main\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in "
              "('typer', 'click', 'pydantic', 'rich'))), file=sys.stderr)\n")
    for argv in (["status", str(game)], ["options", str(game)], ["verify", str(game)]):
        done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True,
                              text=True, check=True)
        assert done.stderr.strip().splitlines()[-1:] in ([], [""]), (argv, done.stderr)
