"""The fast path: the commands run most often, without building the Typer app.

Building the Typer app (typer, click, pydantic and every command module) costs more than the
rules work of an apply. `parse` reads a command line of a hot command when it is one this
small parser fully understands, and returns None otherwise; `pbem.cli.main` then hands the line
to Typer, which gives its usual help and errors. So the fast path never decides what is an
error: it only takes lines that Typer would take in the same way. tests/pbem/test_fast_cli.py
checks that each spec below matches the Typer command's options, and that both parsers read
the same lines to the same arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core.records import dataclass_on_first_use

# Made on first use: making a frozen dataclass costs most of a millisecond, and every hot
# command builds these (start-up, bench/README.md).


@dataclass_on_first_use(frozen=True)
class Option:
    dest: str
    flag: bool = False  # takes no value
    many: bool = False  # may repeat; the values are collected
    path: bool = False  # the value is a Path
    number: bool = False  # the value is an int


@dataclass_on_first_use(frozen=True)
class Spec:
    arguments: tuple[tuple[str, bool], ...]  # (name, is a Path), in order, all required
    options: dict[str, Option]


_FOR = Option("for_player")
_JSON = Option("as_json", flag=True)
_FORMAT = Option("fmt")
_MAIL_CONFIG = Option("mail_config", path=True)

SPECS: dict[str, Spec] = {
    "apply": Spec((("game", True), ("orders", False)), {
        "--dry-run": Option("dry_run", flag=True), "--format": _FORMAT,
        "--commit": Option("commit", flag=True), "--mail": Option("send_mail", flag=True),
        "--outbox": Option("outbox", path=True), "--mail-config": _MAIL_CONFIG,
        "--smtp-config": _MAIL_CONFIG}),
    "options": Spec((("game", True),), {"--json": _JSON, "--for": _FOR}),
    "report": Spec((("game", True),), {"--for": _FOR, "--format": _FORMAT,
                                       "--seq": Option("seq", number=True),
                                       "--lang": Option("lang")}),
    "status": Spec((("game", True),), {"--json": _JSON, "--now": Option("now"),
                                       "--lang": Option("lang")}),
    "verify": Spec((("game", True),), {"--secrets": Option("secrets", path=True),
                                       "--expect": Option("expect", many=True)}),
}


def parse(argv: list[str]) -> tuple[str, dict[str, Any]] | None:
    """(command, keyword arguments) for a hot command line this parser fully reads, or None."""
    if not argv or argv[0] not in SPECS:
        return None
    spec = SPECS[argv[0]]
    given: dict[str, Any] = {}
    positional: list[str] = []
    rest = argv[1:]
    while rest:
        word = rest.pop(0)
        if word == "-" or not word.startswith("-"):
            positional.append(word)
            continue
        name, has_value, value = word.partition("=")
        option = spec.options.get(name)
        if option is None or option.flag and has_value:
            return None  # --help, an unknown option, `--` or a short option: Typer's to read
        if option.flag:
            given[option.dest] = True
            continue
        if not has_value:
            if not rest or rest[0].startswith("-") and rest[0] != "-":
                return None
            value = rest.pop(0)
        if option.number and not (value.isascii() and value.isdigit()):
            return None  # Typer says what is wrong with it
        converted: Any = Path(value) if option.path else int(value) if option.number else value
        if option.many:
            given.setdefault(option.dest, []).append(converted)
        else:
            given[option.dest] = converted
    if len(positional) != len(spec.arguments):
        return None
    for (name, is_path), word in zip(spec.arguments, positional, strict=True):
        given[name] = Path(word) if is_path else word
    return argv[0], given


def run(command: str, arguments: dict[str, Any]) -> int:
    """Run a parsed hot command behind the one error boundary; its exit code."""
    import pbem.cli.hot as hot  # the module, not the package: pbem.cli imports this one
    from pbem.cli.guard import run as guarded

    body: Callable[..., None] = getattr(hot, command)
    return guarded(body, **arguments)
