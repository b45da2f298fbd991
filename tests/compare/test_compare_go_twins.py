"""Python twins of every test case in Go's terraform-plugin-testing compare/*_test.go.

Go prints values with %v (``[str]``, ``map[a:str]``); we print them as JSON.
"""

from __future__ import annotations

from typing import Any

import pytest

from plancheck import compare
from plancheck._errors import ValueMismatchError


def outcome(comparer: compare.ValueComparer, values: list[Any]) -> str | None:
    try:
        comparer.CompareValues(values)
    except ValueMismatchError as exc:
        return str(exc)
    return None


DIFFER = {
    "nil": ([], None),
    "single-value": (["str"], None),
    "non-matching-sequential-values": (["str", "other_str", "str"], None),
    "matching-values-string": (
        ["str", "other_str", "other_str"],
        'expected values to differ, but they are the same: "other_str" == "other_str"',
    ),
    "matching-values-slice": (
        [["other_str"], ["other_str"]],
        'expected values to differ, but they are the same: ["other_str"] == ["other_str"]',
    ),
    "matching-values-map": (
        [{"a": "other_str"}, {"a": "other_str"}],
        'expected values to differ, but they are the same: {"a": "other_str"} == {"a": "other_str"}',
    ),
}


@pytest.mark.parametrize(("values", "expected"), list(DIFFER.values()), ids=list(DIFFER))
def test_TestValuesDiffer_CompareValues(values: list[Any], expected: str | None) -> None:
    assert outcome(compare.ValuesDiffer(), values) == expected


SAME = {
    "nil": ([], None),
    "single-value": (["str"], None),
    "matching-values": (["str", "str", "str"], None),
    "non-matching-values-string": (
        ["str", "str", "other_str"],
        'expected values to be the same, but they differ: "str" != "other_str"',
    ),
    "non-matching-values-slice": (
        [["str"], ["str"], ["other_str"]],
        'expected values to be the same, but they differ: ["str"] != ["other_str"] (first difference at [0])',
    ),
    "non-matching-values-map": (
        [{"a": "str"}, {"a": "str"}, {"a": "other_str"}],
        'expected values to be the same, but they differ: {"a": "str"} != {"a": "other_str"} (first difference at a)',
    ),
}


@pytest.mark.parametrize(("values", "expected"), list(SAME.values()), ids=list(SAME))
def test_TestValuesSame_CompareValues(values: list[Any], expected: str | None) -> None:
    assert outcome(compare.ValuesSame(), values) == expected
