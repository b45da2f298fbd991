"""The value semantics every check shares: frozen, slotted, hashable, picklable, constructor-form repr.

Plan checks and state checks are small immutable values that hold what to look
for; :class:`FrozenValue` gives them equality, hashing, pickling, copying and a
repr from one list of fields, so each check only declares its data.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, TypeVar

from tfjsonpath.internal import public

__all__ = ["FrozenValue", "ReadOnly", "constructor_repr", "public"]

_V = TypeVar("_V", bound="FrozenValue")


class ReadOnly:
    """A read-only view over part of a document: attributes are set once, in ``__init__``, by :meth:`_set`.

    The document wrappers (``ResourceChange``, ``StateResource``, ...) compare by identity: they
    are views, not values. Setting or deleting an attribute afterwards is an AttributeError.

    >>> class View(ReadOnly):
    ...     __slots__ = ("raw",)
    ...     def __init__(self, raw):
    ...         self._set(raw=raw)
    >>> View({"a": 1}).raw
    {'a': 1}
    >>> View({}).raw = {}
    Traceback (most recent call last):
    ...
    AttributeError: View is read-only; cannot set 'raw'
    """

    __slots__ = ()

    def _set(self, **values: Any) -> None:
        """Set attributes once, from ``__init__``."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; cannot delete {name!r}")


class FrozenValue(ReadOnly):
    """An immutable value built from the attributes named in ``_fields``.

    Subclasses list their attributes in ``__slots__`` and ``_fields`` (constructor
    order; names in ``_keyword_fields`` are keyword-only and left out of the repr when
    None) and set them once with :meth:`_set`. Equality holds only between values of
    the same type.

    >>> class Pair(FrozenValue):
    ...     __slots__ = ("left", "right")
    ...     _fields = ("left", "right")
    ...     _keyword_fields = frozenset({"right"})
    ...     def __init__(self, left, *, right=None):
    ...         self._set(left=left, right=right)
    >>> Pair(1, right=2), Pair(1)
    (Pair(1, right=2), Pair(1))
    >>> Pair(1) == Pair(1), hash(Pair(1)) == hash(Pair(1)), Pair(1) == (1, None)
    (True, True, False)
    >>> Pair(1).left = 3
    Traceback (most recent call last):
    ...
    AttributeError: Pair is immutable; cannot set 'left'
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _keyword_fields: ClassVar[frozenset[str]] = frozenset()

    def _set(self, **values: Any) -> None:
        """Set attributes once, from ``__init__``."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _field_names(self) -> tuple[str, ...]:
        # A user-written check may be a frozen dataclass instead of listing _fields.
        if not self._fields and dataclasses.is_dataclass(self):
            return tuple(field.name for field in dataclasses.fields(self))
        return self._fields

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._field_names())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is type(self):
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def _args(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        if not self._fields and dataclasses.is_dataclass(self):
            return (), {name: getattr(self, name) for name in self._field_names()}
        args = tuple(getattr(self, n) for n in self._fields if n not in self._keyword_fields)
        kwargs = {n: getattr(self, n) for n in self._fields if n in self._keyword_fields}
        return args, kwargs

    def __repr__(self) -> str:
        args, kwargs = self._args()
        return constructor_repr(type(self).__name__, *args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:
        args, kwargs = self._args()
        return (_rebuild, (type(self), args, kwargs))

    def __copy__(self: _V) -> _V:
        return self

    def __deepcopy__(self: _V, memo: dict[int, Any]) -> _V:
        return self


def _rebuild(cls: type[_V], args: tuple[Any, ...], kwargs: dict[str, Any]) -> _V:
    return cls(*args, **kwargs)


def constructor_repr(name: str, *args: Any, **kwargs: Any) -> str:
    """``Name(arg, ..., key=value)``, leaving out keyword arguments that are None.

    >>> constructor_repr("ExpectX", "a.b", [1], deposed=None, mode="data")
    "ExpectX('a.b', [1], mode='data')"
    """
    parts = [repr(a) for a in args]
    parts.extend(f"{k}={v!r}" for k, v in kwargs.items() if v is not None)
    return f"{name}({', '.join(parts)})"
