"""The value comparers: ValuesSame, ValuesDiffer, ValuesSameAny, ValuesDifferAll."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, final

from tfjsonpath import Path
from tfjsonpath._jsontypes import find_cycle, is_array

from .._checking.equality import first_difference, render_compared, require_json
from .._errors import ArgumentError, ValueMismatchError
from .._frozen import FrozenValue, frozen, public
from .._redact import NO_SECRETS, Marks, Secrets

__all__ = ["ValueComparer", "ValuesDiffer", "ValuesDifferAll", "ValuesSame", "ValuesSameAny"]

# pytest hides this module's frames from tracebacks: failures point at the user's test line,
# and the library's locals (which may hold raw values) are never printed.
__tracebackhide__ = True


class _Values:
    # The checked inputs of one CompareValues call.
    __slots__ = ("marks", "secrets", "values")

    def __init__(self, values: Sequence[Any], marks: Sequence[Marks], secrets: Secrets) -> None:
        self.values = values
        self.marks = marks
        self.secrets = secrets

    def show(self, *indexes: int) -> list[str]:
        return render_compared(self.values, self.marks, self.secrets, indexes)


@public("plancheck.compare")
@frozen
class ValueComparer(FrozenValue):
    """Base class of the comparers: ``CompareValues(values)`` raises ValueMismatchError if they do not compare.

    Comparers are frozen and hashable; two comparers of the same kind are equal.

    >>> ValuesSame() == ValuesSame(), ValuesSame() == ValuesDiffer(), repr(ValuesSame())
    (True, False, 'ValuesSame()')
    """

    def _compare(self, data: _Values) -> str | None:
        """The failure reason, or None if the values compare."""
        raise NotImplementedError

    def CompareValues(  # Go's name, kept for line-by-line ports
        self,
        values: Sequence[Any],
        *,
        sensitive: Sequence[Marks] | None = None,
        secrets: Secrets | None = None,
    ) -> None:
        """Compare ``values`` (in the order they were collected); raise ValueMismatchError if they do not compare.

        Go's ``CompareValues(values ...any) error``, given the values as one list; it raises instead of
        returning an error.

        ``sensitive`` gives a marks tree per value (like ``after_sensitive``); sensitive
        parts are compared but shown as ``(sensitive)``, in every value shown, since the
        values may be equal. ``secrets`` are scrubbed from the message too.
        """
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise ArgumentError(f"CompareValues expects a list of values, got {type(values).__name__}")
        if sensitive is None:
            marks: Sequence[Marks] = [None] * len(values)
        elif isinstance(sensitive, (list, tuple)):
            if len(sensitive) != len(values):
                raise ArgumentError(
                    f"CompareValues: sensitive has {len(sensitive)} marks trees for {len(values)} values"
                )
            marks = sensitive
            for i, tree in enumerate(marks):
                # A marks tree that holds itself would send every walk of the marks round for ever. Its keys are the
                # value's (a map key may be a secret): where the cycle is goes untold.
                if find_cycle(tree, sequence=is_array) is not None:
                    raise ArgumentError(f"CompareValues: sensitive[{i}] is not a marks tree: it contains itself (a cycle)")
        else:
            raise ArgumentError(
                f"CompareValues: sensitive must be a list of marks trees, got {type(sensitive).__name__}"
            )
        if secrets is None:
            secrets = NO_SECRETS
        elif not isinstance(secrets, Secrets):
            raise ArgumentError(
                f"CompareValues: secrets must be a plancheck Secrets, got {type(secrets).__name__}"
            )
        for i, value in enumerate(values):  # where a value is no JSON is told without the keys marks or secrets hide
            require_json(value, f"CompareValues: values[{i}]", marks, secrets)
        reason = self._compare(_Values(values, marks, secrets))
        if reason is not None:
            raise ValueMismatchError(Path(), reason)


def _where(path: Path) -> str:
    return f" (first difference at {path.to_text()})" if len(path) else ""


@public("plancheck.compare")
@final
class ValuesSame(ValueComparer):
    """Each value is the same as the one before it (so all are the same).

    >>> ValuesSame().CompareValues(["str", "str", "other_str"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected values to be the same, but they differ: "str" != "other_str"
    >>> ValuesSame().CompareValues([{"a": [1]}, {"a": [2]}])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected values to be the same, but they differ: {"a": [1]} != {"a": [2]} (first difference at a[0])
    """

    __slots__ = ()

    def _compare(self, data: _Values) -> str | None:
        for i in range(1, len(data.values)):
            diff = first_difference(data.values[i - 1], data.values[i])
            if diff is not None:
                a, b = data.show(i - 1, i)
                return f"expected values to be the same, but they differ: {a} != {b}{_where(diff)}"
        return None


@public("plancheck.compare")
@final
class ValuesDiffer(ValueComparer):
    """Each value differs from the one before it (a value may come back later).

    >>> ValuesDiffer().CompareValues(["a", "b", "a"])
    >>> ValuesDiffer().CompareValues(["str", "other_str", "other_str"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected values to differ, but they are the same: "other_str" == "other_str"
    """

    __slots__ = ()

    def _compare(self, data: _Values) -> str | None:
        for i in range(1, len(data.values)):
            if first_difference(data.values[i - 1], data.values[i]) is None:
                a, b = data.show(i - 1, i)
                return f"expected values to differ, but they are the same: {a} == {b}"
        return None


@public("plancheck.compare")
@final
class ValuesDifferAll(ValueComparer):
    """Every value differs from every other value, not only from its neighbour.

    >>> ValuesDifferAll().CompareValues(["a", "b", "a"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected all values to differ, but values 0 and 2 are the same: "a" == "a"
    """

    __slots__ = ()

    def _compare(self, data: _Values) -> str | None:
        values = data.values
        for j in range(1, len(values)):
            for i in range(j):
                if first_difference(values[i], values[j]) is None:
                    a, b = data.show(i, j)
                    return f"expected all values to differ, but values {i} and {j} are the same: {a} == {b}"
        return None


@public("plancheck.compare")
@final
class ValuesSameAny(ValueComparer):
    """Some two values (any two, not only neighbours) are the same.

    Fewer than two values pass, as with every comparer: nothing to compare yet.

    >>> ValuesSameAny().CompareValues(["a", "b", "a"])
    >>> ValuesSameAny().CompareValues(["a", "b", "c"])
    Traceback (most recent call last):
    ...
    plancheck.ValueMismatchError: expected some values to be the same, but they all differ: "a", "b", "c"
    """

    __slots__ = ()

    def _compare(self, data: _Values) -> str | None:
        values = data.values
        if len(values) < 2:
            return None
        for j in range(1, len(values)):
            for i in range(j):
                if first_difference(values[i], values[j]) is None:
                    return None
        shown = data.show(*range(len(values)))
        return f"expected some values to be the same, but they all differ: {', '.join(shown)}"
