"""A table of named parts loaded on first lookup: "module:attribute" per name.

Start-up (bench/README.md): a command that applies one line needs the handlers of the
decisions and ops that line reaches, not every module of the game. A `Registry` is a read-only
mapping; `make` turns the loaded attribute into the value (a class into its wrapped instance,
say), once per name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from importlib import import_module
from typing import Any, TypeVar

T = TypeVar("T")


def load(target: str) -> Any:
    """The attribute a "module:attribute" names."""
    module, _, attribute = target.partition(":")
    return getattr(import_module(module), attribute)


class Registry(Mapping[str, T]):
    def __init__(self, where: Mapping[str, str], make: Callable[[Any], T]) -> None:
        self.where = where  # name -> "module:attribute"
        self._make = make
        self._made: dict[str, T] = {}

    def __getitem__(self, name: str) -> T:
        try:
            return self._made[name]
        except KeyError:
            made = self._made[name] = self._make(load(self.where[name]))
            return made

    def __iter__(self) -> Iterator[str]:
        return iter(self.where)

    def __len__(self) -> int:
        return len(self.where)
