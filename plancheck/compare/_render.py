"""Rendering compared values so that no value gives away another's secret.

Two values shown side by side may be equal (``a == b``) or nearly so; if one is
sensitive, showing the other would show the secret. So each value is shown under
the union of every compared value's marks, laid over its own shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tfjsonpath import MapStep, SliceStep

from .._redact import Marks, Secrets, child_marks, contains_sensitive, render_value
from ..knownvalue.internal import is_array, is_object

__all__ = ["render_compared", "union_marks"]


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
