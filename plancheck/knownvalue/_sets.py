"""Checks for sets: SetExact, SetPartial, SetSizeExact.

A set is a JSON array in no particular order. The expected checks are paired
with elements by a maximum bipartite matching (augmenting paths), not greedily:
``SetExact([StringRegexp(".*"), StringExact("a")])`` matches ``["a", "b"]`` even
though the first check would also take ``"a"`` (Go's greedy search fails that).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, final

from tfjsonpath import SliceStep

from .._frozen import public
from .._redact import SENSITIVE, Marks, child_marks, contains_sensitive
from ._base import Check, Ctx, Visit
from ._collections import ElementsCheck, SizeCheck, joined

__all__ = ["SetExact", "SetPartial", "SetSizeExact", "max_matching"]


def max_matching(n_left: int, n_right: int, fits: Callable[[int, int], bool]) -> list[int]:
    """A maximum matching of left to right vertices: ``result[i]`` is the right partner of ``i``, or -1.

    Each left vertex in turn searches breadth-first for an augmenting path, trying right
    vertices in index order, so the result is deterministic.

    >>> max_matching(2, 2, lambda i, j: i == 0 or j == 0)
    [1, 0]
    """
    left = [-1] * n_left
    right = [-1] * n_right
    for start in range(n_left):
        reached_from: dict[int, int] = {}
        seen_left = {start}
        queue = deque([start])
        free = -1
        while queue and free < 0:
            u = queue.popleft()
            for v in range(n_right):
                if v in reached_from or not fits(u, v):
                    continue
                reached_from[v] = u
                if right[v] < 0:
                    free = v
                    break
                w = right[v]
                if w not in seen_left:
                    seen_left.add(w)
                    queue.append(w)
        v = free
        while v >= 0:
            # Flip the path: each left vertex on it takes the right vertex it reached.
            u = reached_from[v]
            previous = left[u]
            left[u] = v
            right[v] = u
            v = previous
    return left


class _SetCheck(ElementsCheck):
    __slots__ = ()
    _exact: ClassVar[bool]

    def _text_parts(self) -> Sequence[str | Check]:
        if self._exact:
            return joined("[", self._items, "]")
        return [*joined("[", self._items, ", ..." if self._items else "..."), "]"]

    def _visit(self, value: Any, marks: Marks, unknown: Marks, ctx: Ctx) -> Visit:
        problem = self._array_problem(value, self._exact)
        if problem is not None:
            return problem
        steps = [SliceStep(j) for j in range(len(value))]
        elem_marks = [child_marks(marks, step) for step in steps]
        elem_unknown = [child_marks(unknown, step) for step in steps]
        cache: dict[tuple[int, int], bool] = {}

        def fits(i: int, j: int) -> bool:
            key = (i, j)
            if key not in cache:
                cache[key] = ctx.run(self._items[i], value[j], elem_marks[j], elem_unknown[j]) is None
            return cache[key]

        pairing = max_matching(len(self._items), len(value), fits)
        missing = [i for i, j in enumerate(pairing) if j < 0]
        if not missing:
            return None
        elements = [ctx.shown(value[j], elem_marks[j]) for j in range(len(value))]
        shown_elements = [text for text, _ in elements]
        # Any hidden element could equal (or nearly equal) an expected literal, so then none is shown.
        hide = not ctx.reveal and (contains_sensitive(marks) or any(hid for _, hid in elements))
        shown = [SENSITIVE if hide else ctx.lit(str(self._items[i]), None) for i in missing]
        noun = "value" if len(missing) == 1 else "values"
        reason = f"missing {noun} {', '.join(shown)} for {self.name} check"
        if self._exact:
            taken = set(pairing)
            spare = [j for j in range(len(value)) if j not in taken]
            listed = ", ".join(f"[{j}]: {shown_elements[j]}" for j in spare)
            reason += f"; unmatched {'element' if len(spare) == 1 else 'elements'} {listed}"
        return reason


@public("plancheck.knownvalue")
@final
class SetExact(_SetCheck):
    """The value is a set whose elements pair off one to one with these checks, in any order.

    >>> from plancheck import knownvalue as kv
    >>> kv.SetExact([kv.StringRegexp(".*"), kv.StringExact("a")]) == ["a", "b"]
    True
    >>> kv.SetExact([kv.Int64Exact(123), kv.Int64Exact(789)]).check_value([123, 654])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: missing value 789 for SetExact check; unmatched element [1]: 654
    """

    __slots__ = ()
    name = "SetExact"
    _exact = True


@public("plancheck.knownvalue")
@final
class SetPartial(_SetCheck):
    """The value is a set in which each check matches its own element; other elements are not checked.

    >>> from plancheck import knownvalue as kv
    >>> kv.SetPartial([kv.StringExact("a"), kv.StringRegexp("^a")]) == ["b", "a", "ab"]
    True
    >>> kv.SetPartial([kv.StringExact("a"), kv.StringExact("a")]) == ["a"]
    False
    """

    __slots__ = ()
    name = "SetPartial"
    _exact = False


@public("plancheck.knownvalue")
@final
class SetSizeExact(SizeCheck):
    """The value is a set of exactly this many elements.

    >>> from plancheck import knownvalue as kv
    >>> kv.SetSizeExact(2) == [1, 2]
    True
    """

    __slots__ = ()
    name = "SetSizeExact"
    _noun = "set"
