"""Checks for numbers: Int64Exact, Int32Exact, Float64Exact, Float32Exact, NumberExact.

Int checks accept an integral number in range (``3`` and ``3.0`` alike; ``3.5``
fails). Float checks compare as Go does, after rounding the document's number to
the nearest float64 (float32). NumberExact compares exactly, at any precision.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from decimal import Decimal
from typing import Any, ClassVar, final

from .._frozen import public
from .._redact import Marks
from ._base import Check, Ctx, ValueCheck, Visit
from ._jsonmodel import is_number, json_type, numbers_equal, to_decimal
from ._numeric import (
    INT32_RANGE,
    INT64_RANGE,
    as_float32,
    as_float64,
    as_int,
    float32_repr,
    format_decimal,
    format_float32,
    format_float64,
)

__all__ = ["Float32Exact", "Float64Exact", "Int32Exact", "Int64Exact", "NumberExact", "NumberReader"]


class NumberReader(Check):
    """Base of the checks that read a JSON number as a Go type does (int64, int32, float64, float32).

    Subclasses name the type in ``_bits`` and convert in :meth:`_read`; :meth:`_read_number`
    turns a value that is no number, or one out of the type's range, into the failure reason
    Go gives.
    """

    __slots__ = ()
    _bits: ClassVar[str]

    def _read(self, value: Any) -> Any:
        """``value`` (a JSON number) as the Go type reads it, or None if it does not fit."""
        raise NotImplementedError

    def _read_number(self, value: Any, marks: Marks, ctx: Ctx) -> tuple[bool, Any]:
        """(True, the number as read) or (False, why ``value`` cannot be read)."""
        if not is_number(value):
            return False, f"expected number value for {self.name} check, got: {json_type(value)}"
        number = self._read(value)
        if number is None:
            return (
                False,
                f"expected number parseable as {self._bits} for {self.name} check, got: {ctx.got(value, marks)}",
            )
        return True, number


class _ReadExact(NumberReader, ValueCheck):
    __slots__ = ()

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        ok, number = self._read_number(value, marks, ctx)
        if not ok:
            reason: str = number
            return reason
        if number != self._value:
            expected = ctx.lit(str(self), marks)
            return f"expected value {expected} for {self.name} check, got: {ctx.got(value, marks)}"
        return None


class _IntExact(_ReadExact):
    __slots__ = ()
    _value: int
    _bounds: ClassVar[tuple[int, int]]

    def __init__(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{self.name} expects an int, got {type(value).__name__}")
        low, high = self._bounds
        if not low <= value <= high:
            raise ValueError(f"{self.name} value must be an {self._bits} (from {low} to {high}), got {value}")
        self._init_value(value)

    @property
    def value(self) -> int:
        """The expected integer."""
        return self._value

    def _read(self, value: Any) -> int | None:
        return as_int(value, self._bounds)

    def _text_parts(self) -> Sequence[str | Check]:
        return (str(self._value),)


@public("plancheck.knownvalue")
@final
class Int64Exact(_IntExact):
    """The value is this integer, which fits an int64.

    >>> Int64Exact(3) == 3, Int64Exact(3) == Decimal("3.0"), Int64Exact(3) == 3.5, Int64Exact(1) == True
    (True, True, False, False)
    >>> Int64Exact(1234).check_value(4321)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected value 1234 for Int64Exact check, got: 4321
    """

    __slots__ = ()
    name = "Int64Exact"
    _bits = "int64"
    _bounds = INT64_RANGE


@public("plancheck.knownvalue")
@final
class Int32Exact(_IntExact):
    """The value is this integer, which fits an int32.

    >>> Int32Exact(7) == 7, Int32Exact(7) == 2**31
    (True, False)
    >>> Int32Exact(1).check_value(2**31)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected number parseable as int32 for Int32Exact check, got: 2147483648
    """

    __slots__ = ()
    name = "Int32Exact"
    _bits = "int32"
    _bounds = INT32_RANGE


def _float_arg(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} expects a float or an int, got {type(value).__name__}")
    try:
        result = float(value)
    except OverflowError:
        raise ValueError(f"{name} value is too large for a float: {value}") from None
    if not math.isfinite(result):
        raise ValueError(f"{name} value must be finite, got {value!r}")
    return result


@public("plancheck.knownvalue")
@final
class Float64Exact(_ReadExact):
    """The value, rounded to the nearest float64 (as Go parses it), is this float.

    Use :class:`NumberExact` to compare decimals exactly.

    >>> Float64Exact(1.234) == Decimal("1.234"), Float64Exact(1.5) == "1.5"
    (True, False)
    >>> Float64Exact(1.234).check_value(Decimal("4.321"))
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected value 1.234 for Float64Exact check, got: 4.321
    """

    __slots__ = ()
    _value: float
    name = "Float64Exact"
    _bits = "float64"

    def __init__(self, value: float) -> None:
        self._init_value(_float_arg("Float64Exact", value))

    @property
    def value(self) -> float:
        """The expected float64."""
        return self._value

    def _read(self, value: Any) -> float | None:
        return as_float64(value)

    def _text_parts(self) -> Sequence[str | Check]:
        return (format_float64(self._value),)


@public("plancheck.knownvalue")
@final
class Float32Exact(_ReadExact):
    """The value, rounded to the nearest float32 (as Go parses it), is this float rounded to float32.

    >>> Float32Exact(1.1) == Decimal("1.1"), Float32Exact(1.1) == Decimal("1.10000001")
    (True, True)
    >>> Float32Exact(1.234567890123e03)
    Float32Exact(1234.5679)
    """

    __slots__ = ()
    _value: float
    name = "Float32Exact"
    _bits = "float32"

    def __init__(self, value: float) -> None:
        number = as_float32(_float_arg("Float32Exact", value))
        if number is None:
            raise ValueError(f"Float32Exact value is out of the float32 range: {value!r}")
        self._init_value(number)

    @property
    def value(self) -> float:
        """The expected float32, as a Python float."""
        return self._value

    def _read(self, value: Any) -> float | None:
        return as_float32(value)

    def _repr_parts(self) -> Sequence[str | Check]:
        return (f"Float32Exact({float32_repr(self._value)})",)

    def _text_parts(self) -> Sequence[str | Check]:
        return (format_float32(self._value),)


@public("plancheck.knownvalue")
@final
class NumberExact(Check):
    """The value is exactly this number, at any precision (``1``, ``1.0`` and ``Decimal("1.00")`` are equal).

    Give an ``int`` or a ``Decimal``. A ``float`` stands for its shortest decimal
    (``1.23`` means ``Decimal("1.23")``, not the binary fraction nearest to it).

    >>> NumberExact(Decimal("1.23")) == Decimal("1.23"), NumberExact(1.23) == Decimal("1.23")
    (True, True)
    >>> NumberExact(Decimal("0.1")) == Decimal("0.1000000000000000000001")
    False
    """

    __slots__ = ("_arg", "_value")
    _arg: int | Decimal
    _value: Decimal
    name = "NumberExact"

    def __init__(self, value: int | Decimal | float) -> None:
        if not is_number(value):
            raise TypeError(f"NumberExact expects an int, Decimal or float, got {type(value).__name__}")
        arg: int | Decimal = value if isinstance(value, (int, Decimal)) else to_decimal(value)
        dec = to_decimal(arg)
        if not dec.is_finite():
            raise ValueError(f"NumberExact value must be finite, got {value!r}")
        object.__setattr__(self, "_arg", arg)
        object.__setattr__(self, "_value", dec)
        self._seal()

    @property
    def value(self) -> Decimal:
        """The expected number, as a Decimal."""
        return self._value

    def _ident(self) -> tuple[Hashable, ...]:
        # Decimal equality and hashing are numeric: Decimal("1.0") and 1 identify the same check.
        return (self._value,)

    def _args(self) -> tuple[Any, ...]:
        return (self._arg,)

    def _repr_parts(self) -> Sequence[str | Check]:
        return (f"NumberExact({self._arg!r})",)

    def _text_parts(self) -> Sequence[str | Check]:
        return (format_decimal(self._value),)

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not is_number(value):
            return f"expected number value for NumberExact check, got: {json_type(value)}"
        if not numbers_equal(to_decimal(value), self._value):
            expected = ctx.lit(str(self), marks)
            return f"expected value {expected} for NumberExact check, got: {ctx.got(value, marks)}"
        return None
