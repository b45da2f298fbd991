"""compare beyond Go's tests: exact numbers, the two extra comparers, secrets, bad input, value semantics."""

from __future__ import annotations

import copy
import pickle
import traceback
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secret_shapes import MAP_KEY_SECRET as SECRET_KEY
from secret_shapes import leaks

from plancheck import compare
from plancheck._checking.equality import first_difference, union_marks
from plancheck._errors import ValueMismatchError
from plancheck._redact import Secrets, revealing_sensitive

D = Decimal


def outcome(comparer: compare.ValueComparer, values: list[Any], **kwargs: Any) -> str | None:
    try:
        comparer.CompareValues(values, **kwargs)
    except ValueMismatchError as exc:
        return str(exc)
    return None


SAME_VALUES: dict[str, tuple[Any, Any]] = {
    "int-float-decimal": (1, 1.0),
    "int-decimal": (1, D("1.00")),
    "float-decimal": (1.5, D("1.50")),
    "float-repr": (0.1, D("0.1")),
    "exponent": (D("1E+2"), 100),
    "huge-int": (10**40, D(10**40)),
    "list-tuple": ([1, "a"], (1, "a")),
    "nested": ({"a": [1, {"b": None}]}, {"a": [D("1"), {"b": None}]}),
    "key-order": ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
    "empty": ([], ()),
}


@pytest.mark.parametrize(("a", "b"), list(SAME_VALUES.values()), ids=list(SAME_VALUES))
def test_same_values(a: Any, b: Any) -> None:
    assert outcome(compare.ValuesSame(), [a, b]) is None
    assert outcome(compare.ValuesDiffer(), [a, b]) is not None


DIFFERENT_VALUES: dict[str, tuple[Any, Any, str]] = {
    "true-is-not-1": (True, 1, "expected values to be the same, but they differ: true != 1"),
    "false-is-not-0": (False, D(0), "expected values to be the same, but they differ: false != 0"),
    "null-is-not-empty": (None, "", 'expected values to be the same, but they differ: null != ""'),
    "string-is-not-number": ("1", 1, 'expected values to be the same, but they differ: "1" != 1'),
    "precision": (
        D("0.1"),
        D("0.1000000000000000000001"),
        "expected values to be the same, but they differ: 0.1 != 0.1000000000000000000001",
    ),
    "list-length": ([1], [1, 1], "expected values to be the same, but they differ: [1] != [1, 1]"),
    "object-keys": (
        {"a": 1},
        {"b": 1},
        'expected values to be the same, but they differ: {"a": 1} != {"b": 1}',
    ),
    "deep": (
        {"a": [{"b": [1, 2]}]},
        {"a": [{"b": [1, 3]}]},
        'expected values to be the same, but they differ: {"a": [{"b": [1, 2]}]} != {"a": [{"b": [1, 3]}]} '
        '(first difference at a[0]["b"][1])',
    ),
    "array-object": ([], {}, "expected values to be the same, but they differ: [] != {}"),
}


@pytest.mark.parametrize(("a", "b", "message"), list(DIFFERENT_VALUES.values()), ids=list(DIFFERENT_VALUES))
def test_different_values(a: Any, b: Any, message: str) -> None:
    assert outcome(compare.ValuesSame(), [a, b]) == message
    assert outcome(compare.ValuesDiffer(), [a, b]) is None


ALL_DIFFER: dict[str, tuple[list[Any], str | None]] = {
    "none": ([], None),
    "one": (["a"], None),
    "all-different": (["a", "b", "c"], None),
    "repeat-not-neighbours": (
        ["a", "b", "a"],
        'expected all values to differ, but values 0 and 2 are the same: "a" == "a"',
    ),
    "neighbours": ([1, 2, 2], "expected all values to differ, but values 1 and 2 are the same: 2 == 2"),
    "equal-numbers-spelled-differently": (
        [1, 2, D("1.0")],
        "expected all values to differ, but values 0 and 2 are the same: 1 == 1.0",
    ),
}


@pytest.mark.parametrize(("values", "expected"), list(ALL_DIFFER.values()), ids=list(ALL_DIFFER))
def test_values_differ_all(values: list[Any], expected: str | None) -> None:
    assert outcome(compare.ValuesDifferAll(), values) == expected


SAME_ANY: dict[str, tuple[list[Any], str | None]] = {
    "none": ([], None),
    "one": (["a"], None),
    "first-and-last": (["a", "b", "a"], None),
    "neighbours": (["a", "b", "b"], None),
    "all-different": (
        ["a", "b", "c"],
        'expected some values to be the same, but they all differ: "a", "b", "c"',
    ),
    "two-different": ([[1], [2]], "expected some values to be the same, but they all differ: [1], [2]"),
    "bool-and-number": ([True, 1], "expected some values to be the same, but they all differ: true, 1"),
}


@pytest.mark.parametrize(("values", "expected"), list(SAME_ANY.values()), ids=list(SAME_ANY))
def test_values_same_any(values: list[Any], expected: str | None) -> None:
    assert outcome(compare.ValuesSameAny(), values) == expected


SECRET_CASES: dict[str, tuple[compare.ValueComparer, list[Any], list[Any], str]] = {
    "differ-equal-secret-hides-both": (
        compare.ValuesDiffer(),
        ["pw", "pw"],
        [True, None],
        "expected values to differ, but they are the same: (sensitive) == (sensitive)",
    ),
    "same-hides-both-sides": (
        compare.ValuesSame(),
        ["hunter2", "hunter3"],
        [None, True],
        "expected values to be the same, but they differ: (sensitive) != (sensitive)",
    ),
    "unshown-sensitive-value-still-protects": (
        compare.ValuesSame(),
        ["pw", "pw", "other"],
        [True, None, None],
        "expected values to be the same, but they differ: (sensitive) != (sensitive)",
    ),
    "partial-marks-union": (
        compare.ValuesSame(),
        [{"user": "u", "pw": "a"}, {"user": "u", "pw": "b"}],
        [{"pw": True}, None],
        'expected values to be the same, but they differ: {"user": "u", "pw": (sensitive)} != '
        '{"user": "u", "pw": (sensitive)} (first difference at pw)',
    ),
    "shape-mismatch-hides-all": (
        compare.ValuesSame(),
        [{"k": "pw"}, ["pw"]],
        [{"k": True}, None],
        'expected values to be the same, but they differ: {"k": (sensitive)} != (sensitive)',
    ),
    "same-any-lists-hidden": (
        compare.ValuesSameAny(),
        ["a", "b"],
        [True, False],
        "expected some values to be the same, but they all differ: (sensitive), (sensitive)",
    ),
    "differ-all": (
        compare.ValuesDifferAll(),
        [["x", "pw"], "y", ["x", "pw"]],
        [[False, True], None, None],
        'expected all values to differ, but values 0 and 2 are the same: ["x", (sensitive)] == ["x", (sensitive)]',
    ),
}


@pytest.mark.parametrize(
    ("comparer", "values", "marks", "expected"), list(SECRET_CASES.values()), ids=list(SECRET_CASES)
)
def test_sensitive_values_are_hidden_in_every_shown_value(
    comparer: compare.ValueComparer, values: list[Any], marks: list[Any], expected: str
) -> None:
    assert outcome(comparer, values, sensitive=marks) == expected


def test_secrets_scrubbed_by_value() -> None:
    got = outcome(compare.ValuesSame(), ["hunter2!", "x"], secrets=Secrets(["hunter2!"]))
    assert got == 'expected values to be the same, but they differ: (sensitive) != "x"'


def test_reveal_mode_shows_values() -> None:
    with revealing_sensitive():
        got = outcome(compare.ValuesDiffer(), ["pw", "pw"], sensitive=[True, True])
    assert got == 'expected values to differ, but they are the same: "pw" == "pw"'


def _looped(tree: Any) -> Any:
    """``tree`` with a member that is ``tree`` itself: a marks tree no walk ends in."""
    if isinstance(tree, dict):
        tree["self"] = tree
    else:
        tree.append(tree)
    return tree


BAD_INPUT: dict[str, tuple[Any, dict[str, Any], type[Exception], str]] = {
    "values-str": ("ab", {}, TypeError, "CompareValues expects a list of values, got str"),
    "values-set": ({1, 2}, {}, TypeError, "CompareValues expects a list of values, got set"),
    "non-json-value": (
        [1, [{1, 2}]],
        {},
        TypeError,
        "CompareValues: values[1] at [0] is not a JSON value: non-JSON set",
    ),
    "non-json-root": (
        [object()],
        {},
        TypeError,
        "CompareValues: values[0] is not a JSON value: non-JSON object",
    ),
    "non-str-key": (
        [{"a": {1: 2}}],
        {},
        TypeError,
        "CompareValues: values[0] at a has a non-string key of type int",
    ),
    "marks-count": (
        [1, 2],
        {"sensitive": [None]},
        ValueError,
        "CompareValues: sensitive has 1 marks trees for 2 values",
    ),
    "marks-type": (
        [1],
        {"sensitive": True},
        TypeError,
        "CompareValues: sensitive must be a list of marks trees, got bool",
    ),
    "marks-cycle-object": (
        [{"hunter2-key": 1}],
        {"sensitive": [_looped({"hunter2-key": False})]},
        TypeError,
        "CompareValues: sensitive[0] is not a marks tree: it contains itself (a cycle)",
    ),
    "marks-cycle-list": (
        [1, [2]],
        {"sensitive": [None, _looped([False])]},
        TypeError,
        "CompareValues: sensitive[1] is not a marks tree: it contains itself (a cycle)",
    ),
    "secrets-type": (
        [1],
        {"secrets": ["x"]},
        TypeError,
        "CompareValues: secrets must be a plancheck Secrets, got list",
    ),
}


@pytest.mark.parametrize(
    ("values", "kwargs", "error", "message"), list(BAD_INPUT.values()), ids=list(BAD_INPUT)
)
def test_bad_input_is_a_clear_error(
    values: Any, kwargs: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as info:
        compare.ValuesSame().CompareValues(values, **kwargs)
    assert str(info.value) == message


COMPARERS = [compare.ValuesSame(), compare.ValuesDiffer(), compare.ValuesSameAny(), compare.ValuesDifferAll()]


@pytest.mark.parametrize("comparer", COMPARERS, ids=repr)
def test_comparers_are_frozen_hashable_values(comparer: compare.ValueComparer) -> None:
    twin = type(comparer)()
    assert comparer == twin
    assert hash(comparer) == hash(twin)
    assert repr(comparer) == f"{type(comparer).__name__}()"
    assert pickle.loads(pickle.dumps(comparer)) == comparer
    assert copy.deepcopy(comparer) == comparer
    assert all(comparer != other for other in COMPARERS if type(other) is not type(comparer))
    assert comparer.__eq__("ValuesSame()") is NotImplemented
    with pytest.raises(AttributeError, match="is immutable"):
        comparer.x = 1  # type: ignore[attr-defined]
    assert not hasattr(comparer, "__dict__")


def test_deep_values_compare_without_recursion() -> None:
    a: Any = 1
    b: Any = D("1.0")
    for _ in range(10_000):
        a, b = [a], [b]
    compare.ValuesSame().CompareValues([a, b])
    c: Any = 2
    for _ in range(10_000):
        c = [c]
    with pytest.raises(ValueMismatchError) as info:
        compare.ValuesDifferAll().CompareValues([a, c, b])
    assert info.value.reason.startswith(
        "expected all values to differ, but values 0 and 2 are the same: [[[["
    )


def test_union_marks_keeps_own_marks_and_adds_others() -> None:
    assert union_marks({"a": "x", "b": ["y", "z"]}, [None, {"b": [False, True]}]) == {
        "a": False,
        "b": [False, True],
    }
    assert union_marks("x", [None, False]) is False
    assert union_marks("x", [{"a": True}]) is True


# -- laws ----------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-5, max_value=5),
        st.sampled_from([D("0.5"), D("1.0"), 1.5, D("2")]),
        st.sampled_from(["", "a", "b"]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c"]), children, max_size=3),
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(json_values, json_values, json_values)
def test_equality_is_an_equivalence(a: Any, b: Any, c: Any) -> None:
    def same(x: Any, y: Any) -> bool:
        return first_difference(x, y) is None

    assert same(a, a)
    assert same(a, b) == same(b, a)
    if same(a, b) and same(b, c):
        assert same(a, c)


@settings(max_examples=200, deadline=None)
@given(st.lists(json_values, max_size=4))
def test_comparers_agree_with_their_definitions(values: list[Any]) -> None:
    def same(x: Any, y: Any) -> bool:
        return first_difference(x, y) is None

    pairs = [(i, j) for j in range(len(values)) for i in range(j)]
    neighbours = [(i - 1, i) for i in range(1, len(values))]
    assert (outcome(compare.ValuesSame(), values) is None) == all(
        same(values[i], values[j]) for i, j in neighbours
    )
    assert (outcome(compare.ValuesDiffer(), values) is None) == all(
        not same(values[i], values[j]) for i, j in neighbours
    )
    assert (outcome(compare.ValuesDifferAll(), values) is None) == all(
        not same(values[i], values[j]) for i, j in pairs
    )
    assert (outcome(compare.ValuesSameAny(), values) is None) == (
        len(values) < 2 or any(same(values[i], values[j]) for i, j in pairs)
    )


def _looped_under(key: str) -> dict[str, Any]:
    """``{"tags": {key: [<tags>]}}``: the list under ``key`` holds the map it is in."""
    tags: dict[str, Any] = {key: []}
    tags[key].append(tags)
    return {"tags": tags}


def _looped_inside(key: str) -> dict[str, Any]:
    """``{"tags": {key: {"x": [<tags[key]>]}}}``: the cycle closes and goes back below ``key``."""
    inner: dict[str, Any] = {"x": []}
    inner["x"].append(inner)
    return {"tags": {key: inner}}


#: (values, keyword arguments, the exact message): a planted secret key on the way to a non-JSON value.
HIDDEN_KEY_BAD_INPUT = {
    "under-its-own-mark": ([{"tags": {SECRET_KEY: {1}}}], {"sensitive": [{"tags": True}]},
                           'CompareValues: values[0] at tags["(sensitive)"] is not a JSON value: non-JSON set'),
    "under-another-value-s-mark": (
        [{"tags": {SECRET_KEY: {1}}}, {"tags": {"x": "y"}}], {"sensitive": [None, {"tags": True}]},
        'CompareValues: values[0] at tags["(sensitive)"] is not a JSON value: non-JSON set'),
    "whole-value-marked-index-shown": ([{SECRET_KEY: [0, {1}]}], {"sensitive": [True]},
                                       'CompareValues: values[0] at ["(sensitive)"][1] is not a JSON value: non-JSON set'),
    "malformed-marks-fail-closed": ([{"a": {SECRET_KEY: {1}}}], {"sensitive": ["yes"]},
                                    'CompareValues: values[0] at ["(sensitive)"]["(sensitive)"] is not a JSON value: '
                                    "non-JSON set"),
    "unmarked-key-that-is-a-secret": ([{"a": {SECRET_KEY: {1}}}], {"secrets": Secrets([SECRET_KEY])},
                                      'CompareValues: values[0] at a["(sensitive)"] is not a JSON value: non-JSON set'),
    "non-string-key-below": ([{"tags": {SECRET_KEY: {1: 2}}}], {"sensitive": [{"tags": True}]},
                             'CompareValues: values[0] at tags["(sensitive)"] has a non-string key of type int'),
    "cycle-closing-below-a-mark": (
        [_looped_under(SECRET_KEY)], {"sensitive": [{"tags": True}]},
        'CompareValues: values[0] is not a JSON value: the value at tags["(sensitive)"][0] contains itself (a cycle '
        "back to tags)"),
    "cycle-going-back-below-a-mark": (
        [_looped_inside(SECRET_KEY)], {"sensitive": [{"tags": True}]},
        'CompareValues: values[0] is not a JSON value: the value at tags["(sensitive)"]["(sensitive)"][0] contains '
        'itself (a cycle back to tags["(sensitive)"])'),
    "cycle-through-a-secret-key": (
        [_looped_under(SECRET_KEY)], {"secrets": Secrets([SECRET_KEY])},
        'CompareValues: values[0] is not a JSON value: the value at tags["(sensitive)"][0] contains itself (a cycle '
        "back to tags)"),
}


@pytest.mark.parametrize(
    ("values", "kwargs", "message"), list(HIDDEN_KEY_BAD_INPUT.values()), ids=list(HIDDEN_KEY_BAD_INPUT)
)
def test_where_a_value_is_no_json_is_told_without_a_hidden_key(values: Any, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError) as info:
        compare.ValuesSame().CompareValues(values, **kwargs)
    assert str(info.value) == message
    shown = "\n".join([str(info.value), repr(info.value), *traceback.format_exception(info.value)])
    assert leaks(shown, {"key": SECRET_KEY}) == []
