"""The two ways to be immutable: a value (:func:`frozen` on :class:`FrozenValue`) and a document view (:class:`ReadOnly`).

Plan checks and state checks are small immutable values that hold what to look for:
each is a frozen, slotted dataclass declared with :func:`frozen`, fields written once as
annotations, arguments checked and normalised in ``__post_init__``. :class:`FrozenValue`
adds a constructor-form repr, pickling through the constructor and copying.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from typing_extensions import dataclass_transform

from tfjsonpath._errors import public

from ._text import closest

__all__ = ["FrozenValue", "ReadOnly", "constructor_repr", "frozen", "keyword_hints", "public", "renamed_keywords"]

_V = TypeVar("_V", bound="FrozenValue")
_R = TypeVar("_R", bound="ReadOnly")
_T = TypeVar("_T")

# Where a Go field name (CamelCase, initialisms kept: AdditionalCLIOptions) breaks into snake_case words.
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


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

    A copy, shallow or deep, is the object itself: it could differ in nothing (and a copy made the generic way
    fills a new object's slots by setattr, which a read-only one refuses).

    >>> import copy
    >>> view = View({"a": [1]})
    >>> copy.copy(view) is view, copy.deepcopy(view) is view, copy.deepcopy([view])[0] is view
    (True, True, True)
    """

    __slots__ = ()

    def _set(self, **values: Any) -> None:
        """Set attributes once, from ``__init__`` (or a private constructor that skips its checks)."""
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; cannot delete {name!r}")

    def __copy__(self: _R) -> _R:
        return self

    def __deepcopy__(self: _R, memo: dict[int, Any]) -> _R:
        return self


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: type[_T]) -> type[_T]:
    """Declare a value class: ``@dataclass(frozen=True, slots=True, repr=False)`` with FrozenValue's messages.

    Fields are annotations (``dataclasses.KW_ONLY`` or ``field(kw_only=True)`` for keyword-only
    ones); ``__post_init__`` checks and normalises the arguments (``self._set(name=normalised)``).
    The dataclass gives ``__init__``, ``__eq__`` (same class only) and ``__hash__``; the class
    should derive from :class:`FrozenValue` for the repr, pickling and copying.

    >>> @frozen
    ... class Pair(FrozenValue):
    ...     left: int
    ...     right: int | None = dataclasses.field(default=None, kw_only=True)
    ...     def __post_init__(self):
    ...         if not isinstance(self.left, int):
    ...             raise TypeError(f"Pair: left must be an int, got {type(self.left).__name__}")
    >>> Pair(1, right=2), Pair(1)
    (Pair(1, right=2), Pair(1))
    >>> Pair(1) == Pair(1), hash(Pair(1)) == hash(Pair(1)), Pair(1) == (1, None)
    (True, True, False)
    >>> Pair(1).left = 3
    Traceback (most recent call last):
    ...
    AttributeError: Pair is immutable; cannot set 'left'
    """
    own = {name for name in ("__setattr__", "__delattr__") if name in vars(cls)}
    made = dataclasses.dataclass(frozen=True, slots=True, repr=False)(cls)
    # The dataclass's own guard says "cannot assign to field"; FrozenValue's says which class refused.
    for name in {"__setattr__", "__delattr__"} - own:
        delattr(made, name)
    return made


class FrozenValue(ReadOnly):
    """An immutable value: a :func:`frozen` dataclass whose repr is the call that builds it.

    Positional fields show positionally, keyword-only fields as ``key=value`` (left out
    when None). A field declared ``field(repr=False)`` (a secret, a function, a handle) is left
    out of the repr, and the positional fields after it show as ``key=value``; the pickle still
    carries it. A copy is the value itself; a pickle rebuilds it through the constructor.
    Equality holds only between values of the same class. A user-written check may be a plain
    ``@dataclass(frozen=True)`` subclass: it gets the same pickling and copying.

    >>> @frozen
    ... class Span(FrozenValue):
    ...     start: int
    ...     _: dataclasses.KW_ONLY
    ...     end: int | None = None
    >>> import copy
    >>> Span(1, end=2), Span(3).__reduce__()[1][1:], copy.deepcopy(Span(1)) is not None
    (Span(1, end=2), ((3,), {'end': None}), True)
    >>> @frozen
    ... class Login(FrozenValue):
    ...     user: str
    ...     password: str = dataclasses.field(repr=False)
    ...     port: int = 22
    >>> Login("ann", "hunter2"), Login("ann", "hunter2", 2222).__reduce__()[1][1:]
    (Login('ann', port=22), (('ann', 'hunter2', 2222), {}))
    """

    __slots__ = ()
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def _args(self, *, shown: bool = False) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The constructor's arguments: positional fields, then keyword-only ones.

        ``shown``: only the fields a repr may show (``field(repr=False)`` ones left out); after
        a hidden positional field the rest go by keyword, so the call still reads right.
        """
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        if not dataclasses.is_dataclass(self):
            return (), kwargs
        by_keyword = False
        for spec in dataclasses.fields(self):
            if not spec.init:
                continue
            if shown and not spec.repr:
                by_keyword = by_keyword or not spec.kw_only
                continue
            if spec.kw_only or by_keyword:
                kwargs[spec.name] = getattr(self, spec.name)
            else:
                args.append(getattr(self, spec.name))
        return tuple(args), kwargs

    def __repr__(self) -> str:
        args, kwargs = self._args(shown=True)
        return constructor_repr(type(self).__name__, *args, **kwargs)

    def __reduce__(self) -> tuple[Any, ...]:
        args, kwargs = self._args()
        return (_rebuild, (type(self), args, kwargs))


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


def renamed_keywords(**renames: str) -> Callable[[type[_V]], type[_V]]:
    """Keep a value's old keyword arguments working for one release: ``old="New"`` warns, naming the new one.

    For a value whose fields took Go's names (#34: Go's name is the one name); the old attribute names
    are the class's own deprecated properties, so type checkers see them too.

    >>> @renamed_keywords(size="Size")
    ... @frozen
    ... class Box(FrozenValue):
    ...     Size: int
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     box = Box(size=2)
    >>> box, [str(w.message) for w in caught]
    (Box(2), ['plancheck._frozen.Box(size=...) is deprecated; use Box(Size=...)'])
    >>> Box(size=2, Size=2)
    Traceback (most recent call last):
    ...
    TypeError: Box() got both size= and Size=; use Size= only

    ``dataclasses.replace`` passes every field by its name, so an old keyword given to it arrives beside
    the new one, exactly as a caller's second spelling would: it is refused the same way, naming the
    keyword to use (taking it would silently prefer one of two spellings a caller wrote).

    >>> dataclasses.replace(Box(Size=2), Size=3)
    Box(3)
    >>> dataclasses.replace(Box(Size=2), size=3)
    Traceback (most recent call last):
    ...
    TypeError: Box() got both size= and Size=; use Size= only
    """

    def wrap(cls: type[_V]) -> type[_V]:
        made = cls.__init__

        @functools.wraps(made)
        def __init__(self: _V, *args: Any, **kwargs: Any) -> None:
            for old in [old for old in renames if old in kwargs]:
                new, name = renames[old], type(self).__qualname__
                if new in kwargs:
                    raise TypeError(f"{name}() got both {old}= and {new}=; use {new}= only")
                warnings.warn(f"{type(self).__module__}.{name}({old}=...) is deprecated; use {name}({new}=...)", DeprecationWarning, stacklevel=2)
                kwargs[new] = kwargs.pop(old)
            made(self, *args, **kwargs)

        cls.__init__ = __init__  # type: ignore[method-assign,assignment]
        return cls

    return wrap


def keyword_hints(**go_names: str) -> Callable[[type[_T]], type[_T]]:
    """Name the keyword a caller meant when a constructor is given one it does not take.

    Code ported line by line from Go writes Go's field names: ``Config`` is ``config`` here, and
    ``go_names`` lists the fields whose Python name is not their snake_case (``ConfigVariables="variables"``),
    and with ``""`` those that have no keyword here (``GenerateConfig``), which are not matched to a look-alike.
    Any other unknown keyword is matched to the closest one the constructor takes. A call whose
    keywords are all known runs as it is: the hint is made only when Python's own TypeError is raised.

    >>> @keyword_hints(Sum="total", Tip="")
    ... @frozen
    ... class Bill(FrozenValue):
    ...     unit_price: int = 0
    ...     total: int = 0
    >>> Bill(UnitPrice=2)
    Traceback (most recent call last):
    ...
    TypeError: Bill() got an unexpected keyword argument 'UnitPrice'; did you mean unit_price=?
    >>> Bill(Sum=2)
    Traceback (most recent call last):
    ...
    TypeError: Bill() got an unexpected keyword argument 'Sum'; did you mean total=?
    >>> Bill(totl=2)
    Traceback (most recent call last):
    ...
    TypeError: Bill() got an unexpected keyword argument 'totl'; did you mean total=?
    >>> Bill(Tip=1)
    Traceback (most recent call last):
    ...
    TypeError: Bill() got an unexpected keyword argument 'Tip'; Go's Tip is not a Bill keyword here (see the porting guide)

    A keyword given beside the one it stands for is one keyword given twice, and said so:

    >>> Bill(total=2, Sum=2)
    Traceback (most recent call last):
    ...
    TypeError: Bill() got an unexpected keyword argument 'Sum'; Go's Sum is total=, given already
    >>> Bill(total=2, totl=2)
    Traceback (most recent call last):
    ...
    TypeError: Bill() got an unexpected keyword argument 'totl'; did you mean total=? total= is given already
    """

    def wrap(cls: type[_T]) -> type[_T]:
        made = cls.__init__

        @functools.wraps(made)
        def __init__(self: _T, *args: Any, **kwargs: Any) -> None:
            try:
                made(self, *args, **kwargs)
            except TypeError:
                taken = _keywords(made)
                unknown = next((name for name in kwargs if name not in taken), None)
                meant = None if unknown is None else _meant_keyword(unknown, taken, go_names)
                if meant is None:
                    raise
                name = type(self).__qualname__
                hint = f"did you mean {meant}=?" if meant else f"Go's {unknown} is not a {name} keyword here (see the porting guide)"
                if unknown is not None and meant in kwargs:  # given both ways: only that the two are one keyword is news
                    go = unknown in go_names or _CAMEL_BOUNDARY.sub("_", unknown).lower() == meant
                    hint = f"Go's {unknown} is {meant}=, given already" if go else f"{hint} {meant}= is given already"
                raise TypeError(f"{name}() got an unexpected keyword argument {unknown!r}; {hint}") from None

        cls.__init__ = __init__  # type: ignore[method-assign,assignment]
        return cls

    return wrap


def _keywords(init: Callable[..., None]) -> list[str]:
    """The keywords ``init`` takes: asked only when a call failed, so defining a class reads no signature."""
    import inspect

    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in list(inspect.signature(init).parameters.values())[1:] if p.kind in kinds]  # past self


def _meant_keyword(unknown: str, taken: list[str], go_names: dict[str, str]) -> str | None:
    """The keyword of ``taken`` that ``unknown`` stands for: a Go field's Python name ("" for none), or the closest."""
    if unknown in go_names:
        return go_names[unknown]
    snake = _CAMEL_BOUNDARY.sub("_", unknown).lower()
    if snake in taken:
        return snake
    near = closest(snake, taken, n=1)
    return near[0] if near else None
