"""The value cases shared by Go's ExpectKnownValue / ExpectKnownOutputValue[AtPath] tests, plan and state.

Go runs each case through a test provider whose ``test_resource`` has the attributes
below; the twins build the document that provider would produce. A case is the
resource configuration, the attribute checked, the matcher and the expected failure
(``None`` when the check passes) as (location inside the value, reason). Messages
are ours, not Go's: strings quoted as JSON, JSON type names, paths instead of
"list element index 0: " prefixes, every missing key or value named.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from plancheck import knownvalue as kv

# Every attribute of the test provider's resource, as an unset configuration leaves it.
UNSET: dict[str, Any] = {
    "bool_attribute": None,
    "float_attribute": None,
    "int_attribute": None,
    "list_attribute": None,
    "list_nested_block": [],
    "map_attribute": None,
    "set_attribute": None,
    "set_nested_block": [],
    "string_attribute": None,
}

# The output Go's output tests declare for each attribute.
OUTPUT_OF = {
    "bool_attribute": "bool_output",
    "float_attribute": "float64_output",
    "int_attribute": "int64_output",
    "list_attribute": "list_output",
    "list_nested_block": "list_nested_block_output",
    "map_attribute": "map_output",
    "set_attribute": "set_output",
    "set_nested_block": "set_nested_block_output",
    "string_attribute": "string_output",
}

# test_resource_one_output = test_resource.one, in Go's ...AtPath tests.
WHOLE_OUTPUT = "test_resource_one_output"


@dataclass(frozen=True)
class GoCase:
    name: str  # the Go test name after "CheckPlan_" / "CheckState_"
    config: dict[str, Any]
    attribute: str
    matcher: kv.Check
    expected: tuple[str, str] | None  # (location inside the value, reason), None = passes

    def values(self) -> dict[str, Any]:
        """The resource's attribute values (without the computed id)."""
        return {**UNSET, **self.config}


BOOL = {"bool_attribute": True}
FLOAT = {"float_attribute": Decimal("1.23")}
INT = {"int_attribute": 123}
LIST = {"list_attribute": ["value1", "value2"]}
LIST_BLOCK = {
    "list_nested_block": [{"list_nested_block_attribute": "str"}, {"list_nested_block_attribute": "rts"}]
}
MAP = {"map_attribute": {"key1": "value1", "key2": "value2"}}
SET = {"set_attribute": ["value1", "value2"]}
SET_BLOCK = {
    "set_nested_block": [{"set_nested_block_attribute": "rts"}, {"set_nested_block_attribute": "str"}]
}
STRING = {"string_attribute": "str"}
ALL_SET = {
    **BOOL,
    **FLOAT,
    **INT,
    **LIST,
    "list_nested_block": [{"list_nested_block_attribute": "str"}],
    "map_attribute": {"key1": "value1"},
    **SET,
    "set_nested_block": [{"set_nested_block_attribute": "str"}],
    **STRING,
}

S = kv.StringExact


def _null_cases() -> list[GoCase]:
    out = []
    for attribute in UNSET:
        matcher: kv.Check = kv.Null()
        if attribute == "list_nested_block":
            matcher = kv.ListExact([])
        elif attribute == "set_nested_block":
            matcher = kv.SetExact([])
        out.append(GoCase("AttributeValueNull", {}, attribute, matcher, None))
    return out


def _not_null_cases() -> list[GoCase]:
    out = []
    for attribute in UNSET:
        matcher: kv.Check = kv.NotNull()
        if attribute == "list_nested_block":
            matcher = kv.ListSizeExact(1)
        elif attribute == "set_nested_block":
            matcher = kv.SetSizeExact(1)
        out.append(GoCase("AttributeValueNotNull", ALL_SET, attribute, matcher, None))
    return out


GO_CASES: list[GoCase] = [
    *_null_cases(),
    *_not_null_cases(),
    GoCase("Bool", BOOL, "bool_attribute", kv.Bool(True), None),
    GoCase(
        "Bool_KnownValueWrongType",
        BOOL,
        "bool_attribute",
        kv.Float64Exact(1.23),
        ("", "expected number value for Float64Exact check, got: bool; expected 1.23, got true"),
    ),
    GoCase(
        "Bool_KnownValueWrongValue",
        BOOL,
        "bool_attribute",
        kv.Bool(False),
        ("", "expected value false for Bool check, got: true"),
    ),
    GoCase("Float64", FLOAT, "float_attribute", kv.Float64Exact(1.23), None),
    GoCase(
        "Float64_KnownValueWrongType",
        FLOAT,
        "float_attribute",
        S("str"),
        ("", "expected string value for StringExact check, got: number; expected \"str\", got 1.23"),
    ),
    GoCase(
        "Float64_KnownValueWrongValue",
        FLOAT,
        "float_attribute",
        kv.Float64Exact(3.21),
        ("", "expected value 3.21 for Float64Exact check, got: 1.23"),
    ),
    GoCase("Int64", INT, "int_attribute", kv.Int64Exact(123), None),
    GoCase(
        "Int64_KnownValueWrongValue",
        INT,
        "int_attribute",
        kv.Int64Exact(321),
        ("", "expected value 321 for Int64Exact check, got: 123"),
    ),
    GoCase("List", LIST, "list_attribute", kv.ListExact([S("value1"), S("value2")]), None),
    GoCase(
        "List_KnownValueWrongType",
        LIST,
        "list_attribute",
        kv.MapExact({}),
        ("", 'expected object value for MapExact check, got: array; expected {}, got ["value1", "value2"]'),
    ),
    GoCase(
        "List_KnownValueWrongValue",
        LIST,
        "list_attribute",
        kv.ListExact([S("value3"), S("value4")]),
        ("[0]", 'expected value "value3" for StringExact check, got: "value1"'),
    ),
    GoCase("ListPartial", LIST, "list_attribute", kv.ListPartial({0: S("value1")}), None),
    GoCase(
        "ListPartial_KnownValueWrongValue",
        LIST,
        "list_attribute",
        kv.ListPartial({0: S("value3")}),
        ("[0]", 'expected value "value3" for StringExact check, got: "value1"'),
    ),
    GoCase("ListElements", LIST, "list_attribute", kv.ListSizeExact(2), None),
    GoCase(
        "ListElements_WrongNum",
        LIST,
        "list_attribute",
        kv.ListSizeExact(3),
        (
            "",
            'expected 3 elements for ListSizeExact check, got 2 elements; expected <list of 3 elements>, '
            'got ["value1", "value2"]',
        ),
    ),
    GoCase(
        "ListNestedBlock",
        LIST_BLOCK,
        "list_nested_block",
        kv.ListExact(
            [
                kv.MapExact({"list_nested_block_attribute": S("str")}),
                kv.MapExact({"list_nested_block_attribute": S("rts")}),
            ]
        ),
        None,
    ),
    GoCase(
        "ListNestedBlockPartial",
        LIST_BLOCK,
        "list_nested_block",
        kv.ListPartial({1: kv.MapExact({"list_nested_block_attribute": S("rts")})}),
        None,
    ),
    GoCase("ListNestedBlockElements", LIST_BLOCK, "list_nested_block", kv.ListSizeExact(2), None),
    GoCase("Map", MAP, "map_attribute", kv.MapExact({"key1": S("value1"), "key2": S("value2")}), None),
    GoCase(
        "Map_KnownValueWrongType",
        MAP,
        "map_attribute",
        kv.ListExact([]),
        ("", 'expected array value for ListExact check, got: object; expected [], got {"key1": "value1", "key2": "value2"}'),
    ),
    GoCase(
        "Map_KnownValueWrongValue",
        MAP,
        "map_attribute",
        kv.MapExact({"key3": S("value3"), "key4": S("value4")}),
        (
            "",
            'expected 2 elements for MapExact check, got 2 elements: actual value has extra key(s): "key1", "key2"; '
            'actual value is missing key(s): "key3", "key4"; expected {"key3": "value3", "key4": "value4"}, got {"key1": "value1", "key2": "value2"}',
        ),
    ),
    GoCase("MapPartial", MAP, "map_attribute", kv.MapPartial({"key1": S("value1")}), None),
    GoCase(
        "MapPartial_KnownValueWrongValue",
        MAP,
        "map_attribute",
        kv.MapPartial({"key3": S("value1")}),
        ("", 'missing key "key3" for MapPartial check; expected {"key3": "value1", ...}, got {"key1": "value1", "key2": "value2"}'),
    ),
    GoCase("MapElements", MAP, "map_attribute", kv.MapSizeExact(2), None),
    GoCase(
        "MapElements_WrongNum",
        MAP,
        "map_attribute",
        kv.MapSizeExact(3),
        ("", "expected 3 elements for MapSizeExact check, got 2 elements; expected <map of 3 elements>, got {\"key1\": \"value1\", \"key2\": \"value2\"}"),
    ),
    GoCase("Number", INT, "int_attribute", kv.NumberExact(123), None),
    GoCase(
        "Number_KnownValueWrongValue",
        INT,
        "int_attribute",
        kv.NumberExact(321),
        ("", "expected value 321 for NumberExact check, got: 123"),
    ),
    GoCase("Set", SET, "set_attribute", kv.SetExact([S("value2"), S("value1")]), None),
    GoCase(
        "Set_KnownValueWrongValue",
        SET,
        "set_attribute",
        kv.SetExact([S("value1"), S("value3")]),
        ("", 'missing value "value3" for SetExact check; unmatched element [1]: "value2"; expected ["value1", "value3"], got ["value1", "value2"]'),
    ),
    GoCase("SetPartial", SET, "set_attribute", kv.SetPartial([S("value2")]), None),
    GoCase(
        "SetPartial_KnownValueWrongValue",
        SET,
        "set_attribute",
        kv.SetPartial([S("value3")]),
        ("", 'missing value "value3" for SetPartial check; expected ["value3", ...], got ["value1", "value2"]'),
    ),
    GoCase("SetElements", SET, "set_attribute", kv.SetSizeExact(2), None),
    GoCase(
        "SetNestedBlock",
        SET_BLOCK,
        "set_nested_block",
        kv.SetExact(
            [
                kv.MapExact({"set_nested_block_attribute": S("str")}),
                kv.MapExact({"set_nested_block_attribute": S("rts")}),
            ]
        ),
        None,
    ),
    GoCase(
        "SetNestedBlockPartial",
        SET_BLOCK,
        "set_nested_block",
        kv.SetPartial([kv.MapExact({"set_nested_block_attribute": S("rts")})]),
        None,
    ),
    GoCase("SetNestedBlockElements", SET_BLOCK, "set_nested_block", kv.SetSizeExact(2), None),
    GoCase("String", STRING, "string_attribute", S("str"), None),
    GoCase(
        "String_KnownValueWrongType",
        STRING,
        "string_attribute",
        kv.Bool(True),
        ("", "expected bool value for Bool check, got: string; expected true, got \"str\""),
    ),
    GoCase(
        "String_KnownValueWrongValue",
        STRING,
        "string_attribute",
        S("rts"),
        ("", 'expected value "rts" for StringExact check, got: "str"'),
    ),
]


def case_id(prefix: str, case: GoCase) -> str:
    """``TestExpectKnownValue_CheckPlan_Bool`` (with the attribute for the multi-check Go tests)."""
    text = f"{prefix}_{case.name}"
    if case.name.startswith("AttributeValue"):
        text += f"-{case.attribute}"
    return text


def failure_text(check: str, address: str, location: str, reason: str) -> str:
    """The one-failure message our checks give: ``Check: address: location: reason``."""
    parts = [check, address]
    if location:
        parts.append(location)
    parts.append(reason)
    return ": ".join(parts)
