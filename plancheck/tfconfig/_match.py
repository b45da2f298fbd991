"""Turning what a user expects (a knownvalue check, or a plain JSON value) into a check, and running it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from tfjsonpath import MapStep, Path, SliceStep, Step

from .. import knownvalue as kv
from .._errors import ValueMismatchError
from .._redact import Marks, Secrets

__all__ = ["ValueCheck", "as_check", "like", "mismatch"]


@runtime_checkable
class ValueCheck(Protocol):
    """Anything with knownvalue's ``check_value`` protocol."""

    def check_value(
        self, value: Any, *, sensitive: Marks = None, secrets: Secrets | None = None, unknown: Marks = None
    ) -> None: ...


def _is_check(value: Any) -> bool:
    return callable(getattr(value, "check_value", None)) and not isinstance(value, type)


def as_check(value: Any, owner: str) -> Any:
    """A check as given, or the exact knownvalue check of a plain JSON value.

    >>> as_check({"a": [1]}, "X")
    ObjectExact({'a': ListExact([NumberExact(1)])})
    """
    if _is_check(value):
        return value
    try:
        return kv.exact(value)
    except TypeError as exc:
        raise TypeError(f"{owner}: expected a knownvalue check or a JSON value; {exc}") from None


def like(value: Any, owner: str) -> Any:
    """aws-cdk's ``objectLike`` for a plain value: objects match partially (at every depth), arrays
    element by element, scalars exactly; checks inside are kept as they are.

    >>> like({"tags": {"env": "prod"}, "ports": [80]}, "X")
    ObjectPartial({'ports': ListExact([NumberExact(80)]), 'tags': ObjectPartial({'env': StringExact('prod')})})
    """
    if _is_check(value):
        return value
    # Post-order over the plain containers, so nesting of any depth is converted without recursion.
    order: list[tuple[Any, int, Step | None]] = []
    stack: list[tuple[Any, int, Step | None]] = [(value, -1, None)]
    while stack:
        item = stack.pop()
        order.append(item)
        current = item[0]
        me = len(order) - 1
        if _is_check(current):
            continue
        if isinstance(current, Mapping):
            for key in reversed(list(current)):
                if not isinstance(key, str):
                    raise TypeError(f"{owner}: object keys must be strings, got {type(key).__name__}")
                stack.append((current[key], me, MapStep(key)))
        elif isinstance(current, (list, tuple)):
            stack.extend((current[i], me, SliceStep(i)) for i in range(len(current) - 1, -1, -1))
    built: list[Any] = [None] * len(order)
    kids: list[list[tuple[Step, Any]]] = [[] for _ in order]
    for index in range(len(order) - 1, -1, -1):
        current, parent, step = order[index]
        children = kids[index]
        children.reverse()
        check: Any
        if _is_check(current):
            check = current
        elif isinstance(current, Mapping):
            check = kv.ObjectPartial({s.key: c for s, c in children if isinstance(s, MapStep)})
        elif isinstance(current, (list, tuple)):
            check = kv.ListExact([c for _, c in children])
        else:
            check = as_check(current, owner)
        built[index] = check
        if parent >= 0 and step is not None:
            kids[parent].append((step, check))
    return built[0]


def mismatch(check: Any, value: Any, *, sensitive: Marks, secrets: Secrets) -> tuple[Path, str] | None:
    """Run ``check``; return where (inside ``value``) and why it failed, or None if it matched."""
    try:
        check.check_value(value, sensitive=sensitive, secrets=secrets, unknown=None)
    except ValueMismatchError as exc:
        return exc.path, secrets.scrub(exc.reason)
    return None
