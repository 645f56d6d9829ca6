"""The shape of pbem/ (issue 12): no import cycles, counting imports inside functions too, and
no ruleset named in code: rulesets are reached through the one table in pbem.rulesets."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PBEM = Path(__file__).resolve().parents[2] / "pbem"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PBEM.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    package = base if module_is_package(module) else base[:-1]
    package = package[:len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


def module_is_package(module: str) -> bool:
    return (PBEM.parent / Path(*module.split(".")) / "__init__.py").exists()


def known(name: str, modules: set[str]) -> str | None:
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PBEM.rglob("*.py")}
    modules = set(files)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in files.items():
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):  # imports inside functions count too
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = resolve(module, node)
                targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            for target in targets:
                found = known(target, modules)
                if found is not None and found != module and not module.startswith(found + "."):
                    graph[module].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_pbem_has_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# A ruleset's name as a string literal compared, or used as a key, outside the table.
_RULESET_NAME = re.compile(r"""["'](pax|aor)["']""")
_TABLE = PBEM / "rulesets.py"


def test_no_ruleset_name_is_compared_under_pbem() -> None:
    offenders = []
    for path in sorted(PBEM.rglob("*.py")):
        if path == _TABLE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if _RULESET_NAME.search(code):
                offenders.append(f"{path.relative_to(PBEM.parent)}:{number}: {line.strip()}")
    assert offenders == []


def test_each_pbem_folder_says_what_lives_there() -> None:
    for init in PBEM.glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and 1 <= len(doc.splitlines()) <= 3, init
