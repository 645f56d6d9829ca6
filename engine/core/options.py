"""Legal answers listed a group at a time, each group computed when first read (issue 17).

A decision with many kinds of answer (the Pax main turn: buy, sell, play, ops, ...) lists them
in groups, one per first word of the lines. Whether the rules force an answer needs at most
two of them, and the one a line names exactly lives in the group of its first word: a replay,
which knows every line it will read, computes a few groups instead of the whole list. Anything
else (a count, an index, a policy's pick, an error listing every legal line) computes them all,
once.

A group reads the table when it is first read. Read the options at the state they were made
for: the adjudication loop does, and `engine.core.adjudicate.settle` hands out whole lists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from engine.core.choice import Choice, fold

# The first word every line of the group begins with, and how to list the group, given the
# options it belongs to (a group may depend on the ones before it: no closure over the options,
# which would make each a reference cycle for the garbage collector).
Group = tuple[str, Callable[["Options"], list[Choice]]]


class Options(Sequence[Choice]):
    """The legal answers in their listed order, made of groups. Every line of a group begins
    with the group's word (tests/engine/test_option_groups.py checks it at every step of
    seeded games), so no line of another group can be the same line."""

    __slots__ = ("_groups", "_made", "_whole")

    def __init__(self, groups: Sequence[Group]) -> None:
        self._groups = groups
        self._made: list[list[Choice] | None] = [None] * len(groups)
        self._whole: list[Choice] | None = None

    def group(self, index: int) -> list[Choice]:
        made = self._made[index]
        if made is None:
            made = self._made[index] = self._groups[index][1](self)
        return made

    def words(self) -> list[str]:
        """Each group's first word, in order."""
        return [word for word, _ in self._groups]

    def any_before(self, index: int) -> bool:
        """Whether a group listed before group `index` has an answer."""
        return any(self.group(earlier) for earlier in range(index))

    def named(self, cleaned: str) -> list[Choice]:
        """The answers whose folded line is `cleaned`: only its first word's groups are read."""
        word = cleaned.split(" ", 1)[0]
        return [choice for index, (first, _) in enumerate(self._groups) if first == word
                for choice in self.group(index) if fold(choice.line) == cleaned]

    def whole(self) -> list[Choice]:
        if self._whole is None:
            self._whole = [choice for index in range(len(self._groups))
                           for choice in self.group(index)]
        return self._whole

    def __iter__(self) -> Iterator[Choice]:
        return iter(self._whole) if self._whole is not None else self._reading()

    def _reading(self) -> Iterator[Choice]:
        for index in range(len(self._groups)):
            yield from self.group(index)

    def __len__(self) -> int:
        return len(self.whole())

    @overload
    def __getitem__(self, index: int) -> Choice: ...

    @overload
    def __getitem__(self, index: slice) -> list[Choice]: ...

    def __getitem__(self, index: int | slice) -> Choice | list[Choice]:
        return self.whole()[index]

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Sequence) and self.whole() == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Options({self.whole()!r})"

