"""Lazily imported modules and lazily made dataclasses: a command pays for jinja2, mail or git,
and for the record classes it never builds, only when it uses them.

Start-up time is most of a `pbem apply` (bench/README.md), so command modules import the heavy
parts of pbem through `lazy()`, with a TYPE_CHECKING import beside it for the type checker.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

T = TypeVar("T")


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


# Classes decorated with `dataclass_on_first_use` and not yet made dataclasses, with the
# options to make them with.
_WAITING: dict[type, dict[str, Any]] = {}


def dataclass_on_first_use(**options: Any) -> Callable[[type[T]], type[T]]:
    """`@dataclass(**options)`, applied when the class (or a subclass) is first instantiated.

    Making a dataclass compiles its methods, most of a millisecond a class; a module of many
    record kinds, few of which a command builds, pays that only for the kinds it builds. Once
    made, the class is the very dataclass `@dataclass` makes (same methods, fields, repr and
    equality). Until then it has no dataclass fields: a class `dataclasses.fields` or
    `dataclasses.replace` is used on, before any instance exists, should use `@dataclass`. A
    module imports this beside a TYPE_CHECKING `from dataclasses import dataclass as ...`, so
    the type checker sees a plain dataclass."""

    def wait(cls: type[T]) -> type[T]:
        if "__init__" in cls.__dict__ or options.get("slots"):
            raise TypeError(f"{cls.__name__}: an own __init__ or slots need @dataclass")
        _WAITING[cls] = options
        cls.__init__ = _make_then_init  # type: ignore[method-assign]  # replaced when made
        return cls

    return wait


def _make_then_init(self: object, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    for klass in reversed(cls.__mro__):  # bases first: a dataclass collects its bases' fields
        options = _WAITING.pop(klass, None)
        if options is not None:
            del klass.__init__  # type: ignore[misc]  # @dataclass adds __init__ only if absent
            dataclass(klass, **options)
    cls.__init__(self, *args, **kwargs)  # the dataclass's own
