"""Lazily imported modules: a command pays for jinja2, mail or git only when it uses them.

Start-up time is most of a `pbem apply` (bench/README.md), so command modules import the heavy
parts of pbem through `lazy()`, with a TYPE_CHECKING import beside it for the type checker.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any


class _Deferred(ModuleType):
    """Stands for module `__name__`, imported when an attribute is first read. Every read goes
    to the module itself (so a test that patches the module is seen)."""

    def __getattr__(self, attribute: str) -> Any:
        name = self.__name__
        module = sys.modules.get(name) or importlib.import_module(name)
        return getattr(module, attribute)


def lazy(name: str) -> ModuleType:
    """The module `name`, imported on first attribute access. Nothing is looked up before: not
    even where the module is (importlib's LazyLoader found it at once, loading its parent
    packages; start-up, bench/README.md)."""
    return sys.modules.get(name) or _Deferred(name)
