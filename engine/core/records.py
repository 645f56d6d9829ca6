"""Dataclasses made on first use: a run pays for a record class only if it builds one.

Making a dataclass compiles its methods, most of a millisecond a class, and a command's
start-up is mostly such work (bench/README.md). `@dataclass_on_first_use(**options)` is
`@dataclass(**options)` applied when the class, or a subclass, is first instantiated; from then
on the class is the very dataclass `@dataclass` makes (same methods, fields, repr, equality and
hash), and the type checker sees it as one (`dataclass_transform`). Until then it is not a
dataclass: a class that `dataclasses.fields` or `is_dataclass` is asked about before any
instance exists, or whose instances are unpickled in a process that never built one, should
use `@dataclass`. Pure: it makes classes, nothing else.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable
from dataclasses import Field, dataclass, field
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

# Classes decorated and not yet made dataclasses, with the options to make them with; the lock
# makes each once should two threads build the first instances at once.
_WAITING: dict[type, dict[str, Any]] = {}
_MAKING = _thread.allocate_lock()


@dataclass_transform(field_specifiers=(field, Field))  # the type checker sees a dataclass
def dataclass_on_first_use(**options: Any) -> Callable[[type[T]], type[T]]:
    """`@dataclass(**options)`, applied when the class is first instantiated."""

    def wait(cls: type[T]) -> type[T]:
        if "__init__" in cls.__dict__ or "__new__" in cls.__dict__ or options.get("slots"):
            raise TypeError(f"{cls.__name__}: an own __init__ or __new__, or slots, need "
                            "@dataclass")
        _WAITING[cls] = options
        cls.__init__ = _make_then_init  # type: ignore[method-assign]  # replaced when made
        return cls

    return wait


def _make_then_init(self: object, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    with _MAKING:
        for klass in reversed(cls.__mro__):  # bases first: a dataclass collects their fields
            options = _WAITING.get(klass)
            if options is not None:
                del klass.__init__  # type: ignore[misc]  # @dataclass adds one only if absent
                dataclass(klass, **options)
                del _WAITING[klass]
    cls.__init__(self, *args, **kwargs)  # the dataclass's own
