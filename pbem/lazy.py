"""Lazily imported modules: a command pays for jinja2, mail or git only when it uses them.

Start-up time is most of a `pbem apply` (bench/README.md), so command modules import the heavy
parts of pbem through `lazy()`, with a TYPE_CHECKING import beside it for the type checker.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The module `name`, executed on first attribute access (importlib's LazyLoader)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:  # as an import does, so `pbem.delivery.digests` is reachable from its package
        setattr(importlib.import_module(parent), child, module)
    return module
