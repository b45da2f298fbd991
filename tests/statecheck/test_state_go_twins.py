"""Python twins of Go's statecheck tests: ExpectKnownValue, ExpectKnownOutputValue[AtPath],
ExpectSensitiveValue, CompareValue, CompareValuePairs and CompareValueCollection.

Each Go test applies a configuration through a test provider and checks the state;
each twin builds the state that configuration gives and pins our exact message.
"""

from __future__ import annotations

from typing import Any

import pytest
from state_support import make_state  # also loads known_go_cases

from known_go_cases import GO_CASES, OUTPUT_OF, WHOLE_OUTPUT, GoCase, case_id, failure_text  # isort: skip

from plancheck import StateCheckError, compare
from plancheck import knownvalue as kv
from plancheck._documents.state import State
from plancheck.statecheck import (
    CompareValue,
    CompareValueCollection,
    CompareValuePairs,
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectSensitiveValue,
    StateCheck,
    assert_state,
)
from tfjsonpath import New, Path

ONE = "test_resource.one"
TWO = "test_resource.two"


def state_of(case: GoCase) -> State:
    values = {"id": "test", **case.values()}
    outputs: dict[str, Any] = {OUTPUT_OF[name]: value for name, value in case.values().items()}
    outputs[WHOLE_OUTPUT] = values
    return make_state({ONE: values}, outputs)


def messages(check: StateCheck, state: State) -> list[str]:
    return [str(f) for f in check.failures(state)]


def expected(check: str, address: str, prefix: str, case: GoCase) -> list[str]:
    if case.expected is None:
        return []
    location, reason = case.expected
    return [failure_text(check, address, prefix + location, reason)]


# -- known values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case", GO_CASES, ids=[case_id("TestExpectKnownValue_CheckState", c) for c in GO_CASES]
)
def test_expect_known_value(case: GoCase) -> None:
    check = ExpectKnownValue(ONE, New(case.attribute), case.matcher)
    assert messages(check, state_of(case)) == expected("ExpectKnownValue", ONE, case.attribute, case)


@pytest.mark.parametrize(
    "case", GO_CASES, ids=[case_id("TestExpectKnownOutputValue_CheckState", c) for c in GO_CASES]
)
def test_expect_known_output_value(case: GoCase) -> None:
    name = OUTPUT_OF[case.attribute]
    check = ExpectKnownOutputValue(name, case.matcher)
    assert messages(check, state_of(case)) == expected("ExpectKnownOutputValue", f"output.{name}", "", case)


@pytest.mark.parametrize(
    "case", GO_CASES, ids=[case_id("TestExpectKnownOutputValueAtPath_CheckState", c) for c in GO_CASES]
)
def test_expect_known_output_value_at_path(case: GoCase) -> None:
    check = ExpectKnownOutputValueAtPath(WHOLE_OUTPUT, New(case.attribute), case.matcher)
    want = expected("ExpectKnownOutputValueAtPath", f"output.{WHOLE_OUTPUT}", case.attribute, case)
    assert messages(check, state_of(case)) == want


def _contains(part: str) -> kv.Check:
    def check(text: str) -> None:
        if part not in text:
            raise ValueError(f"expected string {text!r} to contain {part!r} for StringContains check")

    return kv.StringFunc(check)


CUSTOM_SET = make_state(
    {
        ONE: {
            "set_nested_block": [
                {"set_nested_block_attribute": "girts"},
                {"set_nested_block_attribute": "string"},
            ]
        }
    }
)
CUSTOM_STRING = make_state(
    {ONE: {"string_attribute": "string"}}, {"string_output": "string", "obj": {"s": "string"}}
)
BOOL_STATE = make_state(
    {ONE: {"bool_attribute": True}}, {"bool_output": True, WHOLE_OUTPUT: {"bool_attribute": True}}
)

KNOWN_EXTRA: list[tuple[str, StateCheck, State, list[str]]] = [
    (
        "TestExpectKnownValue_CheckState_ResourceNotFound",
        ExpectKnownValue(TWO, New("bool_attribute"), kv.Bool(True)),
        BOOL_STATE,
        [f"ExpectKnownValue: {TWO}: resource not found in state; closest: {ONE}"],
    ),
    (
        "TestExpectKnownOutputValue_CheckState_OutputNotFound",
        ExpectKnownOutputValue("bool_not_found", kv.Bool(True)),
        BOOL_STATE,
        [
            "ExpectKnownOutputValue: output.bool_not_found: output not found in state; the state has no similar output name"
        ],
    ),
    (
        "TestExpectKnownOutputValueAtPath_CheckState_ResourceNotFound",
        ExpectKnownOutputValueAtPath("test_resource_two_output", New("bool_attribute"), kv.Bool(True)),
        BOOL_STATE,
        [
            "ExpectKnownOutputValueAtPath: output.test_resource_two_output: output not found in state; "
            "closest: test_resource_one_output"
        ],
    ),
    (
        "TestExpectKnownValue_CheckState_SetNestedBlock_Custom",
        ExpectKnownValue(
            ONE,
            New("set_nested_block"),
            kv.SetExact(
                [
                    kv.MapExact({"set_nested_block_attribute": _contains("str")}),
                    kv.MapExact({"set_nested_block_attribute": _contains("rts")}),
                ]
            ),
        ),
        CUSTOM_SET,
        [],
    ),
    (
        "TestExpectKnownValue_CheckState_String_Custom",
        ExpectKnownValue(ONE, New("string_attribute"), _contains("tri")),
        CUSTOM_STRING,
        [],
    ),
    (
        "TestExpectKnownValue_CheckState_String_Custom-fails",
        ExpectKnownValue(ONE, New("string_attribute"), _contains("zzz")),
        CUSTOM_STRING,
        [
            f"ExpectKnownValue: {ONE}: string_attribute: expected string 'string' to contain 'zzz' "
            'for StringContains check; expected <StringFunc check>, got "string"'
        ],
    ),
    (
        "TestExpectKnownOutputValue_CheckState_String_Custom",
        ExpectKnownOutputValue("string_output", _contains("tri")),
        CUSTOM_STRING,
        [],
    ),
    (
        "TestExpectKnownOutputValueAtPath_CheckState_String_Custom",
        ExpectKnownOutputValueAtPath("obj", New("s"), _contains("tri")),
        CUSTOM_STRING,
        [],
    ),
    (
        "TestExpectKnownValue_CheckState_UnknownAttributeType-unrecognised-type",
        ExpectKnownValue("example_resource.test", New("attribute"), kv.Int64Exact(123)),
        make_state({"example_resource.test": {"attribute": {123}}}),
        [
            "ExpectKnownValue: example_resource.test: attribute: expected number value for Int64Exact check, "
            "got: non-JSON set; expected 123, got <set>"
        ],
    ),
    (
        "TestExpectKnownOutputValue_CheckState_UnknownAttributeType-unrecognised-type",
        ExpectKnownOutputValue("float32_output", kv.Int64Exact(123)),
        make_state(outputs={"float32_output": {123}}),
        [
            "ExpectKnownOutputValue: output.float32_output: expected number value for Int64Exact check, "
            "got: non-JSON set; expected 123, got <set>"
        ],
    ),
    (
        "TestExpectKnownOutputValueAtPath_CheckState_UnknownAttributeType-unrecognised-type",
        ExpectKnownOutputValueAtPath("obj", New("float32_output"), kv.Int64Exact(123)),
        make_state(outputs={"obj": {"float32_output": {123}}}),
        [
            "ExpectKnownOutputValueAtPath: output.obj: float32_output: expected number value for Int64Exact "
            "check, got: non-JSON set; expected 123, got <set>"
        ],
    ),
]


@pytest.mark.parametrize(
    ("check", "state", "expected_messages"), [k[1:] for k in KNOWN_EXTRA], ids=[k[0] for k in KNOWN_EXTRA]
)
def test_known_value_extras(check: StateCheck, state: State, expected_messages: list[str]) -> None:
    assert messages(check, state) == expected_messages


# -- ExpectSensitiveValue ----------------------------------------------------------------------

SENSITIVE_STATE = make_state(
    {
        ONE: {
            "id": "test",
            # Go's value is "test"; scrubbing secrets by value would then blank "test_resource" out.
            "sensitive_string_attribute": "secret-string",
            "sensitive_list_attribute": ["value1"],
            "sensitive_set_attribute": ["value1"],
            "sensitive_map_attribute": {"key1": "value1"},
            "list_nested_block_sensitive_attribute": [
                {
                    "list_nested_block_attribute": "plain",
                    "sensitive_list_nested_block_attribute": "sensitive-test",
                }
            ],
            "set_nested_block_sensitive_attribute": [
                {
                    "set_nested_block_attribute": "plain",
                    "sensitive_set_nested_block_attribute": "sensitive-test",
                }
            ],
        }
    },
    sensitive={
        ONE: {
            "sensitive_string_attribute": True,
            "sensitive_list_attribute": True,
            "sensitive_set_attribute": True,
            "sensitive_map_attribute": True,
            "list_nested_block_sensitive_attribute": [{"sensitive_list_nested_block_attribute": True}],
            # Terraform marks a whole set when an element holds a sensitive value.
            "set_nested_block_sensitive_attribute": True,
        }
    },
)

SENSITIVE: list[tuple[str, StateCheck, list[str]]] = [
    (
        "Test_ExpectSensitiveValue_SensitiveStringAttribute",
        ExpectSensitiveValue(ONE, New("sensitive_string_attribute")),
        [],
    ),
    (
        "Test_ExpectSensitiveValue_SensitiveListAttribute",
        ExpectSensitiveValue(ONE, New("sensitive_list_attribute")),
        [],
    ),
    (
        "Test_ExpectSensitiveValue_SensitiveSetAttribute",
        ExpectSensitiveValue(ONE, New("sensitive_set_attribute")),
        [],
    ),
    (
        "Test_ExpectSensitiveValue_SensitiveMapAttribute",
        ExpectSensitiveValue(ONE, New("sensitive_map_attribute")),
        [],
    ),
    (
        "Test_ExpectSensitiveValue_ListNestedBlock_SensitiveAttribute",
        ExpectSensitiveValue(
            ONE,
            New("list_nested_block_sensitive_attribute")
            .AtSliceIndex(0)
            .AtMapKey("sensitive_list_nested_block_attribute"),
        ),
        [],
    ),
    (
        "Test_ExpectSensitiveValue_SetNestedBlock_SensitiveAttribute",
        ExpectSensitiveValue(ONE, New("set_nested_block_sensitive_attribute")),
        [],
    ),
    (
        "Test_ExpectSensitiveValue_ExpectError_ResourceNotFound",
        ExpectSensitiveValue(TWO, New("set_attribute")),
        [f"ExpectSensitiveValue: {TWO}: resource not found in state; closest: {ONE}"],
    ),
]


@pytest.mark.parametrize(
    ("check", "expected_messages"), [s[1:] for s in SENSITIVE], ids=[s[0] for s in SENSITIVE]
)
def test_expect_sensitive_value(check: StateCheck, expected_messages: list[str]) -> None:
    assert messages(check, SENSITIVE_STATE) == expected_messages


# -- CompareValue ------------------------------------------------------------------------------


def bool_state(value: bool) -> State:
    return make_state({ONE: {"bool_attribute": value}})


COMPARE_VALUE: list[tuple[str, compare.ValueComparer, list[bool], list[str]]] = [
    (
        "TestCompareValue_CheckState_ValuesSame_ValueDiffersError",
        compare.ValuesSame(),
        [True, True, False],
        [
            f"CompareValue: {ONE}: bool_attribute: expected values to be the same, but they differ: "
            "true != false (3 values collected)"
        ],
    ),
    ("TestCompareValue_CheckState_ValuesSame", compare.ValuesSame(), [True, True], []),
    (
        "TestCompareValue_CheckState_ValuesDiffer_ValueSameError",
        compare.ValuesDiffer(),
        [True, False, False],
        [
            f"CompareValue: {ONE}: bool_attribute: expected values to differ, but they are the same: "
            "false == false (3 values collected)"
        ],
    ),
    ("TestCompareValue_CheckState_ValuesDiffer", compare.ValuesDiffer(), [True, False, True], []),
]


@pytest.mark.parametrize(
    ("comparer", "steps", "last_messages"), [c[1:] for c in COMPARE_VALUE], ids=[c[0] for c in COMPARE_VALUE]
)
def test_compare_value(comparer: compare.ValueComparer, steps: list[bool], last_messages: list[str]) -> None:
    collector = CompareValue(comparer)
    # One check per test step, as Go's tests add one per step.
    checks = [collector.AddStateValue(ONE, New("bool_attribute")) for _ in steps]
    for check, value in zip(checks[:-1], steps[:-1], strict=True):
        assert messages(check, bool_state(value)) == []
    assert messages(checks[-1], bool_state(steps[-1])) == last_messages
    assert collector.values == tuple(steps)


def test_TestCompareValue_CheckState_NoStateValues() -> None:
    # Go runs the collector itself and fails with "resource addresses index out of bounds: 0";
    # here a collector is not a check, and passing one says how to get a check from it.
    with pytest.raises(TypeError) as info:
        assert_state(bool_state(True), CompareValue(compare.ValuesSame()))  # type: ignore[arg-type]
    assert str(info.value) == (
        "assert_state: check 1 must be a StateCheck, got CompareValue; a CompareValue collects values: "
        "pass collector.AddStateValue(address, path)"
    )


# -- CompareValuePairs -------------------------------------------------------------------------

PAIRS: list[tuple[str, State, StateCheck, list[str]]] = [
    (
        "TestCompareValuePairs_CheckState_ValuesSame_DifferError",
        make_state({ONE: {"bool_attribute": True, "float_attribute": 1.234}}),
        CompareValuePairs(ONE, New("bool_attribute"), ONE, New("float_attribute"), compare.ValuesSame()),
        [
            f"CompareValuePairs: {ONE}: bool_attribute: expected values to be the same, but they differ: "
            f"true != 1.234 (compared with {ONE}.float_attribute)"
        ],
    ),
    (
        "TestCompareValuePairs_CheckState_ValuesSame",
        make_state({ONE: {"bool_attribute": True}, TWO: {"bool_attribute": True}}),
        CompareValuePairs(ONE, New("bool_attribute"), TWO, New("bool_attribute"), compare.ValuesSame()),
        [],
    ),
    (
        "TestCompareValuePairs_CheckState_ValuesDiffer_SameError",
        make_state({ONE: {"bool_attribute": True}, TWO: {"bool_attribute": True}}),
        CompareValuePairs(ONE, New("bool_attribute"), TWO, New("bool_attribute"), compare.ValuesDiffer()),
        [
            f"CompareValuePairs: {ONE}: bool_attribute: expected values to differ, but they are the same: "
            f"true == true (compared with {TWO}.bool_attribute)"
        ],
    ),
    (
        "TestCompareValuePairs_CheckState_ValuesDiffer",
        make_state({ONE: {"bool_attribute": True, "float_attribute": 1.234}}),
        CompareValuePairs(ONE, New("bool_attribute"), ONE, New("float_attribute"), compare.ValuesDiffer()),
        [],
    ),
]


@pytest.mark.parametrize(
    ("state", "check", "expected_messages"), [p[1:] for p in PAIRS], ids=[p[0] for p in PAIRS]
)
def test_compare_value_pairs(state: State, check: StateCheck, expected_messages: list[str]) -> None:
    assert messages(check, state) == expected_messages


# -- CompareValueCollection --------------------------------------------------------------------

SAME_DIFFER = "expected values to be the same, but they differ: "
DIFFER_SAME = "expected values to differ, but they are the same: "


def _blocks(attribute: str, *values: str) -> list[dict[str, str]]:
    return [{attribute: v} for v in values]


def _nested(*groups: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"set_nested_block": _blocks("set_nested_block_attribute", *g)} for g in groups]


NESTED_ATTR = New("set_nested_nested_block").AtSliceIndex(0).AtMapKey("set_nested_block").AtSliceIndex(0)
NN = [New("set_nested_nested_block"), New("set_nested_block"), New("set_nested_block_attribute")]
NN_BLOCK = [New("set_nested_nested_block"), New("set_nested_block")]
NN_TOP = [New("set_nested_nested_block")]
ONE_STR = {"string_attribute": "str"}


def _simple(
    kind: str, attribute: str, values: list[str] | dict[str, str], comparer: compare.ValueComparer
) -> Any:
    paths = [New(attribute)]
    if kind.endswith("NestedBlock"):
        block = attribute
        values = _blocks(f"{block}_attribute", *values)  # type: ignore[arg-type]
        paths = [New(block), New(f"{block}_attribute")]
    state = make_state({ONE: ONE_STR, TWO: {attribute: values}})
    return state, CompareValueCollection(TWO, paths, ONE, New("string_attribute"), comparer)


def _collection_text(paths: list[Path]) -> str:
    return ".".join(p.to_text() for p in paths)


def _fails(paths: list[Path], count: int, target: str, *reasons: str) -> list[str]:
    return [
        f"CompareValueCollection: {TWO}: collection {_collection_text(paths)} ({count} elements): "
        f"no element compares with {target}: " + "; ".join(reasons)
    ]


COLLECTION: list[tuple[str, State, StateCheck, list[str]]] = []
for _kind, _attribute, _container in [
    ("List", "list_attribute", list),
    ("ListNestedBlock", "list_nested_block", list),
    ("Map", "map_attribute", dict),
    ("Set", "set_attribute", list),
    ("SetNestedBlock", "set_nested_block", list),
]:

    def _values(*items: str, container: type = _container) -> Any:
        return {k: v for k, v in zip("ab", items, strict=True)} if container is dict else list(items)

    _paths = [New(_attribute)]
    if _kind.endswith("NestedBlock"):
        _paths = [New(_attribute), New(f"{_attribute}_attribute")]
    _target = f"{ONE}.string_attribute"
    COLLECTION += [
        (
            f"TestCompareValueCollection_CheckState_{_kind}_ValuesSame_ErrorDiffer",
            *_simple(_kind, _attribute, _values("str2", "str3"), compare.ValuesSame()),
            _fails(_paths, 2, _target, f'{SAME_DIFFER}"str2" != "str"', f'{SAME_DIFFER}"str3" != "str"'),
        ),
        (
            f"TestCompareValueCollection_CheckState_{_kind}_ValuesSame",
            *_simple(_kind, _attribute, _values("str2", "str"), compare.ValuesSame()),
            [],
        ),
        (
            f"TestCompareValueCollection_CheckState_{_kind}_ValuesDiffer_ErrorSame",
            *_simple(_kind, _attribute, _values("str", "str"), compare.ValuesDiffer()),
            _fails(_paths, 2, _target, f'{DIFFER_SAME}"str" == "str"'),
        ),
        (
            f"TestCompareValueCollection_CheckState_{_kind}_ValuesDiffer",
            *_simple(_kind, _attribute, _values("str", "str2"), compare.ValuesDiffer()),
            [],
        ),
    ]

_SAME_STR = make_state(
    {ONE: {"set_nested_nested_block": _nested(("str",))}, TWO: {"set_nested_nested_block": _nested(("str",))}}
)
_FOUR_SIX = make_state(
    {
        ONE: {"set_nested_nested_block": _nested(("str1", "str2"))},
        TWO: {"set_nested_nested_block": _nested(("str3", "str4"), ("str5", "str6"))},
    }
)
_A_B = {"set_nested_nested_block": _nested(("str_a", "str_b"))}
_C_F = make_state(
    {ONE: _A_B, TWO: {"set_nested_nested_block": _nested(("str_c", "str_d"), ("str_e", "str_f"))}}
)
_C_B = make_state(
    {ONE: _A_B, TWO: {"set_nested_nested_block": _nested(("str_c", "str_d"), ("str_a", "str_b"))}}
)
_ATTR_TARGET = f"{ONE}.{NESTED_ATTR.join(New('set_nested_block_attribute')[0]).to_text()}"
_BLOCK_TARGET = f"{ONE}.{NESTED_ATTR.to_text()}"
_TOP_TARGET = f"{ONE}.set_nested_nested_block"


_AT_ATTRIBUTE = " (first difference at set_nested_block_attribute)"
# An array value is compared with [element]: the difference is inside the first element.
_AT_TOP = (
    f" (first difference at {Path.parse('[0].set_nested_block[0].set_nested_block_attribute').to_text()})"
)


def _block(value: str) -> str:
    return f'{{"set_nested_block_attribute": "{value}"}}'


def _top(*values: str) -> str:
    return '[{"set_nested_block": [' + ", ".join(_block(v) for v in values) + "]}]"


COLLECTION += [
    (
        "TestCompareValueCollection_CheckState_SetNestedNestedBlock_ValuesDiffer_ErrorSameAttribute",
        _SAME_STR,
        CompareValueCollection(
            TWO, NN, ONE, NESTED_ATTR.AtMapKey("set_nested_block_attribute"), compare.ValuesDiffer()
        ),
        [
            f"CompareValueCollection: {TWO}: collection {_collection_text(NN)} (1 element): "
            f'no element compares with {_ATTR_TARGET}: {DIFFER_SAME}"str" == "str"'
        ],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNestedNestedBlock_ValuesDiffer_ErrorSameNestedBlock",
        _SAME_STR,
        CompareValueCollection(TWO, NN_BLOCK, ONE, NESTED_ATTR, compare.ValuesDiffer()),
        [
            f"CompareValueCollection: {TWO}: collection {_collection_text(NN_BLOCK)} (1 element): "
            f"no element compares with {_BLOCK_TARGET}: {DIFFER_SAME}{_block('str')} == {_block('str')}"
        ],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNestedNestedBlock_ValuesDiffer_ErrorSameNestedNestedBlock",
        _SAME_STR,
        CompareValueCollection(TWO, NN_TOP, ONE, New("set_nested_nested_block"), compare.ValuesDiffer()),
        [
            f"CompareValueCollection: {TWO}: collection set_nested_nested_block (1 element): "
            f"no element compares with {_TOP_TARGET}: {DIFFER_SAME}{_top('str')} == {_top('str')}"
        ],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNestedNestedBlock_ValuesDifferAttribute",
        _FOUR_SIX,
        CompareValueCollection(
            TWO, NN, ONE, NESTED_ATTR.AtMapKey("set_nested_block_attribute"), compare.ValuesDiffer()
        ),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNestedNestedBlock_ValuesDifferNestedBlock",
        _FOUR_SIX,
        CompareValueCollection(TWO, NN_BLOCK, ONE, NESTED_ATTR, compare.ValuesDiffer()),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNestedNestedBlock_ValuesDifferNestedNestedBlock",
        _FOUR_SIX,
        CompareValueCollection(TWO, NN_TOP, ONE, New("set_nested_nested_block"), compare.ValuesDiffer()),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNested_ValuesSame_ErrorAttribute",
        _C_F,
        CompareValueCollection(
            TWO, NN, ONE, NESTED_ATTR.AtMapKey("set_nested_block_attribute"), compare.ValuesSame()
        ),
        _fails(NN, 4, _ATTR_TARGET, *(f'{SAME_DIFFER}"str_{x}" != "str_a"' for x in "cdef")),
    ),
    (
        "TestCompareValueCollection_CheckState_SetNested_ValuesSame_ErrorNestedBlock",
        _C_F,
        CompareValueCollection(TWO, NN_BLOCK, ONE, NESTED_ATTR, compare.ValuesSame()),
        _fails(
            NN_BLOCK,
            4,
            _BLOCK_TARGET,
            *(f"{SAME_DIFFER}{_block('str_' + x)} != {_block('str_a')}{_AT_ATTRIBUTE}" for x in "cdef"),
        ),
    ),
    (
        "TestCompareValueCollection_CheckState_SetNested_ValuesSame_ErrorNestedNestedBlock",
        _C_F,
        CompareValueCollection(TWO, NN_TOP, ONE, New("set_nested_nested_block"), compare.ValuesSame()),
        _fails(
            NN_TOP,
            2,
            _TOP_TARGET,
            f"{SAME_DIFFER}{_top('str_c', 'str_d')} != {_top('str_a', 'str_b')}{_AT_TOP}",
            f"{SAME_DIFFER}{_top('str_e', 'str_f')} != {_top('str_a', 'str_b')}{_AT_TOP}",
        ),
    ),
    (
        "TestCompareValueCollection_CheckState_SetNested_ValuesSameAttribute",
        _C_B,
        CompareValueCollection(
            TWO, NN, ONE, NESTED_ATTR.AtMapKey("set_nested_block_attribute"), compare.ValuesSame()
        ),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNested_ValuesSameNestedBlock",
        _C_B,
        CompareValueCollection(TWO, NN_BLOCK, ONE, NESTED_ATTR, compare.ValuesSame()),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_SetNested_ValuesSameNestedNestedBlock",
        _C_B,
        CompareValueCollection(TWO, NN_TOP, ONE, New("set_nested_nested_block"), compare.ValuesSame()),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_ListNestedAttribute_ValuesSame",
        make_state(
            {ONE: {"str_attr": "str2"}, TWO: {"nested_attr": [{"str_attr": "str1"}, {"str_attr": "str2"}]}}
        ),
        CompareValueCollection(
            TWO, [New("nested_attr"), New("str_attr")], ONE, New("str_attr"), compare.ValuesSame()
        ),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_ListNestedAttribute_ValuesSame_ErrorDiff",
        make_state(
            {ONE: {"str_attr": "str1"}, TWO: {"nested_attr": [{"str_attr": "str2"}, {"str_attr": "str3"}]}}
        ),
        CompareValueCollection(
            TWO, [New("nested_attr"), New("str_attr")], ONE, New("str_attr"), compare.ValuesSame()
        ),
        _fails(
            [New("nested_attr"), New("str_attr")],
            2,
            f"{ONE}.str_attr",
            f'{SAME_DIFFER}"str2" != "str1"',
            f'{SAME_DIFFER}"str3" != "str1"',
        ),
    ),
    (
        "TestCompareValueCollection_CheckState_DoubleListNestedAttribute_ValuesSame",
        make_state(
            {
                ONE: {"str_attr": "str2"},
                TWO: {"nested_attr": [{"double_nested_attr": {"str_attr": s}} for s in ("str1", "str2")]},
            }
        ),
        CompareValueCollection(
            TWO,
            [New("nested_attr"), New("double_nested_attr"), New("str_attr")],
            ONE,
            New("str_attr"),
            compare.ValuesSame(),
        ),
        [],
    ),
    (
        "TestCompareValueCollection_CheckState_DoubleListNestedAttribute_ValuesSame_ErrorDiff",
        make_state(
            {
                ONE: {"str_attr": "str1"},
                TWO: {"nested_attr": [{"double_nested_attr": {"str_attr": s}} for s in ("str2", "str3")]},
            }
        ),
        CompareValueCollection(
            TWO,
            [New("nested_attr"), New("double_nested_attr"), New("str_attr")],
            ONE,
            New("str_attr"),
            compare.ValuesSame(),
        ),
        _fails(
            [New("nested_attr"), New("double_nested_attr"), New("str_attr")],
            2,
            f"{ONE}.str_attr",
            f'{SAME_DIFFER}"str2" != "str1"',
            f'{SAME_DIFFER}"str3" != "str1"',
        ),
    ),
]

for _kind, _attribute, _value, _found in [
    ("Bool", "bool_attribute", True, "a bool"),
    ("Float", "float_attribute", 1.234, "a number"),
    ("Int", "int_attribute", 1234, "a number"),
    ("String", "string_attribute", "str", "a string"),
]:
    COLLECTION.append(
        (
            f"TestCompareValueCollection_CheckState_{_kind}_Error_NotCollection",
            make_state({ONE: {_attribute: _value}, TWO: {_attribute: _value}}),
            CompareValueCollection(TWO, [New(_attribute)], ONE, New(_attribute), compare.ValuesSame()),
            [
                f"CompareValueCollection: {TWO}: {_attribute}: expected a collection (an array or an object), "
                f"found {_found}"
            ],
        )
    )


@pytest.mark.parametrize(
    ("state", "check", "expected_messages"), [c[1:] for c in COLLECTION], ids=[c[0] for c in COLLECTION]
)
def test_compare_value_collection(state: State, check: StateCheck, expected_messages: list[str]) -> None:
    assert messages(check, state) == expected_messages


def test_TestCompareValueCollection_CheckState_EmptyCollectionPath() -> None:
    # Go fails when the check runs ("No collection path was provided"); here, at construction.
    with pytest.raises(
        ValueError, match=r"^CompareValueCollection: collection_path must hold at least one path"
    ):
        CompareValueCollection(TWO, [], ONE, New("string_attribute"), compare.ValuesSame())


def test_state_check_error_is_raised_by_the_state_check() -> None:
    state, check = _simple("List", "list_attribute", ["str2", "str3"], compare.ValuesSame())
    with pytest.raises(StateCheckError) as info:
        check.CheckState(state)
    assert info.value.failures == tuple(check.failures(state))
