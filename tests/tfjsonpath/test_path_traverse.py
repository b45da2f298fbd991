"""Traversal semantics beyond Go's tests: type strictness, no mutation, error fields, secrecy, pickling."""

from __future__ import annotations

import pickle
from collections import OrderedDict, defaultdict
from collections.abc import Iterator, Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any

import pytest

from tfjsonpath import New, Path, PathNotFoundError, Traverse, describe_json_type

# (document, path, expected value)
FOUND = [
    pytest.param({"a": 1}, Path(), {"a": 1}, id="root-path-is-the-document"),
    pytest.param("scalar", Path(), "scalar", id="root-path-of-a-scalar"),
    pytest.param({"a": ("x", "y")}, New("a").AtSliceIndex(1), "y", id="tuple-is-an-array"),
    pytest.param(OrderedDict(a=1), New("a"), 1, id="ordered-dict"),
    pytest.param(MappingProxyType({"a": 1}), New("a"), 1, id="read-only-mapping"),
    pytest.param({"": {"": 0}}, New("").AtMapKey(""), 0, id="empty-keys"),
    pytest.param({"a.b": 1, "a": {"b": 2}}, New("a.b"), 1, id="dotted-key-is-one-key"),
    pytest.param({"0": "key", "x": ["index"]}, New("0"), "key", id="digit-key"),
    pytest.param({"k": None}, New("k"), None, id="null-value-is-found"),
    pytest.param({"k": False}, New("k"), False, id="false-value-is-found"),
    pytest.param([[[[1]]]], New(0).AtSliceIndex(0).AtSliceIndex(0).AtSliceIndex(0), 1, id="nested-arrays"),
]


@pytest.mark.parametrize(("document", "path", "expected"), FOUND)
def test_traverse_finds(document: Any, path: Path, expected: Any) -> None:
    assert Traverse(document, path) == expected


def test_traverse_returns_the_very_object() -> None:
    inner: list[int] = [1]
    assert Traverse({"a": inner}, New("a")) is inner


# (document, path, full message, found)
NOT_FOUND = [
    pytest.param(
        {"a": "hello"},
        New("a").AtSliceIndex(0),
        "path not found: cannot convert object at SliceStep a.0 to []any; "
        "expected an array for index 0 at step 2 of a[0], found a string",
        "a string",
        id="never-indexes-into-a-string",
    ),
    pytest.param(
        {"a": "hello"},
        New("a").AtMapKey("0"),
        "path not found: cannot convert object at MapStep a.0 to map[string]any; "
        "expected an object for key '0' at step 2 of a[\"0\"], found a string",
        "a string",
        id="never-keys-into-a-string",
    ),
    pytest.param(
        {"a": ["x"]},
        New("a").AtMapKey("0"),
        "path not found: cannot convert object at MapStep a.0 to map[string]any; "
        "expected an object for key '0' at step 2 of a[\"0\"], found an array of 1 element",
        "an array of 1 element",
        id="array-is-not-a-map",
    ),
    pytest.param(
        {"a": {"0": "x"}},
        New("a").AtSliceIndex(0),
        "path not found: cannot convert object at SliceStep a.0 to []any; "
        "expected an array for index 0 at step 2 of a[0], found an object with 1 key",
        "an object with 1 key",
        id="map-is-not-an-array",
    ),
    pytest.param(
        {"a": {0: "x"}},
        New("a").AtMapKey("0"),
        "path not found: specified key 0 not found in map at a.0; key '0' missing at step 2 of a[\"0\"]; the map has 1 key",
        "an object with 1 key",
        id="int-key-is-not-a-str-key",
    ),
    pytest.param(
        {"a": b"bytes"},
        New("a").AtSliceIndex(0),
        "path not found: cannot convert object at SliceStep a.0 to []any; "
        "expected an array for index 0 at step 2 of a[0], found a non-JSON value of type bytes",
        "a non-JSON value of type bytes",
        id="never-indexes-into-bytes",
    ),
    pytest.param(
        {"a": None},
        New("a").AtMapKey("b"),
        "path not found: cannot convert object at MapStep a.b to map[string]any; "
        "expected an object for key 'b' at step 2 of a[\"b\"], found null",
        "null",
        id="null-is-not-a-map",
    ),
    pytest.param(
        {"a": True},
        New("a").AtSliceIndex(0),
        "path not found: cannot convert object at SliceStep a.0 to []any; "
        "expected an array for index 0 at step 2 of a[0], found a bool",
        "a bool",
        id="bool-is-not-an-array",
    ),
    pytest.param(
        {},
        New("x"),
        "path not found: specified key x not found in map at x; key 'x' missing at step 1 of x; the map has 0 keys",
        "an object with 0 keys",
        id="empty-map",
    ),
    pytest.param(
        [],
        New(0),
        "path not found: SliceStep index 0 is out of range with slice length 0; "
        "index 0 out of range at step 1 of [0]; the array has 0 elements",
        "an array of 0 elements",
        id="empty-array",
    ),
    pytest.param(
        {"a": {}},
        New("a").AtMapKey("b").AtMapKey("c").AtSliceIndex(0),
        "path not found: specified key b not found in map at a.b; "
        'key \'b\' missing at step 2 of a["b"]["c"][0]; the map has 0 keys',
        "an object with 0 keys",
        id="fails-in-the-middle-names-the-whole-path",
    ),
    pytest.param(
        {"a.b": {"x": 1}},
        New("a.b").AtMapKey("y z"),
        "path not found: specified key y z not found in map at a.b.y z; "
        'key \'y z\' missing at step 2 of ["a.b"]["y z"]; the map has 1 key',
        "an object with 1 key",
        id="go-form-is-ambiguous-detail-is-not",
    ),
    pytest.param(
        {"password": "hunter2"},
        New("password").AtMapKey("x"),
        "path not found: cannot convert object at MapStep password.x to map[string]any; "
        "expected an object for key 'x' at step 2 of password[\"x\"], found a string",
        "a string",
        id="found-value-is-never-shown",
    ),
    pytest.param(
        "top",
        New("a"),
        "path not found: cannot convert object at MapStep a to map[string]any; "
        "expected an object for key 'a' at step 1 of a, found a string",
        "a string",
        id="scalar-document",
    ),
]


@pytest.mark.parametrize(("document", "path", "message", "found"), NOT_FOUND)
def test_traverse_not_found(document: Any, path: Path, message: str, found: str) -> None:
    with pytest.raises(PathNotFoundError) as info:
        Traverse(document, path)
    assert str(info.value) == message
    assert info.value.found == found
    assert "hunter2" not in str(info.value)


def test_traverse_does_not_insert_into_a_defaultdict() -> None:
    document: defaultdict[str, list[int]] = defaultdict(list)
    with pytest.raises(PathNotFoundError):
        Traverse(document, New("missing"))
    assert dict(document) == {}


class _CountingMapping(Mapping[str, Any]):
    """A Mapping whose __getitem__ computes defaults, like some custom decoders do."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data.get(key, "computed default")

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data


def test_traverse_checks_membership_before_lookup() -> None:
    document = _CountingMapping({"a": 1})
    assert Traverse(document, New("a")) == 1
    with pytest.raises(PathNotFoundError):
        Traverse(document, New("b"))


def test_not_found_error_fields_and_pickling() -> None:
    path = New("a").AtSliceIndex(3).AtMapKey("b")
    with pytest.raises(PathNotFoundError) as info:
        Traverse({"a": [0]}, path)
    error = info.value
    assert error.path == path
    assert error.step_index == 1
    assert error.reached == New("a")
    loaded = pickle.loads(pickle.dumps(error))
    assert type(loaded) is PathNotFoundError
    assert str(loaded) == str(error)
    assert (loaded.path, loaded.step_index, loaded.step, loaded.found, loaded.go_message, loaded.detail) == (
        error.path,
        error.step_index,
        error.step,
        error.found,
        error.go_message,
        error.detail,
    )


def test_not_found_is_a_lookup_error() -> None:
    with pytest.raises(LookupError):
        Traverse({}, New("a"))


DESCRIPTIONS = [
    pytest.param(None, "null", id="null"),
    pytest.param(True, "a bool", id="true"),
    pytest.param(False, "a bool", id="false"),
    pytest.param(0, "a number", id="int"),
    pytest.param(1.5, "a number", id="float"),
    pytest.param(Decimal("1.10"), "a number", id="decimal"),
    pytest.param("", "a string", id="empty-string"),
    pytest.param("secret value", "a string", id="string"),
    pytest.param({}, "an object with 0 keys", id="empty-object"),
    pytest.param({"a": 1}, "an object with 1 key", id="object-1"),
    pytest.param({"a": 1, "b": 2}, "an object with 2 keys", id="object-2"),
    pytest.param([], "an array of 0 elements", id="empty-array"),
    pytest.param([1], "an array of 1 element", id="array-1"),
    pytest.param((1, 2), "an array of 2 elements", id="tuple"),
    pytest.param(b"x", "a non-JSON value of type bytes", id="bytes"),
    pytest.param({1}, "a non-JSON value of type set", id="set"),
    pytest.param(object(), "a non-JSON value of type object", id="object"),
]


@pytest.mark.parametrize(("value", "description"), DESCRIPTIONS)
def test_describe_json_type(value: Any, description: str) -> None:
    assert describe_json_type(value) == description
