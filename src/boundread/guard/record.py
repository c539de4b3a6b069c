"""``Record``: a frozen value type over ``__slots__``, for the guard-check hot path.

The hook runs before every agent tool call, so its modules avoid ``dataclasses`` (which imports
``inspect``, ``ast``, ``dis`` ... ~10 ms at start-up) and ``typing``. A subclass lists its fields in
``__slots__``, annotates them, and fills them in ``__init__`` with ``self._init(...)``; equality,
hashing and repr cover the fields, like a frozen dataclass.
"""

from __future__ import annotations


class Record:
    __slots__: tuple[str, ...] = ()
    _UNCOMPARED: frozenset[str] = frozenset()  # fields left out of ==, like field(compare=False)

    def _init(self, *values: object) -> None:
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__ if name not in self._UNCOMPARED)

    def _fields(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot assign {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")
