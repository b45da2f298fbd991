"""Deep equality of JSON values with exact numbers, and validation that a value is JSON.

``1``, ``1.0`` and ``Decimal("1.00")`` are the same number; ``True`` is not ``1``;
a list and a tuple with the same elements are the same array. Everything
iterates, so depth is unlimited.

Rendering compared values so that no value gives away another's secret.

Two values shown side by side may be equal (``a == b``) or nearly so; if one is
sensitive, showing the other would show the secret. So each value is shown under
the union of every compared value's marks, laid over its own shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tfjsonpath import MapStep, Path, SliceStep, Step
from tfjsonpath._jsontypes import Cycle, find_cycle, is_array, is_json_scalar, is_object, json_type

from .._errors import ArgumentError
from .._redact import (
    NO_SECRETS,
    SENSITIVE,
    Marks,
    Secrets,
    child_marks,
    contains_sensitive,
    render_value,
    walk_marks,
)
from .._text import cycle_text
from .matcher import numbers_equal, to_decimal

__all__ = ["first_difference", "render_compared", "require_json", "union_marks"]


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
    compared: set[tuple[int, int]] = set()  # the pairs of containers compared: a shared pair is compared once
    stack: list[tuple[Any, Any, _Frame]] = [(a, b, None)]
    while stack:
        x, y, frame = stack.pop()
        kind = json_type(x)
        if kind != json_type(y):
            return Path(*_steps(frame))
        if kind == "number":
            if not numbers_equal(to_decimal(x), to_decimal(y)):
                return Path(*_steps(frame))
        elif kind == "array" or kind == "object":
            pair = (id(x), id(y))
            if pair in compared:
                continue  # found equal where first met: the walk stops at the first difference
            compared.add(pair)
            if kind == "array":
                if len(x) != len(y):
                    return Path(*_steps(frame))
                stack.extend((x[i], y[i], (frame, SliceStep(i))) for i in range(len(x) - 1, -1, -1))
            else:
                if x.keys() != y.keys():
                    return Path(*_steps(frame))
                stack.extend((x[k], y[k], (frame, MapStep(k))) for k in reversed(list(x.keys())))
        elif x != y:
            return Path(*_steps(frame))
    return None


def require_json(value: Any, where: str, marks: Sequence[Marks] = (), secrets: Secrets = NO_SECRETS) -> None:
    """Raise an ArgumentError (a TypeError) naming the place if ``value`` holds anything that is not JSON.

    The place shows no secret: a key below a place any of ``marks`` marks (the marks trees of every value compared
    with ``value``: a key another value hides may be the same secret) is ``(sensitive)``, as a failure inside a
    sensitive value shows one, and ``secrets`` are scrubbed from it.

    >>> require_json({"a": [1, None]}, "values[0]")
    >>> require_json({"a": [1, {2}]}, "values[0]")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: values[0] at a[1] is not a JSON value: non-JSON set
    >>> require_json({"tags": {"hunter2": [{2}]}}, "values[0]", [None, {"tags": True}])
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: values[0] at tags["(sensitive)"][0] is not a JSON value: non-JSON set
    >>> looped = {"a": []}
    >>> looped["a"].append(looped)
    >>> require_json(looped, "values[0]")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: values[0] is not a JSON value: the value at a[0] contains itself (a cycle back to the root)
    """
    cycle = find_cycle(value, sequence=is_array)  # a cycle first: the walk below would go round it for ever
    if cycle is not None:
        if marks or secrets:
            cycle = Cycle(*(_shown_keys(keys, value, marks, secrets) for keys in cycle))
        raise ArgumentError(f"{where} is not a JSON value: {cycle_text(cycle)}")
    walked: set[int] = set()  # the containers checked: one shared by two parents is checked once
    stack: list[tuple[Any, _Frame]] = [(value, None)]
    while stack:
        item, frame = stack.pop()
        if is_array(item) or is_object(item):
            if id(item) in walked:
                continue  # checked whole where first met (no cycle: that walk is over), so its first fault is named there
            walked.add(id(item))
        if is_array(item):
            stack.extend((item[i], (frame, SliceStep(i))) for i in range(len(item)))
        elif is_object(item):
            assert isinstance(item, Mapping)
            for key, child in item.items():
                if not isinstance(key, str):
                    at = _shown(_steps(frame), value, marks, secrets).to_text()
                    raise ArgumentError(
                        f"{where}{' at ' + at if at else ''} has a non-string key of type {type(key).__name__}"
                    )
                stack.append((child, (frame, MapStep(key))))
        elif not is_json_scalar(item):
            at = _shown(_steps(frame), value, marks, secrets).to_text()
            raise ArgumentError(f"{where}{' at ' + at if at else ''} is not a JSON value: {json_type(item)}")


def _shown(steps: Sequence[Step], value: Any, marks: Sequence[Marks], secrets: Secrets) -> Path:
    """``steps`` into ``value`` as an error shows them: each key below the first place a marks tree marks is
    ``(sensitive)``, and so is each key that shows a secret."""
    depths = [walk_marks(tree, steps, value)[0] for tree in marks]
    cut = min((depth for depth in depths if depth >= 0), default=len(steps))
    return Path(*(
        MapStep(SENSITIVE) if isinstance(step, MapStep) and (i >= cut or secrets.touches(step.key)) else step
        for i, step in enumerate(steps)
    ))


def _shown_keys(keys: tuple[Any, ...], value: Any, marks: Sequence[Marks], secrets: Secrets) -> tuple[Any, ...]:
    """A cycle's ``keys`` (to where it closes or goes back) as :func:`_shown` shows them (what
    :func:`~plancheck._text.cycle_text` names)."""
    steps = [MapStep(key) if isinstance(key, str) else SliceStep(key) for key in keys]
    shown = _shown(steps, value, marks, secrets).steps
    return tuple(SENSITIVE if isinstance(step, MapStep) and step.key == SENSITIVE else key for key, step in zip(keys, shown, strict=True))


def union_marks(value: Any, marks: Sequence[Marks]) -> Marks:
    """A marks tree for ``value`` marking every place any of ``marks`` marks.

    Where a marks tree has marks but a different shape from the value there (an
    object's marks over an array, say), the whole place is marked: better hidden
    than leaked.

    >>> union_marks({"a": 1, "b": [2, 3]}, [{"a": True}, {"b": [False, True]}])
    {'a': True, 'b': [False, True]}
    >>> union_marks([1, 2], [{"x": True}])
    True
    """
    root: list[Marks] = [None]
    stack: list[tuple[Any, list[Marks], Any, Any]] = [(value, list(marks), root, 0)]
    while stack:
        item, here, holder, slot = stack.pop()
        if any(m is True for m in here):
            holder[slot] = True
            continue
        live = [m for m in here if contains_sensitive(m)]
        if not live:
            holder[slot] = False
            continue
        if is_object(item):
            if not all(isinstance(m, Mapping) for m in live):
                holder[slot] = True
                continue
            out: dict[Any, Marks] = {}
            holder[slot] = out
            for key, child in item.items():
                out[key] = None
                step = MapStep(key)
                stack.append((child, [child_marks(m, step) for m in live], out, key))
        elif is_array(item):
            if not all(isinstance(m, list) for m in live):
                holder[slot] = True
                continue
            arr: list[Marks] = [None] * len(item)
            holder[slot] = arr
            for index, child in enumerate(item):
                step_i = SliceStep(index)
                stack.append((child, [child_marks(m, step_i) for m in live], arr, index))
        else:
            # Marks below a scalar: another value has structure here, and a secret in it.
            holder[slot] = True
    return root[0]


def render_compared(
    values: Sequence[Any], marks: Sequence[Marks], secrets: Secrets, indexes: Sequence[int]
) -> list[str]:
    """Render ``values[i]`` for each ``i`` in ``indexes``, each under the union of the marks of all values.

    All of them, not just the shown ones: a shown value may equal a sensitive one that is not shown.

    >>> render_compared(["pw", "pw", "x"], [True, None, None], Secrets(), [1, 2])
    ['(sensitive)', '(sensitive)']
    """
    return [render_value(values[i], union_marks(values[i], marks), secrets) for i in indexes]
