"""The JSON type predicates and ``plural`` live once, in tfjsonpath, and the layers above reuse them.

The copies that must differ are pinned too, so the difference is a decision, not drift: the
matchers' ``is_array`` takes only what a JSON parser builds (list, tuple), the schema validator's
only a list (as ``jsonschema`` does).
"""

from __future__ import annotations

from collections import deque
from types import MappingProxyType
from typing import Any

import pytest

from plancheck import _redact
from plancheck._checking import matcher
from plancheck._loading import validate
from plancheck.statecheck import _compare
from plancheck.tfconfig import _blocks
from tfjsonpath import _jsontypes


@pytest.mark.parametrize(
    ("user", "name"),
    [
        pytest.param(_redact, "is_object", id="redact-is_object"),
        pytest.param(_redact, "is_array", id="redact-is_array"),
        pytest.param(matcher, "is_object", id="jsonmodel-is_object"),
        pytest.param(validate, "is_object", id="validate-is_object"),
        pytest.param(matcher, "plural", id="knownvalue-plural"),
        pytest.param(_compare, "plural", id="statecheck-plural"),
        pytest.param(_blocks, "plural", id="tfconfig-plural"),
    ],
)
def test_users_share_the_one_implementation(user: Any, name: str) -> None:
    assert getattr(user, name) is getattr(_jsontypes, name)


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
    ("value", "paths", "matchers", "schema"),
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
def test_array_predicates(value: Any, paths: bool, matchers: bool, schema: bool) -> None:
    assert (_jsontypes.is_array(value), matcher.is_array(value), validate._is_array(value)) == (
        paths,
        matchers,
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
    assert validate._is_object(value) is expected


@pytest.mark.parametrize(
    ("json_type", "expected"),
    [pytest.param("object", True, id="deferred-object"), pytest.param("array", False, id="deferred-array")],
)
def test_the_validator_sees_a_deferred_value_by_its_json_type(json_type: str, expected: bool) -> None:
    assert validate._is_object(validate.Deferred(json_type)) is expected
