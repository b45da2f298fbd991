"""Converting JSON numbers to Go's int32/int64/float32/float64, and printing them as Go does."""

from __future__ import annotations

import math
import struct
from decimal import Decimal
from fractions import Fraction
from typing import Final

from .._redact import number_text
from ._jsonmodel import to_decimal

__all__ = [
    "INT32_RANGE",
    "INT64_RANGE",
    "as_float32",
    "as_float64",
    "as_int",
    "float32_repr",
    "format_decimal",
    "format_float32",
    "format_float64",
]

INT32_RANGE: Final = (-(2**31), 2**31 - 1)
INT64_RANGE: Final = (-(2**63), 2**63 - 1)

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
    would be over a thousand digits long: then with an exponent, as :func:`plancheck._redact.number_text`.

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
