"""Every test case of Go's tfjsonpath/path_test.go (terraform-plugin-testing), as tables.

Ids are the Go test names (``/N`` for the Nth unnamed row of a Go table). Go only checks
that its message is contained in the error; here the whole message is pinned: Go's
wording first, then the precise part this port adds.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tfjsonpath import MapStep, New, Path, PathNotFoundError, SliceStep, TfJsonPathError, Traverse

# The document of Go's createTestObject(); createTestArray() wraps the same object in an array.
_OBJECT_TEXT = """
{
  "StringValue": "example",
  "NumberValue": 0,
  "BooleanValue": false,
  "NullValue": null,
  "Array": [10, 15.2, "example2", null, true, {"NestedStringValue": "example3"}, [true]],
  "Object": {
    "StringValue": "example",
    "NumberValue": 0,
    "BooleanValue": false,
    "ArrayValue": [10, 15.2, "example2", null, true],
    "ObjectValue": {"NestedStringValue": "example3"}
  }
}
"""


def go_test_object() -> Any:
    return json.loads(_OBJECT_TEXT)


def go_test_array() -> Any:
    return json.loads("[" + _OBJECT_TEXT + "]")


OBJECT_CASES = [
    pytest.param(New("StringValue"), "example", id="Test_Traverse_StringValue"),
    pytest.param(New("NumberValue"), 0.0, id="Test_Traverse_NumberValue"),
    pytest.param(New("BooleanValue"), False, id="Test_Traverse_BooleanValue"),
    pytest.param(New("NullValue"), None, id="Test_Traverse_NullValue"),
    pytest.param(New("Array").AtSliceIndex(0), 10.0, id="Test_Traverse_Array/0"),
    pytest.param(New("Array").AtSliceIndex(1), 15.2, id="Test_Traverse_Array/1"),
    pytest.param(New("Array").AtSliceIndex(2), "example2", id="Test_Traverse_Array/2"),
    pytest.param(New("Array").AtSliceIndex(3), None, id="Test_Traverse_Array/3"),
    pytest.param(New("Array").AtSliceIndex(4), True, id="Test_Traverse_Array/4"),
    pytest.param(
        New("Array").AtSliceIndex(5).AtMapKey("NestedStringValue"), "example3", id="Test_Traverse_Array/5"
    ),
    pytest.param(New("Array").AtSliceIndex(6).AtSliceIndex(0), True, id="Test_Traverse_Array/6"),
    pytest.param(New("Object").AtMapKey("StringValue"), "example", id="Test_Traverse_Object/0"),
    pytest.param(New("Object").AtMapKey("NumberValue"), 0.0, id="Test_Traverse_Object/1"),
    pytest.param(New("Object").AtMapKey("BooleanValue"), False, id="Test_Traverse_Object/2"),
    pytest.param(New("Object").AtMapKey("ArrayValue").AtSliceIndex(0), 10.0, id="Test_Traverse_Object/3"),
    pytest.param(New("Object").AtMapKey("ArrayValue").AtSliceIndex(1), 15.2, id="Test_Traverse_Object/4"),
    pytest.param(
        New("Object").AtMapKey("ArrayValue").AtSliceIndex(2), "example2", id="Test_Traverse_Object/5"
    ),
    pytest.param(New("Object").AtMapKey("ArrayValue").AtSliceIndex(3), None, id="Test_Traverse_Object/6"),
    pytest.param(New("Object").AtMapKey("ArrayValue").AtSliceIndex(4), True, id="Test_Traverse_Object/7"),
    pytest.param(
        New("Object").AtMapKey("ObjectValue").AtMapKey("NestedStringValue"),
        "example3",
        id="Test_Traverse_Object/8",
    ),
]

ARRAY_CASES = [
    pytest.param(New(0).AtMapKey("StringValue"), "example", id="Test_Traverse_Array_StringValue"),
    pytest.param(New(0).AtMapKey("NumberValue"), 0.0, id="Test_Traverse_Array_NumberValue"),
    pytest.param(New(0).AtMapKey("BooleanValue"), False, id="Test_Traverse_Array_BooleanValue"),
    pytest.param(New(0).AtMapKey("NullValue"), None, id="Test_Traverse_Array_NullValue"),
    pytest.param(New(0).AtMapKey("Array").AtSliceIndex(0), 10.0, id="Test_Traverse_Array_Array/0"),
    pytest.param(New(0).AtMapKey("Array").AtSliceIndex(1), 15.2, id="Test_Traverse_Array_Array/1"),
    pytest.param(New(0).AtMapKey("Array").AtSliceIndex(2), "example2", id="Test_Traverse_Array_Array/2"),
    pytest.param(New(0).AtMapKey("Array").AtSliceIndex(3), None, id="Test_Traverse_Array_Array/3"),
    pytest.param(New(0).AtMapKey("Array").AtSliceIndex(4), True, id="Test_Traverse_Array_Array/4"),
    pytest.param(
        New(0).AtMapKey("Array").AtSliceIndex(5).AtMapKey("NestedStringValue"),
        "example3",
        id="Test_Traverse_Array_Array/5",
    ),
    pytest.param(
        New(0).AtMapKey("Array").AtSliceIndex(6).AtSliceIndex(0), True, id="Test_Traverse_Array_Array/6"
    ),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("StringValue"), "example", id="Test_Traverse_Array_Object/0"
    ),
    pytest.param(New(0).AtMapKey("Object").AtMapKey("NumberValue"), 0.0, id="Test_Traverse_Array_Object/1"),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("BooleanValue"), False, id="Test_Traverse_Array_Object/2"
    ),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("ArrayValue").AtSliceIndex(0),
        10.0,
        id="Test_Traverse_Array_Object/3",
    ),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("ArrayValue").AtSliceIndex(1),
        15.2,
        id="Test_Traverse_Array_Object/4",
    ),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("ArrayValue").AtSliceIndex(2),
        "example2",
        id="Test_Traverse_Array_Object/5",
    ),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("ArrayValue").AtSliceIndex(3),
        None,
        id="Test_Traverse_Array_Object/6",
    ),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("ArrayValue").AtSliceIndex(4),
        True,
        id="Test_Traverse_Array_Object/7",
    ),
    pytest.param(
        New(0).AtMapKey("Object").AtMapKey("ObjectValue").AtMapKey("NestedStringValue"),
        "example3",
        id="Test_Traverse_Array_Object/8",
    ),
]


def _same_json_value(actual: Any, expected: Any) -> bool:
    # Go compares `expected != actual` on interface values: the dynamic type counts, so
    # False must not equal 0.0. Numbers compare by value (Go decodes every number as float64).
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return type(actual) is type(expected) and actual == expected
    return isinstance(actual, (int, float)) and not isinstance(actual, bool) and actual == expected


@pytest.mark.parametrize(("path", "expected"), OBJECT_CASES)
def test_traverse_object(path: Path, expected: Any) -> None:
    actual = Traverse(go_test_object(), path)
    assert _same_json_value(actual, expected), actual


@pytest.mark.parametrize(("path", "expected"), ARRAY_CASES)
def test_traverse_root_array(path: Path, expected: Any) -> None:
    actual = Traverse(go_test_array(), path)
    assert _same_json_value(actual, expected), actual


# (path, Go's message, our detail, step_index, found)
OBJECT_ERRORS = [
    pytest.param(
        New("ObjectA"),
        "path not found: specified key ObjectA not found in map at ObjectA",
        "key 'ObjectA' missing at step 1 of ObjectA; the map has 6 keys",
        0,
        "an object with 6 keys",
        id="Test_Traverse_ExpectError/0",
    ),
    pytest.param(
        New("Object").AtMapKey("MapValueA"),
        "path not found: specified key MapValueA not found in map at Object.MapValueA",
        "key 'MapValueA' missing at step 2 of Object[\"MapValueA\"]; the map has 5 keys",
        1,
        "an object with 5 keys",
        id="Test_Traverse_ExpectError/1",
    ),
    pytest.param(
        New("StringValue").AtSliceIndex(0),
        "path not found: cannot convert object at SliceStep StringValue.0 to []any",
        "expected an array for index 0 at step 2 of StringValue[0], found a string",
        1,
        "a string",
        id="Test_Traverse_ExpectError/2",
    ),
    pytest.param(
        New("StringValue").AtMapKey("MapKeyA"),
        "path not found: cannot convert object at MapStep StringValue.MapKeyA to map[string]any",
        "expected an object for key 'MapKeyA' at step 2 of StringValue[\"MapKeyA\"], found a string",
        1,
        "a string",
        id="Test_Traverse_ExpectError/3",
    ),
    pytest.param(
        New("Array").AtSliceIndex(0).AtMapKey("MapValueA"),
        "path not found: cannot convert object at MapStep Array.0.MapValueA to map[string]any",
        "expected an object for key 'MapValueA' at step 3 of Array[0][\"MapValueA\"], found a number",
        2,
        "a number",
        id="Test_Traverse_ExpectError/4",
    ),
    pytest.param(
        New("Array").AtSliceIndex(10),
        "path not found: SliceStep index Array.10 is out of range with slice length 7",
        "index 10 out of range at step 2 of Array[10]; the array has 7 elements",
        1,
        "an array of 7 elements",
        id="Test_Traverse_ExpectError/5",
    ),
    pytest.param(
        New("Array").AtSliceIndex(7),
        "path not found: SliceStep index Array.7 is out of range with slice length 7",
        "index 7 out of range at step 2 of Array[7]; the array has 7 elements",
        1,
        "an array of 7 elements",
        id="Test_Traverse_ExpectError/6",
    ),
]

ARRAY_ERRORS = [
    pytest.param(
        New(1),
        "path not found: SliceStep index 1 is out of range with slice length 1",
        "index 1 out of range at step 1 of [1]; the array has 1 element",
        0,
        "an array of 1 element",
        id="Test_Traverse_Array_ExpectError/unknown_index",
    ),
    pytest.param(
        New(0).AtSliceIndex(0),
        "path not found: cannot convert object at SliceStep 0.0 to []any",
        "expected an array for index 0 at step 2 of [0][0], found an object with 6 keys",
        1,
        "an object with 6 keys",
        id="Test_Traverse_Array_ExpectError/unknown_nested_index",
    ),
    pytest.param(
        New(0).AtMapKey("StringValue").AtSliceIndex(0),
        "path not found: cannot convert object at SliceStep 0.StringValue.0 to []any",
        'expected an array for index 0 at step 3 of [0]["StringValue"][0], found a string',
        2,
        "a string",
        id="Test_Traverse_Array_ExpectError/unknown_map_index",
    ),
    pytest.param(
        New(0).AtMapKey("StringValue").AtMapKey("MapKeyA"),
        "path not found: cannot convert object at MapStep 0.StringValue.MapKeyA to map[string]any",
        'expected an object for key \'MapKeyA\' at step 3 of [0]["StringValue"]["MapKeyA"], found a string',
        2,
        "a string",
        id="Test_Traverse_Array_ExpectError/unknown_map_key",
    ),
    pytest.param(
        New(0).AtMapKey("Array").AtSliceIndex(0).AtMapKey("MapValueA"),
        "path not found: cannot convert object at MapStep 0.Array.0.MapValueA to map[string]any",
        'expected an object for key \'MapValueA\' at step 4 of [0]["Array"][0]["MapValueA"], found a number',
        3,
        "a number",
        id="Test_Traverse_Array_ExpectError/unknown_slice_map_key",
    ),
    pytest.param(
        New(0).AtMapKey("Array").AtSliceIndex(10),
        "path not found: SliceStep index 0.Array.10 is out of range with slice length 7",
        'index 10 out of range at step 3 of [0]["Array"][10]; the array has 7 elements',
        2,
        "an array of 7 elements",
        id="Test_Traverse_Array_ExpectError/out_of_bounds",
    ),
]


def _check_error(
    document: Any, path: Path, go_message: str, detail: str, step_index: int, found: str
) -> None:
    with pytest.raises(PathNotFoundError) as info:
        Traverse(document, path)
    error = info.value
    assert str(error) == f"{go_message}; {detail}"
    assert str(error).startswith(go_message)
    assert (error.go_message, error.detail) == (go_message, detail)
    assert error.path == path
    assert error.step_index == step_index
    assert error.step == path.steps[step_index]
    assert error.found == found
    assert isinstance(error, LookupError)
    assert isinstance(error, TfJsonPathError)


@pytest.mark.parametrize(("path", "go_message", "detail", "step_index", "found"), OBJECT_ERRORS)
def test_traverse_object_errors(
    path: Path, go_message: str, detail: str, step_index: int, found: str
) -> None:
    _check_error(go_test_object(), path, go_message, detail, step_index, found)


@pytest.mark.parametrize(("path", "go_message", "detail", "step_index", "found"), ARRAY_ERRORS)
def test_traverse_root_array_errors(
    path: Path, go_message: str, detail: str, step_index: int, found: str
) -> None:
    _check_error(go_test_array(), path, go_message, detail, step_index, found)


def test_error_steps_are_the_expected_kind() -> None:
    with pytest.raises(PathNotFoundError) as info:
        Traverse(go_test_object(), New("Array").AtSliceIndex(10))
    assert info.value.step == SliceStep(10)
    with pytest.raises(PathNotFoundError) as info:
        Traverse(go_test_object(), New("ObjectA"))
    assert info.value.step == MapStep("ObjectA")
    assert info.value.reached == Path()
