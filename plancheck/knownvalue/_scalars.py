"""The scalar checks: strings, bools, null and numbers.

Checks for strings, bools and null: StringExact, StringRegexp, Bool, Null, NotNull.

Checks for numbers: Int64Exact, Int32Exact, Float64Exact, Float32Exact, NumberExact.

Int checks accept an integral number in range (``3`` and ``3.0`` alike; ``3.5``
fails). Float checks compare as Go does, after rounding the document's number to
the nearest float64 (float32). NumberExact compares exactly, at any precision.

Converting JSON numbers to Go's int32/int64/float32/float64, and printing them as Go does.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Hashable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Final, final

from tfjsonpath._jsontypes import is_number, json_type, number_text

from .._checking.matcher import (
    Check,
    Ctx,
    ValueCheck,
    Visit,
    numbers_equal,
    quote,
    search_pattern,
    to_decimal,
)
from .._errors import ArgumentError
from .._frozen import public
from .._redact import Marks

__all__ = [
    "Bool",
    "Float32Exact",
    "Float64Exact",
    "INT32_RANGE",
    "INT64_RANGE",
    "Int32Exact",
    "Int64Exact",
    "NotNull",
    "Null",
    "NumberExact",
    "NumberReader",
    "StringExact",
    "StringRegexp",
    "as_float32",
    "as_float64",
    "as_int",
    "expect_arg",
]


INT32_RANGE: Final = (-(2**31), 2**31 - 1)
INT64_RANGE: Final = (-(2**63), 2**63 - 1)


def expect_arg(check: str, value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    """``value`` if it is a ``kind``, else the TypeError naming ``check`` and ``what`` it expects. A bool is a
    ``kind`` only where ``kind`` is bool: JSON's ``true`` is no number.

    >>> expect_arg("Int64Exact", True, int, "an int")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: Int64Exact expects an int, got bool
    """
    if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
        return value
    raise ArgumentError(f"{check} expects {what}, got {type(value).__name__}")

_F32_MAX: Final = float.fromhex("0x1.fffffep+127")
# Numbers at or beyond max + half an ulp round to infinity: Go's ParseFloat calls that out of range.
_F32_OVERFLOW: Final = Fraction(_F32_MAX) + Fraction(2) ** 103


def as_int(value: int | float | Decimal, bounds: tuple[int, int]) -> int | None:
    """The integer a JSON number stands for, or None if it is not integral or out of ``bounds``.

    Integral decimals such as ``3.0`` count: JSON and Terraform do not tell 3 and 3.0 apart.

    >>> as_int(Decimal("3.0"), INT32_RANGE), as_int(2**31, INT32_RANGE), as_int(1.5, INT64_RANGE)
    (3, None, None)
    >>> as_int(Decimal("1E+999999"), INT64_RANGE) is None
    True
    """
    if isinstance(value, int):
        number = value
    else:
        dec = to_decimal(value)
        # adjusted() is the decimal exponent: anything from 10**19 up is beyond int64, and
        # converting a number like 1E+1000000 to int would take long for nothing.
        if not dec.is_finite() or dec.adjusted() > 19 or dec != dec.to_integral_value():
            return None
        number = int(dec)
    low, high = bounds
    return number if low <= number <= high else None


def as_float64(value: int | float | Decimal) -> float | None:
    """The nearest float64 to a JSON number, or None when it overflows (Go's ParseFloat range error).

    >>> as_float64(Decimal("1.234")), as_float64(Decimal("1e400"))
    (1.234, None)
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    try:
        # Both conversions round correctly (half to even), as Go's ParseFloat does.
        result = float(value)
    except OverflowError:
        return None
    return result if math.isfinite(result) else None


def _f32(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


def _f32_bits(x: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", x))[0])


def as_float32(value: int | float | Decimal) -> float | None:
    """The nearest float32 to a JSON number (as a Python float), or None when it overflows.

    Rounds once, from the exact decimal, so no double rounding through float64.

    >>> as_float32(Decimal("1.1")), as_float32(Decimal("1e39")), as_float32(Decimal("-1e-999999"))
    (1.100000023841858, None, -0.0)
    """
    dec = to_decimal(value)
    if dec.is_nan():
        return None
    if dec.is_infinite() or (not dec.is_zero() and dec.adjusted() > 39):
        return None
    if dec.is_zero() or dec.adjusted() < -60:
        # Far below the smallest float32 (about 1.4e-45): rounds to a zero of the same sign.
        return -0.0 if dec.is_signed() else 0.0
    exact = Fraction(dec)
    if abs(exact) >= _F32_OVERFLOW:
        return None
    if abs(exact) > Fraction(_F32_MAX):
        return math.copysign(_F32_MAX, exact)
    guess = float(struct.unpack("<f", struct.pack("<f", float(exact)))[0])
    # The float64 detour may have rounded twice; pick the truly nearest float32 among the neighbours.
    bits = _f32_bits(guess)
    candidates = [guess]
    if guess != 0.0:
        for nb in (bits - 1, bits + 1):
            if 0 <= nb < 2**32:
                cand = _f32(nb)
                if math.isfinite(cand) and (cand == 0.0 or (cand > 0) == (guess > 0)):
                    candidates.append(cand)
    else:
        candidates.extend([_f32(1), -_f32(1)])
    best = min(candidates, key=lambda c: (abs(Fraction(c) - exact), _f32_bits(c) & 1))
    return best


def float32_repr(value: float) -> str:
    """The shortest decimal text that reads back as the float32 ``value``.

    >>> float32_repr(as_float32(1.234) or 0.0), float32_repr(as_float32(1234.567890123) or 0.0)
    ('1.234', '1234.5679')
    """
    if value == 0.0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        if as_float32(Decimal(text)) == value:
            return text
    return repr(value)  # pragma: no cover - 9 significant digits always round-trip a float32


def format_decimal(value: Decimal) -> str:
    """Fixed-point text of a decimal, as Go's ``Text('f', -1)`` prints it (no exponent), unless it
    would be over a thousand digits long: then with an exponent, as :func:`tfjsonpath._jsontypes.number_text`.

    >>> format_decimal(Decimal("1E+3")), format_decimal(Decimal("1.230")), format_decimal(Decimal("1E+999999999"))
    ('1000', '1.230', '1E+999999999')
    """
    return number_text(value)


def format_float64(value: float) -> str:
    """Go's ``FormatFloat(v, 'f', -1, 64)``: the shortest round-tripping digits, fixed-point.

    >>> format_float64(1.234567890123e09), format_float64(0.0), format_float64(1e22)
    ('1234567890.123', '0', '10000000000000000000000')
    """
    return format(Decimal(repr(value)).normalize(), "f")


def format_float32(value: float) -> str:
    """Go's ``FormatFloat(v, 'f', -1, 32)`` for a float32 value.

    >>> format_float32(as_float32(1.234567890123e03) or 0.0)
    '1234.5679'
    """
    return format(Decimal(float32_repr(value)).normalize(), "f")


_FLAG_LETTERS: Final = (
    (re.ASCII, "a"),
    (re.IGNORECASE, "i"),
    (re.MULTILINE, "m"),
    (re.DOTALL, "s"),
    (re.VERBOSE, "x"),
)
#: The ``re`` flags StringRegexp takes, alone or together: those its text shows as letters, and re.UNICODE, which
#: a str pattern implies. A checks file is offered these only (its annotation says so to ``tfplancheck
#: --list-checks``); the others are refused: re.DEBUG prints, re.LOCALE fits no str pattern, re.TEMPLATE is
#: deprecated (Python 3.13 has none), and a bit that is no flag at all means nothing.
_TAKEN_FLAGS: Final = (re.ASCII, re.IGNORECASE, re.UNICODE, re.MULTILINE, re.DOTALL, re.VERBOSE)
_TAKEN_BITS: Final = sum(_TAKEN_FLAGS)


@public("plancheck.knownvalue")
@final
class StringExact(ValueCheck):
    """The value is exactly this string.

    >>> StringExact("ami-123") == "ami-123", StringExact("1") == 1
    (True, False)
    >>> StringExact("str").CheckValue("rts")
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected value "str" for StringExact check, got: "rts"
    """

    __slots__ = ()
    _value: str
    name = "StringExact"

    def __init__(self, value: str) -> None:
        self._init_value(expect_arg("StringExact", value, str, "a str"))

    @property
    def value(self) -> str:
        """The expected string."""
        return self._value

    def _text_parts(self) -> Sequence[str | Check]:
        return (quote(self._value),)

    def _passes(self, value: Any) -> bool:
        return isinstance(value, str) and value == self._value

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not isinstance(value, str):
            return f"expected string value for StringExact check, got: {json_type(value)}"
        if value != self._value:
            expected = ctx.lit(quote(self._value), marks, value)
            return f"expected value {expected} for StringExact check, got: {ctx.got(value, marks)}"
        return None


def _flags_not_taken(other: int) -> ArgumentError:
    taken = ", ".join(repr(flag) for flag in _TAKEN_FLAGS)
    return ArgumentError(f"StringRegexp: flags {re.RegexFlag(other)!r} are not taken; it takes {taken}")


@public("plancheck.knownvalue")
@final
class StringRegexp(Check):
    """The value is a string in which the regular expression finds a match (``re.search``, like Go's MatchString).

    The pattern is compiled at once; a bad one raises ValueError naming it. Go's RE2 runs in linear time,
    Python's ``re`` backtracks: with the ``regex`` extra installed a search is bounded and raises
    :class:`~plancheck.RegexTimeoutError` past :data:`~plancheck._checking.matcher.REGEX_SECONDS`
    (:func:`~plancheck._checking.matcher.search_pattern`).

    >>> StringRegexp(r"^ami-[0-9a-f]+$") == "ami-0abc", StringRegexp("^ami-") == "i-1"
    (True, False)
    >>> StringRegexp("(")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: StringRegexp: invalid regular expression '(': missing ), unterminated subpattern at position 0
    >>> StringRegexp("str").CheckValue("rts")
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected regex match /str/ for StringRegexp check, got: "rts"
    """

    __slots__ = ("_flags", "_regex")
    _flags: int
    _regex: re.Pattern[str]
    name = "StringRegexp"

    def __init__(self, pattern: str | re.Pattern[str], flags: int | Annotated[re.RegexFlag, _TAKEN_FLAGS] = 0) -> None:
        if isinstance(flags, bool) or not isinstance(flags, int):
            raise ArgumentError(f"StringRegexp flags must be re flags (an int), got {type(flags).__name__}")
        if isinstance(pattern, re.Pattern):
            if not isinstance(pattern.pattern, str):
                raise ArgumentError("StringRegexp needs a str pattern, got a bytes pattern")
            if flags:
                raise ArgumentError("StringRegexp: cannot add flags to an already compiled pattern")
            other = pattern.flags & ~_TAKEN_BITS  # compiled with a flag refused below (re.TEMPLATE): refused alike
            if other:
                raise _flags_not_taken(other)
            # str patterns always carry re.UNICODE; it is implied, so leave it out of repr and equality.
            flags = pattern.flags & ~re.UNICODE
            regex = pattern
        elif isinstance(pattern, str):
            if flags & re.DEBUG:  # re.compile would print its dump into what the command line writes (its JSON, say)
                raise ArgumentError("StringRegexp: re.DEBUG prints the compiled pattern on standard output: leave it out")
            other = int(flags) & ~(_TAKEN_BITS | int(re.LOCALE))  # re.LOCALE: re.compile's own refusal below says why
            if other:
                raise _flags_not_taken(other)
            try:
                regex = re.compile(pattern, flags)
            except re.error as exc:
                raise ArgumentError(f"StringRegexp: invalid regular expression {pattern!r}: {exc}") from None
            except ValueError as exc:  # flags no str pattern takes (re.LOCALE, re.ASCII | re.UNICODE)
                raise ArgumentError(f"StringRegexp: flags {flags!r} do not fit a str pattern: {exc}") from None
            flags = int(flags) & ~re.UNICODE
        else:
            raise ArgumentError(
                f"StringRegexp expects a str pattern or a compiled re.Pattern, got {type(pattern).__name__}"
            )
        object.__setattr__(self, "_flags", int(flags))
        object.__setattr__(self, "_regex", regex)
        self._seal()

    @property
    def pattern(self) -> str:
        """The regular expression's source text."""
        return self._regex.pattern

    @property
    def flags(self) -> int:
        """The ``re`` flags the pattern was compiled with (``re.UNICODE`` left out)."""
        return self._flags

    def _ident(self) -> tuple[Hashable, ...]:
        return (self.pattern, self._flags)

    def _args(self) -> tuple[Any, ...]:
        return (self.pattern, self._flags)

    def _repr_parts(self) -> Sequence[str | Check]:
        if self._flags:
            return (f"StringRegexp({self.pattern!r}, flags={re.RegexFlag(self._flags)!r})",)
        return (f"StringRegexp({self.pattern!r})",)

    def _text_parts(self) -> Sequence[str | Check]:
        letters = "".join(letter for flag, letter in _FLAG_LETTERS if self._flags & flag)
        return (f"/{self.pattern}/{letters}",)

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not isinstance(value, str):
            return f"expected string value for StringRegexp check, got: {json_type(value)}"
        if not search_pattern(self._regex, value, self.name, ctx.hidden(marks)):
            expected = ctx.lit(str(self), marks, value)
            return f"expected regex match {expected} for StringRegexp check, got: {ctx.got(value, marks)}"
        return None


@public("plancheck.knownvalue")
@final
class Bool(ValueCheck):
    """The value is this bool (``1`` is not ``true``).

    >>> Bool(True) == True, Bool(True) == 1
    (True, False)
    >>> Bool(True).CheckValue(False)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected value true for Bool check, got: false
    """

    __slots__ = ()
    _value: bool
    name = "Bool"

    def __init__(self, value: bool) -> None:
        self._init_value(expect_arg("Bool", value, bool, "a bool"))

    @property
    def value(self) -> bool:
        """The expected bool."""
        return self._value

    def _text_parts(self) -> Sequence[str | Check]:
        return ("true" if self._value else "false",)

    def _passes(self, value: Any) -> bool:
        return value is self._value

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if not isinstance(value, bool):
            return f"expected bool value for Bool check, got: {json_type(value)}"
        if value is not self._value:
            expected = ctx.lit(str(self), marks)
            return f"expected value {expected} for Bool check, got: {ctx.got(value, marks)}"
        return None


class _NoArgs(Check):
    __slots__ = ()

    def __init__(self) -> None:
        self._seal()

    def _ident(self) -> tuple[Hashable, ...]:
        return ()

    def _args(self) -> tuple[Any, ...]:
        return ()

    def _repr_parts(self) -> Sequence[str | Check]:
        return (f"{self.name}()",)


@public("plancheck.knownvalue")
@final
class Null(_NoArgs):
    """The value is null (and known: an unknown value fails, unlike in Go).

    >>> Null() == None, Null() == 0
    (True, False)
    >>> Null().CheckValue(False)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected null value for Null check, got: bool
    """

    __slots__ = ()
    name = "Null"

    def _text_parts(self) -> Sequence[str | Check]:
        return ("null",)

    def _passes(self, value: Any) -> bool:
        return value is None

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if value is not None:
            return f"expected null value for Null check, got: {json_type(value)}"
        return None


@public("plancheck.knownvalue")
@final
class NotNull(_NoArgs):
    """The value is known and not null.

    >>> NotNull() == "", NotNull() == None
    (True, False)
    >>> NotNull().CheckValue(None)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected non-null value for NotNull check, got: null
    """

    __slots__ = ()
    name = "NotNull"

    def _text_parts(self) -> Sequence[str | Check]:
        return ("<not null>",)

    def _passes(self, value: Any) -> bool:
        return value is not None

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        if value is None:
            return "expected non-null value for NotNull check, got: null"
        return None


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
            expected = ctx.lit(str(self), marks, value)
            return f"expected value {expected} for {self.name} check, got: {ctx.got(value, marks)}"
        return None


class _IntExact(_ReadExact):
    __slots__ = ()
    _value: int
    _bounds: ClassVar[tuple[int, int]]

    def __init__(self, value: int) -> None:
        expect_arg(self.name, value, int, "an int")
        low, high = self._bounds
        if not low <= value <= high:
            raise ArgumentError(f"{self.name} value must be an {self._bits} (from {low} to {high}), got {value}")
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
    >>> Int64Exact(1234).CheckValue(4321)
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
    >>> Int32Exact(1).CheckValue(2**31)
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected number parseable as int32 for Int32Exact check, got: 2147483648
    """

    __slots__ = ()
    name = "Int32Exact"
    _bits = "int32"
    _bounds = INT32_RANGE


def _float_arg(name: str, value: float) -> float:
    expect_arg(name, value, (int, float), "a float or an int")
    try:
        result = float(value)
    except OverflowError:
        raise ArgumentError(f"{name} value is too large for a float: {value}") from None
    if not math.isfinite(result):
        raise ArgumentError(f"{name} value must be finite, got {value!r}")
    return result


@public("plancheck.knownvalue")
@final
class Float64Exact(_ReadExact):
    """The value, rounded to the nearest float64 (as Go parses it), is this float.

    Use :class:`NumberExact` to compare decimals exactly.

    >>> Float64Exact(1.234) == Decimal("1.234"), Float64Exact(1.5) == "1.5"
    (True, False)
    >>> Float64Exact(1.234).CheckValue(Decimal("4.321"))
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
            raise ArgumentError(f"Float32Exact value is out of the float32 range: {value!r}")
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
class NumberExact(ValueCheck):
    """The value is exactly this number, at any precision (``1``, ``1.0`` and ``Decimal("1.00")`` are equal).

    Give an ``int`` or a ``Decimal``. A ``float`` stands for its shortest decimal
    (``1.23`` means ``Decimal("1.23")``, not the binary fraction nearest to it).

    >>> NumberExact(Decimal("1.23")) == Decimal("1.23"), NumberExact(1.23) == Decimal("1.23")
    (True, True)
    >>> NumberExact(Decimal("0.1")) == Decimal("0.1000000000000000000001")
    False
    """

    __slots__ = ("_arg",)
    _arg: int | Decimal
    _value: Decimal
    name = "NumberExact"

    def __init__(self, value: int | Decimal | float) -> None:
        if not is_number(value):
            raise ArgumentError(f"NumberExact expects an int, Decimal or float, got {type(value).__name__}")
        arg: int | Decimal = value if isinstance(value, (int, Decimal)) else to_decimal(value)
        dec = to_decimal(arg)
        if not dec.is_finite():
            raise ArgumentError(f"NumberExact value must be finite, got {value!r}")
        object.__setattr__(self, "_arg", arg)
        # Decimal equality and hashing are numeric: Decimal("1.0") and 1 identify the same check.
        self._init_value(dec)

    @property
    def value(self) -> Decimal:
        """The expected number, as a Decimal."""
        return self._value

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
            expected = ctx.lit(str(self), marks, value)
            return f"expected value {expected} for NumberExact check, got: {ctx.got(value, marks)}"
        return None
