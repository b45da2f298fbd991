"""Deep equality of JSON values with exact numbers, and validation that a value is JSON.

``1``, ``1.0`` and ``Decimal("1.00")`` are the same number; ``True`` is not ``1``;
a list and a tuple with the same elements are the same array. Everything
iterates, so depth is unlimited.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tfjsonpath import MapStep, Path, SliceStep, Step

from ..knownvalue.internal import is_array, is_json_scalar, is_object, json_type, numbers_equal, to_decimal

__all__ = ["first_difference", "require_json"]

_Frame = tuple[Any, Step] | None


def _steps(frame: _Frame) -> tuple[Step, ...]:
    out: list[Step] = []
    while frame is not None:
        frame, step = frame
        out.append(step)
    out.reverse()
    return tuple(out)


def first_difference(a: Any, b: Any) -> Path | None:
    """None if ``a`` and ``b`` are the same JSON value, else the path of the first difference found.

    >>> from decimal import Decimal
    >>> first_difference({"a": [1, 2.5]}, {"a": [1.0, Decimal("2.50")]}) is None
    True
    >>> first_difference({"a": [1, True]}, {"a": [1, 1]}).to_text()
    'a[1]'
    """
    stack: list[tuple[Any, Any, _Frame]] = [(a, b, None)]
    while stack:
        x, y, frame = stack.pop()
        kind = json_type(x)
        if kind != json_type(y):
            return Path(*_steps(frame))
        if kind == "number":
            if not numbers_equal(to_decimal(x), to_decimal(y)):
                return Path(*_steps(frame))
        elif kind == "array":
            if len(x) != len(y):
                return Path(*_steps(frame))
            stack.extend((x[i], y[i], (frame, SliceStep(i))) for i in range(len(x) - 1, -1, -1))
        elif kind == "object":
            if x.keys() != y.keys():
                return Path(*_steps(frame))
            stack.extend((x[k], y[k], (frame, MapStep(k))) for k in reversed(list(x.keys())))
        elif x != y:
            return Path(*_steps(frame))
    return None


def require_json(value: Any, where: str) -> None:
    """Raise TypeError naming the place if ``value`` holds anything that is not JSON.

    >>> require_json({"a": [1, None]}, "values[0]")
    >>> require_json({"a": [1, {2}]}, "values[0]")
    Traceback (most recent call last):
    ...
    TypeError: values[0] at a[1] is not a JSON value: non-JSON set
    """
    stack: list[tuple[Any, _Frame]] = [(value, None)]
    while stack:
        item, frame = stack.pop()
        if is_array(item):
            stack.extend((item[i], (frame, SliceStep(i))) for i in range(len(item)))
        elif is_object(item):
            assert isinstance(item, Mapping)
            for key, child in item.items():
                if not isinstance(key, str):
                    at = Path(*_steps(frame)).to_text()
                    raise TypeError(
                        f"{where}{' at ' + at if at else ''} has a non-string key of type {type(key).__name__}"
                    )
                stack.append((child, (frame, MapStep(key))))
        elif not is_json_scalar(item):
            at = Path(*_steps(frame)).to_text()
            raise TypeError(f"{where}{' at ' + at if at else ''} is not a JSON value: {json_type(item)}")
