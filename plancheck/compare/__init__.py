"""compare: value comparers, a port of Go's terraform-plugin-testing ``compare`` package.

A comparer checks a sequence of JSON values collected in order (for example one
attribute after each test step). Numbers compare exactly (``1 == 1.0 ==
Decimal("1.00")``), ``True`` is not ``1``, and arrays and objects compare deeply.

>>> from plancheck import compare
>>> compare.ValuesSame().CompareValues([1, 1.0])
>>> compare.ValuesDiffer().CompareValues([["a"], ["a"]])
Traceback (most recent call last):
...
plancheck.ValueMismatchError: expected values to differ, but they are the same: ["a"] == ["a"]
"""

from ._comparers import ValueComparer, ValuesDiffer, ValuesDifferAll, ValuesSame, ValuesSameAny

__all__ = ["ValueComparer", "ValuesDiffer", "ValuesDifferAll", "ValuesSame", "ValuesSameAny"]
