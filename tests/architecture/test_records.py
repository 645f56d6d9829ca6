"""engine.core.records: a class made a dataclass on first use is, once made, the very
dataclass `@dataclass` makes; until then it costs no compiled methods, and its instances
behave as the dataclass's would (start-up, issue 17)."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from engine.core import records
from engine.core.records import dataclass_on_first_use, is_waiting


@dataclass_on_first_use(frozen=True)
class Pickled:
    n: int
    note: str = ""


def test_once_made_it_is_the_dataclass_dataclass_would_make() -> None:
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

    late, early = Late(1, note="x"), Early(1, note="x")
    assert is_waiting(Late) and vars(late) == vars(early)  # built, nothing compiled yet
    assert repr(late).replace("Late", "Early") == repr(early)  # the first use made it
    assert not is_waiting(Late) and "__dataclass_fields__" in vars(Late)
    assert late == Late(1, (), "x") and late != Late(2) and hash(late) == hash(Late(1, note="x"))
    assert [f.name for f in dataclasses.fields(late)] == [f.name for f in dataclasses.fields(early)]
    assert Late.__match_args__ == Early.__match_args__
    with pytest.raises(dataclasses.FrozenInstanceError):
        late.n = 2  # type: ignore[misc]  # frozen
    with pytest.raises(TypeError):
        Late()  # type: ignore[call-arg]
    assert dataclasses.replace(late, n=3) == Late(3, note="x")


@pytest.mark.parametrize("first_use", [
    lambda r: repr(r), lambda r: r == r, lambda r: hash(r), lambda r: {r},
    lambda r: dataclasses.fields(r), lambda r: dataclasses.asdict(r),
    lambda r: dataclasses.is_dataclass(type(r)), lambda r: dataclasses.replace(r, n=2)])
def test_each_method_the_dataclass_writes_makes_it(first_use: object) -> None:
    @dataclass_on_first_use(frozen=True)
    class Late:
        n: int
        note: str = ""

    late = Late(1)
    assert is_waiting(Late)
    first_use(late)  # type: ignore[operator]
    assert not is_waiting(Late) and late == Late(1, "") and repr(late).endswith("Late(n=1, note='')")


def test_a_frozen_record_refuses_a_change_before_it_is_made() -> None:
    @dataclass_on_first_use(frozen=True)
    class Late:
        n: int

    late = Late(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        late.n = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del late.n
    assert late.n == 1


def test_a_mutable_record_is_unhashable_and_changes_before_it_is_made() -> None:
    @dataclass_on_first_use()
    class Late:
        n: int

    late = Late(1)
    late.n = 2
    with pytest.raises(TypeError, match="unhashable"):
        hash(late)
    assert is_waiting(Late) and late == Late(2) and not is_waiting(Late)


def test_the_shared_init_binds_as_the_dataclass_init_does() -> None:
    @dataclass_on_first_use(frozen=True)
    class Late:
        a: int
        b: str = "b"

    assert vars(Late(1)) == {"a": 1, "b": "b"} and vars(Late(b="c", a=2)) == {"a": 2, "b": "c"}
    cases: list[tuple[tuple[Any, ...], dict[str, Any], str]] = [
        ((), {}, "missing 1 required positional argument: 'a'"),
        ((1, "x", 3), {}, "takes 3 positional arguments but 4"),
        ((1,), {"a": 2}, "multiple values for argument 'a'"),
        ((1,), {"c": 2}, "unexpected keyword argument 'c'")]
    for args, kwargs, problem in cases:
        with pytest.raises(TypeError, match=problem):
            Late(*args, **kwargs)
    assert is_waiting(Late)


def test_many_instances_make_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "MADE_AT", 3)

    @dataclass_on_first_use()
    class Late:
        n: int

    made = [Late(i) for i in range(3)]
    assert not is_waiting(Late) and [late.n for late in made] == [0, 1, 2]


def test_an_unpickled_record_is_the_dataclass_instance() -> None:
    copy = pickle.loads(pickle.dumps(Pickled(3, "x")))
    assert copy == Pickled(3, "x") and repr(copy).endswith("Pickled(n=3, note='x')")


def test_a_subclass_built_first_makes_its_bases_first() -> None:
    @dataclass_on_first_use()
    class Base:
        seq: int
        draws: list[int] = field(default_factory=list)

    @dataclass_on_first_use()
    class Kind(Base):
        player: str = ""

    kind = Kind(4, player="ada")
    assert (kind.seq, kind.draws, kind.player) == (4, [], "ada") and is_waiting(Base)
    assert repr(kind).endswith(".Kind(seq=4, draws=[], player='ada')")
    assert not is_waiting(Base) and Base(4) == Base(4, [])


def test_a_class_var_is_no_field_and_other_classes_are_made_when_built() -> None:
    @dataclass_on_first_use()
    class Plain:
        kind: ClassVar[str] = "plain"
        n: int
        seen: list[int] = field(default_factory=list)

        def __post_init__(self) -> None:
            self.seen.append(self.n)

    @dataclass_on_first_use(order=True)
    class Ordered:
        n: int

    @dataclass_on_first_use()
    class Drawn:
        n: int
        draws: list[int] = field(init=False)
        later: list[int] = field(init=False, default_factory=list)

        def __post_init__(self) -> None:
            self.draws = [self.n]

    plain = Plain(2)
    assert is_waiting(Plain) and vars(plain) == {"n": 2, "seen": [2]} and Plain.kind == "plain"
    assert vars(Drawn(3)) == {"later": [], "draws": [3], "n": 3} and is_waiting(Drawn)
    assert list(vars(Drawn(3))) == ["n", "later", "draws"]  # the dataclass's order too
    assert repr(Drawn(3)).endswith("Drawn(n=3, draws=[3], later=[])")
    assert Ordered(1) < Ordered(2) and not is_waiting(Ordered)


def test_a_class_with_its_own_init_is_refused() -> None:
    with pytest.raises(TypeError, match="own __init__"):
        @dataclass_on_first_use()
        class Own:
            def __init__(self) -> None:
                pass
