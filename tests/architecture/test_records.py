"""engine.core.records: a class made a dataclass on first use is, once built, the very
dataclass `@dataclass` makes; until then it costs no compiled methods (start-up, issue 17)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from engine.core.records import dataclass_on_first_use


def test_once_built_it_is_the_dataclass_dataclass_would_make() -> None:
    @dataclass_on_first_use(frozen=True)
    class Late:
        n: int
        tags: tuple[str, ...] = ()
        note: str = ""

    @dataclass(frozen=True)
    class Early:
        n: int
        tags: tuple[str, ...] = ()
        note: str = ""

    assert "__dataclass_fields__" not in vars(Late)  # nothing compiled yet
    late, early = Late(1, note="x"), Early(1, note="x")
    assert "__dataclass_fields__" in vars(Late)
    assert repr(late).replace("Late", "Early") == repr(early)
    assert late == Late(1, (), "x") and late != Late(2) and hash(late) == hash(Late(1, note="x"))
    assert [f.name for f in dataclasses.fields(late)] == [f.name for f in dataclasses.fields(early)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        late.n = 2  # type: ignore[misc]  # frozen
    with pytest.raises(TypeError):
        Late()  # type: ignore[call-arg]
    assert dataclasses.replace(late, n=3) == Late(3, note="x")


def test_a_subclass_built_first_makes_its_bases_first() -> None:
    @dataclass_on_first_use()
    class Base:
        seq: int
        draws: list[int] = field(default_factory=list)

    @dataclass_on_first_use()
    class Kind(Base):
        player: str = ""

    kind = Kind(4, player="ada")
    assert (kind.seq, kind.draws, kind.player) == (4, [], "ada")
    assert "__dataclass_fields__" in vars(Base) and Base(4) == Base(4, [])
    assert repr(kind).endswith(".Kind(seq=4, draws=[], player='ada')")


def test_a_class_with_its_own_init_is_refused() -> None:
    with pytest.raises(TypeError, match="own __init__"):
        @dataclass_on_first_use()
        class Own:
            def __init__(self) -> None:
                pass
