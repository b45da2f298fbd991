"""The JSON value model the matchers and comparers share: type names and exact numbers.

Values are parsed JSON: ``str``, ``bool``, ``int``, ``decimal.Decimal`` (our
loader's non-integers), ``float`` (other loaders), ``None``, ``list`` (or
``tuple``) and ``dict`` (any ``Mapping``). ``True`` is never a number and ``1``
never a bool.

A ``float`` stands for the shortest decimal that reads back as it (its
``repr``): that is the number the JSON text most likely said, so ``1.23`` from
``json.loads`` equals ``Decimal("1.23")`` from our loader.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tfjsonpath.internal import is_object

__all__ = ["is_array", "is_json_scalar", "is_number", "is_object", "json_type", "numbers_equal", "to_decimal"]


def is_number(value: Any) -> bool:
    """True for a JSON number; ``bool`` is not one.

    >>> is_number(1), is_number(Decimal("1.5")), is_number(True), is_number("1")
    (True, True, False, False)
    """
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


# Not tfjsonpath's is_array (any Sequence): a matcher names any other sequence (range, deque) non-JSON.
def is_array(value: Any) -> bool:
    """True for a JSON array (a ``list`` or ``tuple``).

    >>> is_array([1]), is_array((1,)), is_array("ab")
    (True, True, False)
    """
    return isinstance(value, (list, tuple))


def is_json_scalar(value: Any) -> bool:
    """True for a JSON string, number, bool or null.

    >>> is_json_scalar(None), is_json_scalar({1}), is_json_scalar([])
    (True, False, False)
    """
    return value is None or isinstance(value, (str, bool)) or is_number(value)


def json_type(value: Any) -> str:
    """The JSON type name of a value: string, number, bool, null, array or object.

    Only the type is named, never the content, so it is safe for sensitive values.

    >>> [json_type(v) for v in ("s", 1, Decimal("1.5"), True, None, [], {})]
    ['string', 'number', 'number', 'bool', 'null', 'array', 'object']
    >>> json_type({1, 2})
    'non-JSON set'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str):
        return "string"
    if is_number(value):
        return "number"
    if is_array(value):
        return "array"
    if is_object(value):
        return "object"
    return f"non-JSON {type(value).__name__}"


def to_decimal(value: int | float | Decimal) -> Decimal:
    """The exact decimal a JSON number stands for (a float: its shortest round-tripping decimal).

    >>> to_decimal(3), to_decimal(1.23), to_decimal(Decimal("1.230"))
    (Decimal('3'), Decimal('1.23'), Decimal('1.230'))
    """
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    return Decimal(value)


def numbers_equal(a: Decimal, b: Decimal) -> bool:
    """Exact numeric equality (no rounding, any precision); NaN equals nothing.

    >>> numbers_equal(Decimal("1.0"), Decimal(1)), numbers_equal(Decimal("NaN"), Decimal("NaN"))
    (True, False)
    """
    if a.is_nan() or b.is_nan():
        return False
    # Decimal comparison is exact: it never rounds to the context precision.
    return a == b
