"""Dataclasses made on first use: a run pays for a record class only if it needs one.

Making a dataclass compiles its methods, most of a millisecond a class, and a command's
start-up is mostly such work (bench/README.md). `@dataclass_on_first_use(**options)` is
`@dataclass(**options)` applied when the class is first needed as a dataclass; from then on the
class is the very dataclass `@dataclass` makes (same methods, fields, repr, equality and hash),
and the type checker sees it as one (`dataclass_transform`).

A plain record (each field annotated, with no default, a default, or a `field()` default or
factory, or a `field(init=False)` with a factory or none; a `ClassVar` is no field; no
`InitVar` or keyword-only field; no base but plain records waiting too, or classes without
fields or an `__init__`; no own `__eq__`, `__hash__`, `__setattr__` or `__delattr__`; options
among frozen, eq, repr and unsafe_hash) is made when
a method `@dataclass` writes is first called on an instance (`__repr__`, `__eq__`, `__hash__`,
a frozen class's `__setattr__` and `__delattr__`), when `dataclasses` is asked about it
(`fields`, `replace`, `asdict`, `is_dataclass`: they read `__dataclass_fields__`), or at its
`MADE_AT`th instance. Until then a shared `__init__` binds the arguments the dataclass's would,
sets the fields in the same order and the same way (a frozen record's through
`object.__setattr__`) and calls `__post_init__`, compiling nothing.
Any other class is made at its first instance. Pure: it makes classes, nothing else.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, field
from importlib import import_module
from typing import Any, ClassVar, TypeVar, dataclass_transform

T = TypeVar("T")

# Past this many instances a compiled __init__ costs less than the shared one's binding.
MADE_AT = 256
_PLAIN_OPTIONS = frozenset({"frozen", "eq", "repr", "unsafe_hash"})
# Names whose own definition makes a class more than a plain record (dataclass treats them).
_OWN = ("__eq__", "__hash__", "__setattr__", "__delattr__")

# A field of a plain record: its name, its default and default factory (MISSING if none), and
# whether __init__ takes it.
_Field = tuple[str, Any, Any, bool]
# Classes decorated and not yet made dataclasses: the options to make them with, and the
# stand-ins to take away first. Reentrant: making a class makes its waiting bases first.
_WAITING: dict[type, tuple[dict[str, Any], tuple[str, ...]]] = {}
_MAKING = _thread.RLock()
# The waiting plain records' fields by name, in order (see _plain_fields).
_PLAIN: dict[type, dict[str, _Field]] = {}
_CLASS_VAR: dict[str, bool] = {}  # see _has_class_var


@dataclass_transform(field_specifiers=(field, Field))  # the type checker sees a dataclass
def dataclass_on_first_use(**options: Any) -> Callable[[type[T]], type[T]]:
    """`@dataclass(**options)`, applied when the class is first needed as a dataclass."""

    def wait(cls: type[T]) -> type[T]:
        if "__init__" in cls.__dict__ or "__new__" in cls.__dict__ or options.get("slots"):
            raise TypeError(f"{cls.__name__}: an own __init__ or __new__, or slots, need "
                            "@dataclass")
        fields = _plain_fields(cls, options)
        if fields is None:
            cls.__init__ = _make_then_init  # type: ignore[method-assign]  # replaced when made
            stand_ins: tuple[str, ...] = ("__init__", "__dataclass_fields__")
        else:
            cls.__init__ = _shared_init(cls, fields, options)  # type: ignore[method-assign]
            stand_ins = ("__init__", "__dataclass_fields__", *_stand_in_methods(cls, options))
            if "__match_args__" not in cls.__dict__:  # what @dataclass sets: the init fields
                cls.__match_args__ = tuple(  # type: ignore[misc,attr-defined]
                    name for name, _, _, init in fields if init)
        cls.__dataclass_fields__ = _FIELDS_WHEN_ASKED  # type: ignore[attr-defined]
        _WAITING[cls] = (options, stand_ins)
        return cls

    return wait


def make(cls: type) -> None:
    """Make `cls` and each waiting class it inherits from the dataclasses `@dataclass` makes,
    bases first (a dataclass collects their fields). A class already made is left as it is."""
    with _MAKING:
        for klass in reversed(cls.__mro__):
            waiting = _WAITING.pop(klass, None)
            if waiting is not None:
                options, stand_ins = waiting
                _PLAIN.pop(klass, None)
                for name in stand_ins:  # @dataclass adds a method only where none is defined
                    delattr(klass, name)
                dataclass(klass, **options)


def is_waiting(cls: type) -> bool:
    """Whether `cls`, or a class it inherits from, is still to be made a dataclass."""
    return any(klass in _WAITING for klass in cls.__mro__)


def _plain_fields(cls: type, options: dict[str, Any]) -> tuple[_Field, ...] | None:
    """The fields of a plain record in `@dataclass`'s order, its waiting bases' first, or None
    if the class is more than one (then it is made at its first instance)."""
    if not set(options) <= _PLAIN_OPTIONS or any(name in cls.__dict__ for name in _OWN):
        return None
    fields: dict[str, _Field] = {}
    for base in reversed(cls.__mro__[1:-1]):  # object is last
        if base in _PLAIN:  # a waiting plain record: @dataclass will have made it first
            if _WAITING[base][0].get("frozen", False) != options.get("frozen", False):
                return None  # @dataclass refuses to mix frozen and not
            fields.update(_PLAIN[base])
        elif base in _WAITING or base.__dict__.get("__annotations__") or any(
                name in base.__dict__ for name in ("__init__", "__dataclass_fields__")):
            return None
    class_var = _has_class_var(cls.__module__)
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if not isinstance(annotation, str) or name in fields:
            return None
        if class_var and (annotation == "ClassVar" or annotation.startswith("ClassVar[")):
            continue  # not a field, as @dataclass reads it
        if "ClassVar" in annotation or "InitVar" in annotation or "KW_ONLY" in annotation:
            return None
        default: Any = getattr(cls, name, MISSING)  # as @dataclass reads it
        factory: Any = MISSING
        init = True
        if isinstance(default, Field):
            if default.kw_only is True:
                return None
            default, factory, init = default.default, default.default_factory, default.init
            if not init and default is not MISSING:
                return None  # read from the class, where @dataclass puts the default
        if default is not MISSING and type(default).__hash__ is None:
            return None  # a mutable default: @dataclass refuses it
        fields[name] = (name, default, factory, init)
    listed = tuple(fields.values())
    defaulted = False  # whether an earlier field __init__ takes has a default
    for _, default, factory, init in listed:
        if init:
            if defaulted and default is MISSING and factory is MISSING:
                return None  # a default before a field without one: @dataclass refuses it
            defaulted = defaulted or default is not MISSING or factory is not MISSING
    _PLAIN[cls] = fields
    return listed


def _has_class_var(module: str) -> bool:
    """Whether `module` has typing's ClassVar under that name: only then does @dataclass read a
    `ClassVar[...]` annotation as one. Asked once a module."""
    known = _CLASS_VAR.get(module)
    if known is None:
        try:
            known = vars(import_module(module)).get("ClassVar") is ClassVar
        except ImportError:  # a class made outside any importable module
            known = False
        _CLASS_VAR[module] = known
    return known


def _shared_init(cls: type, fields: tuple[_Field, ...],
                 options: dict[str, Any]) -> Callable[..., None]:
    """The `__init__` of a plain record until it is made: the dataclass's binding, uncompiled."""
    names = {name for name, _, _, init in fields if init}
    title = f"{cls.__qualname__}.__init__()"
    put = object.__setattr__ if options.get("frozen") else setattr
    post_init = hasattr(cls, "__post_init__")
    count = [0]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        count[0] += 1
        if count[0] >= MADE_AT:
            make(cls)
            cls.__init__(self, *args, **kwargs)  # type: ignore[misc]  # the dataclass's own
            return
        if len(args) > len(names):
            raise TypeError(f"{title} takes {len(names) + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        for key in kwargs:
            if key not in names:
                raise TypeError(f"{title} got an unexpected keyword argument '{key}'")
        index = 0  # of the next positional argument
        for name, default, factory, init in fields:
            if not init:  # set only from a factory, as @dataclass's __init__ does
                if factory is not MISSING:
                    put(self, name, factory())
                continue
            if index < len(args):
                if name in kwargs:
                    raise TypeError(f"{title} got multiple values for argument '{name}'")
                value = args[index]
                index += 1
            elif name in kwargs:
                value = kwargs[name]
            elif default is not MISSING:
                value = default
            elif factory is not MISSING:
                value = factory()
            else:
                raise TypeError(f"{title} missing 1 required positional argument: '{name}'")
            put(self, name, value)
        if post_init:
            self.__post_init__()

    return __init__


def _stand_in_methods(cls: type, options: dict[str, Any]) -> list[str]:
    """Put in stand-ins for the methods `@dataclass` will write; each makes the class, then
    calls the method made. Returns their names."""
    eq, frozen = options.get("eq", True), options.get("frozen", False)
    names = []
    if options.get("repr", True) and "__repr__" not in cls.__dict__:
        names.append("__repr__")
    if eq:
        names.append("__eq__")
    if options.get("unsafe_hash", False) or (eq and frozen):
        names.append("__hash__")
    if frozen:
        names += ["__setattr__", "__delattr__"]
    for name in names:
        setattr(cls, name, _stand_in(name))
    if eq and not frozen and not options.get("unsafe_hash", False):
        cls.__hash__ = None  # type: ignore[assignment]  # unhashable, as @dataclass makes it
        names.append("__hash__")
    return names


def _stand_in(name: str) -> Callable[..., Any]:
    def method(self: object, *args: Any) -> Any:
        make(type(self))
        return getattr(type(self), name)(self, *args)

    method.__name__ = name
    return method


class _FieldsWhenAsked:
    """`__dataclass_fields__` of a waiting class: `dataclasses` reads it to ask whether, and
    how, a class is a dataclass; reading it makes the class."""

    def __get__(self, instance: object, owner: type) -> Any:
        make(owner)
        return owner.__dataclass_fields__  # type: ignore[attr-defined]


_FIELDS_WHEN_ASKED = _FieldsWhenAsked()


def _make_then_init(self: object, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    make(cls)
    cls.__init__(self, *args, **kwargs)  # the dataclass's own
