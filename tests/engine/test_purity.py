"""The engine is pure: imports point one way, and nothing under engine/ touches the world."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN_MODULES = {"random", "time", "datetime", "os", "sys", "io", "pathlib", "subprocess",
                     "socket", "logging", "pbem", "yaml", "jinja2", "typer", "secrets", "uuid"}
FORBIDDEN_CALLS = {"open", "print", "input", "hash", "breakpoint"}


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_engine_imports_nothing_from_the_world() -> None:
    offenders = []
    for path in engine_files():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN_MODULES:
                    offenders.append(f"{path.relative_to(ENGINE)} imports {name}")
    assert offenders == []


def test_engine_calls_no_io_builtins() -> None:
    offenders = []
    for path in engine_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in FORBIDDEN_CALLS:
                offenders.append(f"{path.relative_to(ENGINE)}:{node.lineno} calls {node.func.id}")
    assert offenders == []


def test_core_does_not_import_a_ruleset() -> None:
    for path in (ENGINE / "core").rglob("*.py"):
        assert "engine.pax" not in path.read_text(), path.name


def test_engine_modules_stay_small() -> None:
    for path in engine_files():
        assert len(path.read_text().splitlines()) <= 400, path.name
