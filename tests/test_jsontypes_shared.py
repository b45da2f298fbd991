"""The JSON kind predicates, ``plural`` and the children-first fold live once, in tfjsonpath's toolkit, and the layers above reuse them.

Each meaning has its own name there: ``is_array`` is a JSON array as a parser builds it (list,
tuple: what matchers and comparisons accept), ``is_sequence`` any sequence but text or bytes (what a
path indexes and a marks tree may be). The schema validator's array is jsonschema's (a list only):
pinned too, so the difference is a decision, not drift.
"""

from __future__ import annotations

from collections import deque
from types import MappingProxyType
from typing import Any

import pytest

from plancheck import _redact
from plancheck._checking import equality, matcher
from plancheck._loading import validate
from plancheck.knownvalue import _collections, _exact, _funcs, _scalars
from plancheck.snapshot import _values
from plancheck.statecheck import _compare
from plancheck.tfconfig import _base as tfconfig_base
from plancheck.tfconfig import _blocks
from tfjsonpath import _jsontypes, _path


@pytest.mark.parametrize(
    ("user", "name"),
    [
        pytest.param(_redact, "is_object", id="redact-is_object"),
        pytest.param(_redact, "is_sequence", id="redact-is_sequence"),
        pytest.param(_path, "is_sequence", id="paths-is_sequence"),
        pytest.param(_values, "is_object", id="snapshot-is_object"),
        pytest.param(_values, "is_sequence", id="snapshot-is_sequence"),
        pytest.param(matcher, "is_object", id="jsonmodel-is_object"),
        pytest.param(matcher, "is_array", id="jsonmodel-is_array"),
        pytest.param(equality, "is_array", id="equality-is_array"),
        pytest.param(equality, "json_type", id="equality-json_type"),
        pytest.param(_collections, "is_array", id="knownvalue-is_array"),
        pytest.param(_exact, "is_json_scalar", id="exact-is_json_scalar"),
        pytest.param(_scalars, "is_number", id="scalars-is_number"),
        pytest.param(_funcs, "json_type", id="funcs-json_type"),
        pytest.param(_compare, "is_array", id="statecheck-is_array"),
        pytest.param(_exact, "json_nodes", id="exact-json_nodes"),
        pytest.param(_exact, "fold_nodes", id="exact-fold_nodes"),
        pytest.param(tfconfig_base, "json_nodes", id="tfconfig-like-json_nodes"),
        pytest.param(tfconfig_base, "fold_nodes", id="tfconfig-like-fold_nodes"),
        pytest.param(validate, "is_object", id="validate-is_object"),
        pytest.param(matcher, "plural", id="knownvalue-plural"),
        pytest.param(_compare, "plural", id="statecheck-plural"),
        pytest.param(_blocks, "plural", id="tfconfig-plural"),
    ],
)
def test_users_share_the_one_implementation(user: Any, name: str) -> None:
    assert getattr(user, name) is getattr(_jsontypes, name)


@pytest.mark.parametrize(
    "name", ["is_array", "is_json_scalar", "is_number", "is_sequence", "json_type", "_is_array", "_is_object"]
)
@pytest.mark.parametrize("module", [matcher, _values], ids=["matcher", "snapshot"])
def test_no_module_above_defines_a_predicate_again(module: Any, name: str) -> None:
    found = getattr(module, name, None)
    assert found is None or found is getattr(_jsontypes, name.lstrip("_"))


@pytest.mark.parametrize(
    ("count", "word", "words", "text"),
    [
        pytest.param(0, "key", None, "0 keys", id="zero-is-plural"),
        pytest.param(1, "key", None, "1 key", id="one"),
        pytest.param(2, "more label", None, "2 more labels", id="two-words"),
        pytest.param(1, "index", "indexes", "1 index", id="one-irregular"),
        pytest.param(3, "index", "indexes", "3 indexes", id="many-irregular"),
    ],
)
def test_plural(count: int, word: str, words: str | None, text: str) -> None:
    assert _jsontypes.plural(count, word, words) == text


@pytest.mark.parametrize(
    ("value", "sequence", "array", "schema"),
    [
        pytest.param([1], True, True, True, id="list"),
        pytest.param((1,), True, True, False, id="tuple"),
        pytest.param(range(2), True, False, False, id="range"),
        pytest.param(deque([1]), True, False, False, id="deque"),
        pytest.param("ab", False, False, False, id="str"),
        pytest.param(b"ab", False, False, False, id="bytes"),
        pytest.param(bytearray(b"ab"), False, False, False, id="bytearray"),
        pytest.param({}, False, False, False, id="dict"),
        pytest.param(validate.Deferred("array"), False, False, True, id="deferred-array"),
    ],
)
def test_array_predicates(value: Any, sequence: bool, array: bool, schema: bool) -> None:
    assert (_jsontypes.is_sequence(value), _jsontypes.is_array(value), validate._schema_array(value)) == (
        sequence,
        array,
        schema,
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param({}, True, id="dict"),
        pytest.param(MappingProxyType({"a": 1}), True, id="mapping"),
        pytest.param([], False, id="list"),
        pytest.param(None, False, id="null"),
        pytest.param("{}", False, id="str"),
    ],
)
def test_object_predicate(value: Any, expected: bool) -> None:
    assert _jsontypes.is_object(value) is expected
    assert validate._schema_object(value) is expected


@pytest.mark.parametrize(
    ("json_type", "expected"),
    [pytest.param("object", True, id="deferred-object"), pytest.param("array", False, id="deferred-array")],
)
def test_the_validator_sees_a_deferred_value_by_its_json_type(json_type: str, expected: bool) -> None:
    assert validate._schema_object(validate.Deferred(json_type)) is expected


@pytest.mark.parametrize(
    ("value", "kind", "described"),
    [
        pytest.param(range(2), "an array", "an array of 2 elements", id="a-sequence-a-path-may-index"),
        pytest.param(deque(), "an array", "an array of 0 elements", id="deque"),
        pytest.param(b"ab", "a non-JSON value of type bytes", "a non-JSON value of type bytes", id="bytes"),
    ],
)
def test_a_path_names_what_it_may_index_an_array(value: Any, kind: str, described: str) -> None:
    assert (_jsontypes.json_kind(value), _jsontypes.describe_json_type(value)) == (kind, described)
