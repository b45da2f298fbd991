"""The deprecated ExpectNullOutputValue[AtPath]: they warn on construction, and twin Go's tests.

Go's tests declare an output per attribute of ``test_resource.one`` (``ExpectNullOutputValue``)
or the whole resource as output ``resource`` (``...AtPath``); an unset attribute is null, an
unset nested block an empty list.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from plancheck import ExpectNullOutputValue, ExpectNullOutputValueAtPath, Plan, PlanCheckError
from tfjsonpath import New

SET: dict[str, Any] = {
    "string_attribute": "str",
    "list_attribute": ["value1"],
    "set_attribute": ["value1"],
    "map_attribute": {"key1": "value1"},
    "list_nested_block": [{"list_nested_block_attribute": "str"}],
    "set_nested_block": [{"set_nested_block_attribute": "str"}],
}
UNSET: dict[str, Any] = {
    "string_attribute": None,
    "list_attribute": None,
    "set_attribute": None,
    "map_attribute": None,
    "list_nested_block": [{"list_nested_block_attribute": None}],
    "set_nested_block": [],
}


def plan_of(values: dict[str, Any]) -> Plan:
    outputs = {
        name: {"actions": ["create"], "before": None, "after": value, "after_unknown": False}
        for name, value in values.items()
    }
    outputs["list_nested_block_attribute"] = {
        "actions": ["create"],
        "after": values["list_nested_block"][0]["list_nested_block_attribute"],
        "after_unknown": False,
    }
    outputs["resource"] = {"actions": ["create"], "after": values, "after_unknown": {"id": True}}
    return Plan.from_dict({"format_version": "1.2", "output_changes": outputs})


NOT_NULL = "expected a null value, but it is known: "
NESTED = New("list_nested_block").AtSliceIndex(0).AtMapKey("list_nested_block_attribute")

CASES: list[tuple[str, str, Any, dict[str, Any], str | None]] = []
for kind, attribute in [
    ("StringAttribute", "string_attribute"),
    ("ListAttribute", "list_attribute"),
    ("SetAttribute", "set_attribute"),
    ("MapAttribute", "map_attribute"),
]:
    shown = {
        "string_attribute": '"str"',
        "list_attribute": '["value1"]',
        "set_attribute": '["value1"]',
        "map_attribute": '{"key1": "value1"}',
    }[attribute]
    for suffix, values, message in [
        ("EmptyConfig", UNSET, None),
        ("NullConfig", UNSET, None),
        ("ExpectErrorNotNull", SET, NOT_NULL + shown),
    ]:
        CASES.append((f"Test_ExpectNullOutputValue_{kind}_{suffix}", attribute, None, values, message))
        CASES.append(
            (f"Test_ExpectNullOutputValueAtPath_{kind}_{suffix}", "resource", New(attribute), values, message)
        )
CASES += [
    (
        "Test_ExpectNullOutputValue_ListNestedBlock_EmptyConfig",
        "list_nested_block_attribute",
        None,
        UNSET,
        None,
    ),
    (
        "Test_ExpectNullOutputValue_ListNestedBlock_NullConfig",
        "list_nested_block_attribute",
        None,
        UNSET,
        None,
    ),
    (
        "Test_ExpectNullOutputValue_ListNestedBlock_ExpectErrorNotNull",
        "list_nested_block_attribute",
        None,
        SET,
        NOT_NULL + '"str"',
    ),
    ("Test_ExpectNullOutputValueAtPath_ListNestedBlock_EmptyConfig", "resource", NESTED, UNSET, None),
    ("Test_ExpectNullOutputValueAtPath_ListNestedBlock_NullConfig", "resource", NESTED, UNSET, None),
    (
        "Test_ExpectNullOutputValueAtPath_ListNestedBlock_ExpectErrorNotNull",
        "resource",
        NESTED,
        SET,
        NOT_NULL + '"str"',
    ),
    (
        "Test_ExpectNullOutputValue_SetNestedBlock_NullConfig_ExpectErrorNotNull",
        "set_nested_block",
        None,
        UNSET,
        NOT_NULL + "[]",
    ),
    (
        "Test_ExpectNullOutputValueAtPath_SetNestedBlock_NullConfig_ExpectErrorNotNull",
        "resource",
        New("set_nested_block"),
        UNSET,
        NOT_NULL + "[]",
    ),
    (
        "Test_ExpectNullOutputValue_MapAttribute_PartiallyNullConfig_ExpectError",
        "key2",
        None,
        {**SET, "map_attribute": {"key1": "value1", "key2": None}},
        "output not found in plan OutputChanges; the plan has no similar output name",
    ),
    (
        "Test_ExpectNullOutputValueAtPath_MapAttribute_PartiallyNullConfig_ExpectError",
        "resource",
        New("map_attribute").AtMapKey("key3"),
        SET,
        'expected a null value, but it is not present (no key "key3" in an object with 1 key at map_attribute; did you mean "key1"?)',
    ),
]


def build(name: str, path: Any) -> ExpectNullOutputValue | ExpectNullOutputValueAtPath:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return ExpectNullOutputValue(name) if path is None else ExpectNullOutputValueAtPath(name, path)


@pytest.mark.parametrize(
    ("name", "path", "values", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_go_twins(name: str, path: Any, values: dict[str, Any], message: str | None) -> None:
    check = build(name, path)
    found = [f.message for f in check.failures(plan_of(values))]
    assert found == ([] if message is None else [message])


@pytest.mark.parametrize(
    ("make", "text"),
    [
        (
            lambda: ExpectNullOutputValue("o"),
            "ExpectNullOutputValue is deprecated (as in Go's plancheck); "
            "use ExpectKnownOutputValue(name, knownvalue.Null()) instead",
        ),
        (
            lambda: ExpectNullOutputValueAtPath("o", New("a")),
            "ExpectNullOutputValueAtPath is deprecated (as in Go's plancheck); "
            "use ExpectKnownOutputValueAtPath(name, path, knownvalue.Null()) instead",
        ),
    ],
    ids=["ExpectNullOutputValue", "ExpectNullOutputValueAtPath"],
)
def test_construction_warns_at_the_callers_line(make: Any, text: str) -> None:
    with pytest.warns(DeprecationWarning, match="is deprecated") as caught:
        make()
    assert len(caught) == 1
    assert str(caught[0].message) == text
    assert caught[0].filename == __file__


def test_the_deprecated_checks_keep_their_names_and_semantics() -> None:
    check = build("string_attribute", None)
    assert repr(check) == "ExpectNullOutputValue('string_attribute')"
    assert check == build("string_attribute", None)
    with pytest.raises(PlanCheckError) as info:
        check.CheckPlan(plan_of(SET))
    assert (
        str(info.value)
        == 'ExpectNullOutputValue: output.string_attribute: expected a null value, but it is known: "str"'
    )
