"""Typed records without the dataclasses module: the result and request types every command builds.

``@dataclass`` imports inspect (and with it ast, dis, tokenize) and compiles five or six methods per class with
``exec``: ~30 ms of CPU for the 15 types a one-line ``boundread info`` needs, on a machine where Python itself
starts in 20 ms. A :class:`Record` subclass is declared as a dataclass is (annotated fields, defaults,
``field(default_factory=...)``, ``frozen=True`` as a class keyword) and behaves as one where it is used: a
constructor taking the fields by position or name, ``==`` and ``repr`` over the fields, a hash and no assignment
when frozen, and ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` on it and its instances
(their ``__dataclass_fields__`` is built on first use, when dataclasses is imported anyway). mypy reads it as a
dataclass (``dataclass_transform``). Standard library only, and nothing imported at start-up.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing is ~4 ms of the start-up this module exists to shorten
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, TypeVar

    from typing_extensions import dataclass_transform

    R = TypeVar("R", bound="Record")
else:

    def dataclass_transform(**_: object) -> object:
        return lambda cls: cls


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field whose default is made for each instance, as ``dataclasses.field(default_factory=list)``."""
    return _Factory(default_factory)


@dataclass_transform(field_specifiers=(field,))
class Record:
    """Base of a record type; ``class Span(Record, frozen=True): first: int; last: int``."""

    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}  # a field's default value, or the _Factory that makes it

    def __init_subclass__(cls, *, frozen: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - inspect is what this module spares
        own = [name for name in declared if name not in cls._fields]
        defaults = dict(cls._defaults)
        for name in own:
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
                if isinstance(defaults[name], _Factory):
                    delattr(cls, name)  # no list on the class for an instance to find by mistake
            elif defaults:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
        cls._fields = (*cls._fields, *own)
        cls._defaults = defaults
        type.__setattr__(cls, "__match_args__", cls._fields)
        if frozen:
            cls.__setattr__ = _frozen  # type: ignore[method-assign,assignment]
            cls.__delattr__ = _frozen  # type: ignore[method-assign,assignment]
            cls.__hash__ = _hash  # type: ignore[method-assign,assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = type(self)
        names = cls._fields
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} arguments but {len(args)} were given")
        values = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name in values:
                raise TypeError(f"{cls.__name__}() got multiple values for argument {name!r}")
            values[name] = value
        if len(values) < len(names):
            for name in names:
                if name not in values:
                    if name not in cls._defaults:
                        raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
                    default = cls._defaults[name]
                    values[name] = default.make() if type(default) is _Factory else default
        if len(values) > len(names):
            unknown = next(name for name in values if name not in names)
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument {unknown!r}")
        object.__setattr__(self, "__dict__", values)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._fields)})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return _values(self) == _values(other)

    def __replace__(self: R, **changes: Any) -> R:
        """A copy with ``changes`` (``copy.replace`` in Python 3.13; :func:`replace` before). The fields are passed on
        as held, not as a property may show them (``Source.path``: the string it was given stays a string)."""
        held = self.__dict__
        return type(self)(**{**{name: held[name] for name in self._fields}, **changes})

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:  # pickle and copy through the constructor
        return type(self), _values(self)


class _DataclassFields:
    """What ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` look for: the Field objects of a
    dataclass twin of the record's class, made on first use and kept on the class."""

    def __get__(self, obj: object, cls: type[Record]) -> dict[str, Any]:
        import dataclasses
        import inspect

        annotations: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            annotations.update(inspect.get_annotations(klass))
        spec = []
        for name in cls._fields:
            default = cls._defaults.get(name, dataclasses.MISSING)
            made = (dataclasses.field(default_factory=default.make) if type(default) is _Factory
                    else dataclasses.field(default=default))
            spec.append((name, annotations.get(name, "Any"), made))
        fields = {made.name: made for made in dataclasses.fields(dataclasses.make_dataclass(cls.__name__, spec))}
        type.__setattr__(cls, "__dataclass_fields__", fields)
        return fields


type.__setattr__(Record, "__dataclass_fields__", _DataclassFields())


def replace(obj: R, /, **changes: Any) -> R:
    """A copy of a record with ``changes``, as ``dataclasses.replace`` (without importing it)."""
    return obj.__replace__(**changes)


def _values(record: Record) -> tuple[Any, ...]:
    return tuple(getattr(record, name) for name in record._fields)


def _frozen(self: Record, name: str, value: object = None) -> None:
    import dataclasses  # on the error only

    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _hash(self: Record) -> int:
    return hash(_values(self))


def as_dict(obj: Record) -> dict[str, Any]:
    """The fields by name, records within (in lists, tuples and dicts) as dicts too: ``dataclasses.asdict``, whose
    import and deep copy of every value a JSON answer does not need."""
    return {name: _plain(getattr(obj, name)) for name in obj._fields}


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return as_dict(value)
    if type(value) in (list, tuple):
        return type(value)(_plain(item) for item in value)
    if type(value) is dict:
        return {key: _plain(item) for key, item in value.items()}
    return value
