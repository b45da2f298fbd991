"""A default refused for a sensitive attribute names where without the secret: everything under a sensitive
attribute is a secret, map keys and a dynamic value's keys included, so each key below it is ``["(sensitive)"]``
(as a plan's locations show one), and a cycle in a default is refused where it closes, not 100 levels down."""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mock_support import Direct, leak_check, write_tree
from secret_shapes import SHAPES, leaks

from plancheck.acceptance import MockPlanFailedError, MockProvider, MockSchemaError

ADDR = "acme/cloud"
SECRET = SHAPES["plain"]
NAN = "expected number, got NaN (cty has no NaN)"
CYCLE = "expected a JSON-like value (which holds no cycle), found a reference back to "
_INNER = {"inner": {"type": ["map", "number"], "computed": True}, "plain": {"type": "string", "optional": True}}
SCHEMA = {
    "resource_schemas": {"t": {"block": {"attributes": {
        "name": {"type": "string", "optional": True},
        "sdyn": {"type": "dynamic", "computed": True, "sensitive": True},
        "smap": {"type": ["map", "number"], "computed": True, "sensitive": True},
        "sobj": {"type": ["object", {"a": "string"}], "computed": True, "sensitive": True},
        "dyn": {"type": "dynamic", "computed": True},
        "snest": {"nested_type": {"attributes": _INNER, "nesting_mode": "single"}, "optional": True, "sensitive": True},
        "snestc": {"nested_type": {"attributes": _INNER, "nesting_mode": "single"}, "computed": True, "sensitive": True},
    }}}},
}  # fmt: skip
SCHEMA["data_source_schemas"] = {"t": SCHEMA["resource_schemas"]["t"]}
CONFIG = {"name": None, "sdyn": None, "smap": None, "sobj": None, "dyn": None, "snest": None, "snestc": None}


def _looped(key: str) -> dict[str, Any]:
    looped: dict[str, Any] = {key: []}
    looped[key].append(looped)
    return looped


#: (attribute, its default (given, or returned by a function), the message after ``{option}["t"]``)
REFUSED = [
    pytest.param("sdyn", {SECRET: math.nan}, f'["sdyn"]["(sensitive)"]: {NAN}', id="dynamic-key"),
    pytest.param("sdyn", [{"x": {SECRET: math.nan}}], f'["sdyn"][0]["(sensitive)"]["(sensitive)"]: {NAN}',
                 id="dynamic-key-below-an-index"),
    pytest.param("smap", {SECRET: math.nan}, f'["smap"]["(sensitive)"]: {NAN}', id="map-key"),
    pytest.param("sobj", {SECRET: "x"}, '["sobj"]["(sensitive)"]: object({a = string}) has no attribute (sensitive)',
                 id="object-unknown-attribute-no-suggestion"),
    pytest.param("snest", {"inner": {SECRET: math.nan}}, f'["snest"]["(sensitive)"]["(sensitive)"]: {NAN}',
                 id="nested-attribute-defaults"),
    pytest.param("snest", {SECRET: "x"}, '["snest"]["(sensitive)"]: t.snest has no attribute (sensitive)',
                 id="nested-attribute-unknown-name-no-suggestion"),
    pytest.param("snestc", {"inner": {SECRET: math.nan}}, f'["snestc"]["(sensitive)"]["(sensitive)"]: {NAN}',
                 id="computed-nested-attribute"),
    pytest.param("sdyn", _looped(SECRET), f'["sdyn"]["(sensitive)"][0]: {CYCLE}{{option}}["t"]["sdyn"]',
                 id="dynamic-cycle"),
    # Not sensitive: the keys are shown, and a cycle is named where it closes too.
    pytest.param("dyn", {"k": math.nan}, f'["dyn"]["k"]: {NAN}', id="plain-dynamic-key-shown"),
    pytest.param("dyn", _looped("k"), f'["dyn"]["k"][0]: {CYCLE}{{option}}["t"]["dyn"]', id="plain-dynamic-cycle"),
]

OPTIONS = ["mock_resources", "mock_data"]


def _refusal(call: Callable[[], Any]) -> MockSchemaError:
    with pytest.raises(MockSchemaError) as info:
        call()
    return info.value


def _everything_shown(error: MockSchemaError) -> str:
    """Every text the error gives: its message, repr, fields and the traceback a log or pytest would print."""
    fields = [error.where, error.problem, error.attribute, error.type_name, error.expected, *error.suggestions]
    return "\n".join([str(error), repr(error), *map(str, fields), *traceback.format_exception(error)])


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize(("attribute", "default", "message"), REFUSED)
def test_a_refused_default_names_no_key_below_a_sensitive_attribute(
    option: str, attribute: str, default: Any, message: str
) -> None:
    error = _refusal(lambda: MockProvider(SCHEMA, ADDR, **{option: {"t": {attribute: default}}}))
    assert str(error) == f'{option}["t"]' + message.replace("{option}", option)
    assert leaks(_everything_shown(error), {"plain": SECRET}) == []


FUNCTION_REFUSED = [row for row in REFUSED if row.values[0] not in ("snest",)]  # a function gives a whole value only


@pytest.mark.parametrize(("attribute", "default", "message"), FUNCTION_REFUSED)
def test_what_a_default_function_returns_is_refused_without_the_secret_too(attribute: str, default: Any, message: str) -> None:
    mock = MockProvider(SCHEMA, ADDR, mock_resources={"t": {attribute: lambda _config: default}})
    error = _refusal(lambda: Direct(mock).create("t", CONFIG))
    assert str(error) == 'mock_resources["t"]' + message.replace("{option}", "mock_resources")
    assert leaks(_everything_shown(error), {"plain": SECRET}) == []


@pytest.mark.e2e
def test_mock_plan_shows_a_refused_default_of_a_sensitive_attribute_without_its_key(
    tf_mock_plan: Any, tmp_path: Path, private_tmp: Path
) -> None:
    # At plan (override_during="plan") the function is called inside the served mock: Terraform prints its refusal.
    # A type is named for its provider; no nested attribute, which Terraform 1.0 does not take.
    schema = {"resource_schemas": {"cloud_t": {"block": {"attributes": {
        "name": {"type": "string", "optional": True},
        "smap": {"type": ["map", "number"], "computed": True, "sensitive": True},
    }}}}}  # fmt: skip
    mock = MockProvider(schema, ADDR, mock_resources={"cloud_t": {"smap": lambda _config: {SECRET: math.nan}}},
                        override_during="plan")
    module = write_tree(tmp_path / "m", {"main.tf": (
        'terraform {\n  required_providers {\n    cloud = { source = "acme/cloud" }\n  }\n}\n'
        'resource "cloud_t" "a" {\n  name = "x"\n}\n')})
    with leak_check(private_tmp) as found, pytest.raises(MockPlanFailedError) as info:
        tf_mock_plan(module, mocks=[mock])
    assert not found[0], found[0]
    assert f'mock_resources["cloud_t"]["smap"]["(sensitive)"]: {NAN}' in str(info.value)
    assert leaks(_everything_shown_of(info.value), {"plain": SECRET}) == []


def _everything_shown_of(error: BaseException) -> str:
    return "\n".join([str(error), repr(error), *traceback.format_exception(error)])
