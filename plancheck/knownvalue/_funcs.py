"""Checks that hand the value to your function: StringFunc, BoolFunc, Int64Func, Int32Func,
Float64Func, Float32Func, NumberFunc.

The function gets the value converted to a Python type (``str``, ``bool``,
``int``, ``float``, ``Decimal``). It accepts the value by returning ``None`` or
``True``; it rejects it by returning ``False``, or by returning or raising an
exception, whose message becomes the failure reason (as a Go check function's
returned error does). The reason is withheld when the value is sensitive, as the
message may quote it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from decimal import Decimal
from typing import Any, ClassVar, Generic, TypeVar, final

from tfjsonpath._jsontypes import is_number, json_type

from .._checking.matcher import Check, Ctx, Visit, to_decimal
from .._errors import ArgumentError
from .._frozen import public
from .._redact import Marks
from .._text import exception_message
from ._scalars import INT32_RANGE, INT64_RANGE, NumberReader, as_float32, as_float64, as_int

__all__ = ["BoolFunc", "Float32Func", "Float64Func", "Int32Func", "Int64Func", "NumberFunc", "StringFunc"]

T = TypeVar("T")
#: What a check function returns: None or True to accept, False or an exception to reject (or it raises).
CheckResult = bool | None | Exception


def _function_name(fn: Callable[..., Any]) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None)
    if not isinstance(name, str):
        return type(fn).__name__
    # "test_x.<locals>.is_valid" reads better as "is_valid"; "str.isdigit" stays whole.
    return name.rpartition("<locals>.")[2]


class _FuncCheck(Check, Generic[T]):
    __slots__ = ("_fn",)
    _fn: Callable[[T], CheckResult]
    _wanted: ClassVar[str]

    def __init__(self, fn: Callable[[T], CheckResult]) -> None:
        if not callable(fn):
            raise ArgumentError(f"{self.name} expects a function, got {type(fn).__name__}")
        object.__setattr__(self, "_fn", fn)
        self._seal()

    @property
    def function(self) -> Callable[[T], CheckResult]:
        """The check function."""
        return self._fn

    def _convert(self, value: Any, marks: Marks, ctx: Ctx) -> tuple[bool, Any]:
        """(True, converted value) or (False, reason) for a value of the wrong type or range."""
        raise NotImplementedError

    def _ident(self) -> tuple[Hashable, ...]:
        # By identity: two different functions are two different checks, whatever they do.
        return (id(self._fn),)

    def _args(self) -> tuple[Any, ...]:
        return (self._fn,)

    def _repr_parts(self) -> Sequence[str | Check]:
        return (f"{self.name}({_function_name(self._fn)})",)

    def _text_parts(self) -> Sequence[str | Check]:
        return (f"<{self.name} {_function_name(self._fn)}>",)

    def _wrong_type(self, value: Any) -> tuple[bool, Any]:
        return False, f"expected {self._wanted} value for {self.name} check, got: {json_type(value)}"

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        ok, converted = self._convert(value, marks, ctx)
        if not ok:
            reason: str = converted
            return reason
        rejected = f"value {ctx.got(value, marks)} rejected by {self.name} check {_function_name(self._fn)}"
        try:
            result = self._fn(converted)
        except Exception as exc:
            result = exc
        if result is None or result is True:
            return None
        if result is False:
            return rejected
        # A returned exception is Go's `return fmt.Errorf(...)`, so a line-by-line port rejects as Go does.
        if isinstance(result, Exception):
            if ctx.hidden(marks):
                return rejected
            return ctx.secrets.scrub(exception_message(result) or type(result).__name__)
        raise ArgumentError(
            f"{self.name} function {_function_name(self._fn)} must return None, True, False or an exception "
            f"(or raise), got {type(result).__name__}"
        )


class _TypedFunc(_FuncCheck[T]):
    __slots__ = ()
    #: The Python type a value must have (``isinstance``: JSON's bool is no str, its str no bool).
    _type: ClassVar[type]

    def _convert(self, value: Any, marks: Marks, ctx: Ctx) -> tuple[bool, Any]:
        return (True, value) if isinstance(value, self._type) else self._wrong_type(value)


@public("plancheck.knownvalue")
@final
class StringFunc(_TypedFunc[str]):
    """The value is a string your function accepts.

    >>> StringFunc(str.isupper) == "ABC", StringFunc(str.isupper) == "abc"
    (True, False)
    >>> def is_foo(s):   # Go's func(v string) error: return the error (or raise it)
    ...     if s != "foo":
    ...         return ValueError(f"{s} was not foo")
    >>> StringFunc(is_foo).CheckValue("bar")
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: bar was not foo
    """

    __slots__ = ()
    name = "StringFunc"
    _wanted = "string"
    _type = str


@public("plancheck.knownvalue")
@final
class BoolFunc(_TypedFunc[bool]):
    """The value is a bool your function accepts.

    >>> BoolFunc(lambda b: b) == True, BoolFunc(lambda b: b) == 1
    (True, False)
    """

    __slots__ = ()
    name = "BoolFunc"
    _wanted = "bool"
    _type = bool


class _ReadFunc(NumberReader, _FuncCheck[T]):
    __slots__ = ()

    def _convert(self, value: Any, marks: Marks, ctx: Ctx) -> tuple[bool, Any]:
        return self._read_number(value, marks, ctx)


class _IntFunc(_ReadFunc[int]):
    __slots__ = ()
    _bounds: ClassVar[tuple[int, int]]

    def _read(self, value: Any) -> int | None:
        return as_int(value, self._bounds)


@public("plancheck.knownvalue")
@final
class Int64Func(_IntFunc):
    """The value is an int64 your function accepts (it gets an ``int``).

    >>> Int64Func(lambda i: i > 0) == 5, Int64Func(lambda i: i > 0) == 2**63
    (True, False)
    """

    __slots__ = ()
    name = "Int64Func"
    _bits = "int64"
    _bounds = INT64_RANGE


@public("plancheck.knownvalue")
@final
class Int32Func(_IntFunc):
    """The value is an int32 your function accepts (it gets an ``int``).

    >>> Int32Func(lambda i: i % 2 == 0) == 4
    True
    """

    __slots__ = ()
    name = "Int32Func"
    _bits = "int32"
    _bounds = INT32_RANGE


class _FloatFunc(_ReadFunc[float]):
    __slots__ = ()
    #: The rounding to the float's width (None: a number out of its range).
    _rounded: ClassVar[staticmethod[[int | float | Decimal], float | None]]

    def _read(self, value: Any) -> float | None:
        return self._rounded(value)


@public("plancheck.knownvalue")
@final
class Float64Func(_FloatFunc):
    """The value is a number your function accepts, rounded to a float64 (it gets a ``float``).

    >>> Float64Func(lambda f: f == 1.1) == Decimal("1.1")
    True
    """

    __slots__ = ()
    name = "Float64Func"
    _bits = "float64"
    _rounded = staticmethod(as_float64)


@public("plancheck.knownvalue")
@final
class Float32Func(_FloatFunc):
    """The value is a number your function accepts, rounded to a float32 (it gets a ``float``).

    >>> Float32Func(lambda f: abs(f - 1.1) < 1e-6) == Decimal("1.1")
    True
    """

    __slots__ = ()
    name = "Float32Func"
    _bits = "float32"
    _rounded = staticmethod(as_float32)


@public("plancheck.knownvalue")
@final
class NumberFunc(_FuncCheck[Decimal]):
    """The value is a number your function accepts, exactly (it gets a ``Decimal``).

    >>> NumberFunc(lambda d: d == Decimal("1.797693134862315797693134862315797693134862315")) == Decimal(
    ...     "1.797693134862315797693134862315797693134862315")
    True
    """

    __slots__ = ()
    name = "NumberFunc"
    _wanted = "number"

    def _convert(self, value: Any, marks: Marks, ctx: Ctx) -> tuple[bool, Any]:
        return (True, to_decimal(value)) if is_number(value) else self._wrong_type(value)
