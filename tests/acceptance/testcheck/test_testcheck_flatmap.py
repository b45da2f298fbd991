"""The flatmap view of a state, as Go's ``shimStateFromJson`` builds it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from testcheck_support import make_state, resource

from plancheck import State, StateFormatError
from plancheck.acceptance import FlatState, flatten

FLATTEN_CASES = [
    pytest.param({}, None, {"%": "0"}, id="no-attributes"),
    pytest.param(None, None, {"%": "0"}, id="values-null"),
    pytest.param({"s": "x", "e": ""}, None, {"%": "2", "s": "x", "e": ""}, id="strings-and-empty-string"),
    pytest.param({"t": True, "f": False}, None, {"%": "2", "t": "true", "f": "false"}, id="bools"),
    pytest.param({"n": None}, None, {"%": "1"}, id="null-left-out-but-counted"),
    pytest.param({"l": []}, None, {"%": "1", "l.#": "0"}, id="empty-list"),
    pytest.param({"m": {}}, None, {"%": "1", "m.%": "0"}, id="empty-map"),
    pytest.param({"l": ["a", None, "c"]}, None, {"%": "1", "l.#": "3", "l.0": "a", "l.2": "c"}, id="null-element-keeps-index"),
    pytest.param(
        {"m": {"a.b": "1", "c": {"d": "2"}}},
        None,
        {"%": "1", "m.%": "2", "m.a.b": "1", "m.c.%": "1", "m.c.d": "2"},
        id="map-key-with-dot",
    ),
    pytest.param(
        {"blk": [{"name": "a", "rule": [{"port": 80}]}, {"name": "b", "rule": []}]},
        None,
        {
            "%": "1",
            "blk.#": "2",
            "blk.0.%": "2",
            "blk.0.name": "a",
            "blk.0.rule.#": "1",
            "blk.0.rule.0.%": "1",
            "blk.0.rule.0.port": "80",
            "blk.1.%": "2",
            "blk.1.name": "b",
            "blk.1.rule.#": "0",
        },
        id="nested-list-of-objects",
    ),
    pytest.param({"l": [["a"], []]}, None, {"%": "1", "l.#": "2", "l.0.#": "1", "l.0.0": "a", "l.1.#": "0"}, id="list-of-lists"),
    pytest.param({"m": {"%": "x", "#": "y"}}, None, {"%": "1", "m.%": "2", "m.#": "y"}, id="map-key-percent-loses-to-count"),
    pytest.param({"": {"k": "v"}}, None, {"%": "1", "k": "v"}, id="empty-key-flattens-like-go"),
]


@pytest.mark.parametrize(("values", "marks", "expected"), FLATTEN_CASES)
def test_flatten(values: Any, marks: Any, expected: dict[str, str]) -> None:
    assert dict(flatten(values, marks)) == expected


NUMBER_CASES = [
    pytest.param("1", "1", id="int"),
    pytest.param("-0", "0", id="negative-zero-int"),
    pytest.param("1.0", "1.0", id="trailing-zero-kept"),
    pytest.param("1.50", "1.50", id="two-decimals-kept"),
    pytest.param("0.0000001", "0.0000001", id="small-fraction-fixed-point"),
    pytest.param("123456789012345678901234567890", "123456789012345678901234567890", id="big-int"),
    pytest.param("1e20", "100000000000000000000", id="exponent-fixed-point"),
    pytest.param("1.5E-3", "0.0015", id="negative-exponent"),
]


@pytest.mark.parametrize(("literal", "text"), NUMBER_CASES)
def test_number_text_from_json(literal: str, text: str) -> None:
    state = State.from_json(
        '{"format_version": "1.0", "values": {"root_module": {"resources": '
        f'[{{"address": "test.a", "values": {{"n": {literal}}}}}]}}}}}}'
    )
    assert FlatState.of(state).attributes("test.a")["n"] == text  # type: ignore[index]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        pytest.param(1.0, "1.0", id="float-one"),
        pytest.param(1e20, "100000000000000000000", id="float-exponent"),
        pytest.param(0.1, "0.1", id="float-shortest"),
        pytest.param(Decimal("2.50"), "2.50", id="decimal"),
        pytest.param(10**5000, "1" + "0" * 5000, id="int-over-str-limit"),
    ],
)
def test_number_text_from_python(value: Any, text: str) -> None:
    assert flatten({"n": value})["n"] == text


MARK_CASES = [
    pytest.param({"pw": "x"}, {"pw": True}, {"pw"}, id="attribute"),
    pytest.param({"l": ["a", "b"]}, {"l": [False, True]}, {"l.1"}, id="list-element"),
    pytest.param({"l": ["a"]}, {"l": True}, {"l.#", "l.0"}, id="whole-list-and-its-count"),
    pytest.param({"m": {"k": {"x": "1"}}}, {"m": True}, {"m.%", "m.k.%", "m.k.x"}, id="whole-map-nested"),
    pytest.param({"a": "x", "b": "y"}, {"a": 1}, {"a"}, id="malformed-mark-fails-closed"),
    pytest.param({"a": "x"}, {"a": False}, set(), id="false-mark"),
    pytest.param({"a": {"b": "x"}}, {"a": [True]}, {"a.%", "a.b"}, id="wrong-kind-of-marks-fails-closed"),
]


@pytest.mark.parametrize(("values", "marks", "sensitive"), MARK_CASES)
def test_sensitive_entries(values: Any, marks: Any, sensitive: set[str]) -> None:
    flat = flatten(values, marks)
    assert {k for k in flat if flat.sensitive(k)} == sensitive


def test_keys_of_a_sensitive_map_are_secrets() -> None:
    flat = flatten({"m": {"key-secret-1": "v"}}, {"m": True})
    assert "key-secret-1" in flat.secrets
    assert "key-secret-1" not in flat.secrets.scrub(repr(flat))


@pytest.mark.parametrize(
    ("values", "message"),
    [
        pytest.param({"a": {"b": [object()]}}, '$["a"]["b"][0]: expected a JSON value', id="object-deep"),
        pytest.param({"a": {1: "x"}}, '$["a"]: expected an object with string keys, found a key of type int', id="int-key"),
        pytest.param(["x"], "$: expected an object of attribute values, found a list", id="values-not-object"),
    ],
)
def test_not_json_is_a_typed_error(values: Any, message: str) -> None:
    with pytest.raises(StateFormatError) as info:
        flatten(values)
    assert str(info.value).startswith(message)


def test_bad_values_in_a_state_name_the_resource() -> None:
    state = make_state([resource("test.a", {"a": [{1, 2}]})])
    with pytest.raises(StateFormatError, match=r'^test\.a: values\["a"\]\[0\]: expected a JSON value'):
        FlatState.of(state).attributes("test.a")


def test_deep_nesting_flattens_without_recursion_error() -> None:
    value: Any = "leaf"
    for _ in range(10_000):
        value = [value]
    flat = flatten({"d": value})
    assert flat["d" + ".0" * 10_000] == "leaf"


def test_nothing_passed_in_is_mutated() -> None:
    values = {"m": {"k": ["a", {"b": None}]}}
    marks = {"m": {"k": [True]}}
    before = json.dumps([values, marks])
    flatten(values, marks)
    assert json.dumps([values, marks]) == before


# -- resources by name ---------------------------------------------------------------------

NAMED = make_state(
    [
        resource("test.single", {"id": "s"}),
        resource("test.counted[0]", {"id": "c0"}, index=0),
        resource("test.counted[1]", {"id": "c1"}, index=1),
        resource('test.each["a.b"]', {"id": "ea"}, index="a.b"),
        resource("data.test.d", {"id": "d"}, mode="data"),
        resource("data.test.dc[0]", {"id": "dc"}, index=0, mode="data"),
        {**resource("test.single", {"id": "old"}), "deposed_key": "abcd1234"},
    ],
    modules=[
        {
            "address": "module.m",
            "resources": [resource("module.m.test.inner", {"id": "m"})],
            "child_modules": [
                {"address": 'module.m.module.k["x"]', "resources": [resource('module.m.module.k["x"].test.deep[2]', {"id": "k"}, index=2)]}
            ],
        }
    ],
)


@pytest.mark.parametrize(
    ("module", "name", "id_"),
    [
        pytest.param("", "test.single", "s", id="plain-current-not-deposed"),
        pytest.param("", "test.counted.0", "c0", id="go-count-key"),
        pytest.param("", "test.counted[1]", "c1", id="modern-count-address"),
        pytest.param("", 'test.each["a.b"]', "ea", id="for-each-address"),
        pytest.param("", "data.test.d", "d", id="data-source"),
        pytest.param("", "data.test.dc.0", "dc", id="data-source-count"),
        pytest.param("module.m", "test.inner", "m", id="child-module"),
        pytest.param('module.m.module.k["x"]', "test.deep.2", "k", id="keyed-grandchild-module"),
    ],
)
def test_resources_by_name(module: str, name: str, id_: str) -> None:
    assert FlatState.of(NAMED).attributes(name, module)["id"] == id_  # type: ignore[index]


@pytest.mark.parametrize(
    ("module", "name"),
    [
        pytest.param("", "test.counted", id="count-without-index"),
        pytest.param("", "test.inner", id="child-resource-not-in-root"),
        pytest.param("module.m", "test.single", id="root-resource-not-in-child"),
        pytest.param("", "module.m.test.inner", id="full-address-is-not-a-name"),
    ],
)
def test_resources_not_found(module: str, name: str) -> None:
    assert FlatState.of(NAMED).attributes(name, module) is None


def test_modules_listed() -> None:
    assert FlatState.of(NAMED).modules() == ["", "module.m", 'module.m.module.k["x"]']


# -- properties ----------------------------------------------------------------------------

_KEYS = st.text(alphabet="abcxyz_-", min_size=1, max_size=4)
_SCALARS = st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.text(max_size=5)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{key}.{k}" if key else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{key}.{i}")
    else:
        yield key, value


def _containers(value: Any, key: str = "") -> Iterator[tuple[str, int]]:
    if isinstance(value, dict):
        yield (f"{key}.%" if key else "%"), len(value)
        for k, v in value.items():
            yield from _containers(v, f"{key}.{k}" if key else k)
    elif isinstance(value, list):
        yield f"{key}.#", len(value)
        for i, v in enumerate(value):
            yield from _containers(v, f"{key}.{i}")


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_every_leaf_and_count_appears_under_its_flat_key(values: dict[str, Any]) -> None:
    # Keys here hold no dots and no "%"/"#", so no two flat keys collide.
    flat = flatten(values)
    expected_keys = set()
    for key, leaf in _leaves(values):
        if leaf is None:
            assert key not in flat
            continue
        expected = leaf if isinstance(leaf, str) else json.dumps(leaf)
        assert flat[key] == expected
        expected_keys.add(key)
    for key, count in _containers(values):
        assert flat[key] == str(count)
        expected_keys.add(key)
    assert set(flat) == expected_keys


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_flatten_of_parsed_json_matches_flatten_of_python(values: dict[str, Any]) -> None:
    assert dict(flatten(json.loads(json.dumps(values), parse_float=Decimal))) == dict(flatten(values))


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=5), st.data())
def test_a_marked_attribute_marks_exactly_its_entries(values: dict[str, Any], data: st.DataObject) -> None:
    marked = data.draw(st.sampled_from(sorted(values)))
    flat = flatten(values, {marked: True})
    for key in flat:
        under = key == marked or key.startswith(marked + ".")
        assert flat.sensitive(key) == under, key
    assert "(sensitive)" not in repr(flatten(values))


def test_module_entry_without_address_is_found_by_resource_address() -> None:
    # Terraform 1.5 writes child module entries without "address" in some states.
    state = State.from_dict(
        {
            "format_version": "1.0",
            "values": {
                "root_module": {
                    "child_modules": [
                        {"resources": [resource('module.files.local_file.f["a.txt"]', {"id": "1"}, index="a.txt")]}
                    ]
                }
            },
        }
    )
    flat = FlatState.of(state)
    assert flat.modules() == ["", "module.files"]
    assert flat.names("module.files") == ['local_file.f["a.txt"]']


def test_flat_output_is_read_only() -> None:
    output = FlatState.of(make_state(outputs={"o": {"value": 1}})).outputs["o"]
    assert (output.value, output.type) == ("1", "string")
    with pytest.raises(AttributeError):
        output.value = "2"
