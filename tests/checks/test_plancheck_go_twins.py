"""Python twins of Go's plancheck tests that known_go_cases does not cover: ExpectResourceAction,
ExpectUnknownValue, ExpectUnknownOutputValue[AtPath], ExpectSensitiveValue, ExpectEmptyPlan,
ExpectNonEmptyPlan, ExpectDeferredChange and ExpectNoDeferredChanges.

Each Go test plans a configuration through a test provider (or ``terraform_data``, ``random_string``,
``time_static``) and runs one check in ``ConfigPlanChecks.PreApply``; each twin here is the plan JSON
that configuration gives, the check, and our exact message (``None`` when the check passes). Ids are the
Go test names (``/N``: the Nth failing step of one Go test). Go's message is in the comment above a row
wherever ours words it otherwise; the facts are the same (address, path, action, reason) except where
noted: Go prints known values with ``%v`` inside quotes (``"[value1]"``, ``"true"``), ours are JSON, and
a value under a sensitive mark would be ``(sensitive)`` (Go prints it).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from plancheck import (
    DeferredReason,
    ExpectDeferredChange,
    ExpectEmptyPlan,
    ExpectNoDeferredChanges,
    ExpectNonEmptyPlan,
    ExpectResourceAction,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownOutputValueAtPath,
    ExpectUnknownValue,
    Plan,
    PlanCheck,
    PlanCheckError,
    ResourceAction,
    assert_plan,
)
from tfjsonpath import New


def change(address: str, *actions: str, **change: Any) -> dict[str, Any]:
    """A resource change as ``terraform show -json`` writes it (type and name from the address)."""
    mode = "data" if address.startswith("data.") else "managed"
    rtype, name = address.removeprefix("data.").split(".")
    return {"address": address, "mode": mode, "type": rtype, "name": name, "change": {"actions": list(actions), **change}}


def output(after: Any, after_unknown: Any, actions: tuple[str, ...] = ("create",)) -> dict[str, Any]:
    return {"actions": list(actions), "before": None, "after": after, "after_unknown": after_unknown,
            "before_sensitive": False, "after_sensitive": False}


def plan(*changes: dict[str, Any], outputs: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    document: dict[str, Any] = {"format_version": "1.2", "resource_changes": list(changes), **top}
    if outputs is not None:
        document["output_changes"] = outputs
    return document


def outcome(document: dict[str, Any], checks: tuple[PlanCheck, ...]) -> str | None:
    try:
        assert_plan(Plan.from_dict(document), *checks)
    except PlanCheckError as exc:
        return str(exc)
    return None


# time_static.one is created in the same plan, so whatever reads its rfc3339 is unknown; the SDKv2
# test provider turns a list, set or map with an unknown element into a wholly unknown value.
TIME = change("time_static.one", "create", after={}, after_unknown={"id": True, "rfc3339": True})
TWO_UNKNOWN: dict[str, Any] = {
    "bool_attribute": None, "float_attribute": None, "int_attribute": None, "list_attribute": None,
    "list_nested_block": [], "map_attribute": None, "set_attribute": None, "set_nested_block": [],
    "string_attribute": None,
}


def two(after: dict[str, Any], after_unknown: dict[str, Any], address: str = "test_resource.two") -> dict[str, Any]:
    return change(address, "create", after={**TWO_UNKNOWN, **after}, after_unknown={"id": True, **after_unknown},
                  after_sensitive={})


NESTED_KNOWN = {"list_nested_block": [{"list_nested_block_attribute": "value 1"}]}

Row = tuple[str, dict[str, Any], tuple[PlanCheck, ...], str | None]


def rows(table: list[Row]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(("document", "checks", "expected"), [r[1:] for r in table], ids=[r[0] for r in table])


# -- ExpectResourceAction (Go: plancheck/expect_resource_action_test.go) ---------------------------------------

ONE = "random_string.one"


def action_row(name: str, actions: tuple[str, ...], expected: ResourceAction, address: str = ONE) -> Row:
    got = " ".join(actions)
    # Go: "'random_string.one' - expected NoOp, got action(s): [create]" (the Replace case drops the quotes).
    message = f"ExpectResourceAction: {address}: expected {expected.value}, got action(s): [{got}]"
    return name, plan(change(address, *actions)), (ExpectResourceAction(address, expected),), message


def action_pass(name: str, actions: tuple[str, ...], expected: ResourceAction, address: str = ONE) -> Row:
    return name, plan(change(address, *actions)), (ExpectResourceAction(address, expected),), None


RESOURCE_ACTION: list[Row] = [
    action_pass("Test_ExpectedResourceAction_NoOp", ("no-op",), ResourceAction.NoOp),
    action_row("Test_ExpectedResourceAction_NoOp_NoMatch", ("create",), ResourceAction.NoOp),
    action_pass("Test_ExpectedResourceAction_Create", ("create",), ResourceAction.Create),
    # A changed `length` replaces the string: Terraform's default order, delete then create.
    action_row("Test_ExpectedResourceAction_Create_NoMatch", ("delete", "create"), ResourceAction.Create),
    action_pass("Test_ExpectedResourceAction_Read", ("read",), ResourceAction.Read, "data.null_data_source.two"),
    action_row("Test_ExpectedResourceAction_Read_NoMatch", ("create",), ResourceAction.Read),
    action_pass("Test_ExpectedResourceAction_Update", ("update",), ResourceAction.Update, "time_offset.one"),
    action_row("Test_ExpectedResourceAction_Update_NoMatch", ("create",), ResourceAction.Update, "time_offset.one"),
    # The second step's empty configuration destroys the string.
    action_pass("Test_ExpectedResourceAction_Destroy", ("delete",), ResourceAction.Destroy),
    action_row("Test_ExpectedResourceAction_Destroy_NoMatch", ("create",), ResourceAction.Destroy),
    action_pass("Test_ExpectedResourceAction_DestroyBeforeCreate", ("delete", "create"), ResourceAction.DestroyBeforeCreate),
    action_row("Test_ExpectedResourceAction_DestroyBeforeCreate_NoMatch", ("create",), ResourceAction.DestroyBeforeCreate),
    action_pass("Test_ExpectedResourceAction_CreateBeforeDestroy", ("create", "delete"), ResourceAction.CreateBeforeDestroy),
    action_row("Test_ExpectedResourceAction_CreateBeforeDestroy_NoMatch", ("create",), ResourceAction.CreateBeforeDestroy),
    # Replace is either order: random_string.one without create_before_destroy, random_string.two with it.
    (
        "Test_ExpectedResourceAction_Replace",
        plan(change(ONE, "delete", "create"), change("random_string.two", "create", "delete")),
        (ExpectResourceAction(ONE, ResourceAction.Replace), ExpectResourceAction("random_string.two", ResourceAction.Replace)),
        None,
    ),
    action_row("Test_ExpectedResourceAction_Replace_NoMatch/1", ("create",), ResourceAction.Replace),
    action_row("Test_ExpectedResourceAction_Replace_NoMatch/2", ("create",), ResourceAction.Replace, "random_string.two"),
    (
        "Test_ExpectedResourceAction_NoResourceFound",
        plan(change(ONE, "create")),
        (ExpectResourceAction("random_string.doesntexist", ResourceAction.Create),),
        # Go: "random_string.doesntexist - Resource not found in plan ResourceChanges"
        "ExpectResourceAction: random_string.doesntexist: resource not found in plan ResourceChanges; "
        "closest: random_string.one",
    ),
]


@rows(RESOURCE_ACTION)
def test_expect_resource_action(document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None) -> None:
    assert outcome(document, checks) == expected


def test_Test_ExpectedResourceAction_InvalidResourceActionType() -> None:
    # Go builds the check and fails when it runs ("random_string.one - unexpected ResourceActionType:
    # Invalid"); here a str is no ResourceAction, refused when the check is built.
    with pytest.raises(TypeError) as caught:
        ExpectResourceAction(ONE, "Invalid")  # type: ignore[arg-type]
    assert str(caught.value) == "ExpectResourceAction: action must be a ResourceAction, got str"


# -- ExpectUnknownValue (Go: plancheck/expect_unknown_value_test.go) --------------------------------------------

TWO = "test_resource.two"


def unknown_pass(name: str, after: dict[str, Any], after_unknown: dict[str, Any], path: Any) -> Row:
    return name, plan(TIME, two(after, after_unknown)), (ExpectUnknownValue(TWO, path),), None


def known_row(name: str, after: dict[str, Any], path: Any, message: str, address: str = "test_resource.one") -> Row:
    document = plan(two(after, {}, address))
    return name, document, (ExpectUnknownValue(address, path),), f"ExpectUnknownValue: {address}: {message}"


UNKNOWN_VALUE: list[Row] = [
    unknown_pass("Test_ExpectUnknownValue_StringAttribute", {}, {"string_attribute": True}, New("string_attribute")),
    unknown_pass("Test_ExpectUnknownValue_ListAttribute", {}, {"list_attribute": True}, New("list_attribute")),
    unknown_pass("Test_ExpectUnknownValue_SetAttribute", {}, {"set_attribute": True}, New("set_attribute")),
    unknown_pass("Test_ExpectUnknownValue_MapAttribute", {}, {"map_attribute": True}, New("map_attribute")),
    unknown_pass(
        "Test_ExpectUnknownValue_ListNestedBlock",
        {"list_nested_block": [{}]},
        {"list_nested_block": [{"list_nested_block_attribute": True}]},
        New("list_nested_block").AtSliceIndex(0).AtMapKey("list_nested_block_attribute"),
    ),
    unknown_pass(
        "Test_ExpectUnknownValue_SetNestedBlock",
        {"set_nested_block": [{}]},
        {"set_nested_block": [{"set_nested_block_attribute": True}]},
        New("set_nested_block").AtSliceIndex(0).AtMapKey("set_nested_block_attribute"),
    ),
    known_row(
        "Test_ExpectUnknownValue_ExpectError_KnownValue_PathNotFound",
        NESTED_KNOWN,
        New("list_nested_block").AtSliceIndex(0).AtMapKey("not_correct_attr"),
        # Go: "path not found: specified key not_correct_attr not found in map at list_nested_block.0.not_correct_attr"
        'list_nested_block[0]["not_correct_attr"]: expected an unknown value, but it is not present '
        '(no key "not_correct_attr" in an object with 1 key at list_nested_block[0])',
        address=TWO,
    ),
    known_row(
        "Test_ExpectUnknownValue_ExpectError_KnownValue_ListAttribute",
        {"list_attribute": ["value1"]},
        New("list_attribute").AtSliceIndex(0),
        # Go: 'Expected unknown value at "list_attribute.0", but found known value: "value1"'
        'list_attribute[0]: expected an unknown value, but it is known: "value1"',
    ),
    known_row(
        "Test_ExpectUnknownValue_ExpectError_KnownValue_StringAttribute",
        {"string_attribute": "hello world!"},
        New("string_attribute"),
        'string_attribute: expected an unknown value, but it is known: "hello world!"',
    ),
    known_row(
        "Test_ExpectUnknownValue_ExpectError_KnownValue_BoolAttribute",
        {"bool_attribute": True},
        New("bool_attribute"),
        # Go: '... but found known value: "true"' (%v in quotes); ours is the JSON value.
        "bool_attribute: expected an unknown value, but it is known: true",
    ),
    known_row(
        "Test_ExpectUnknownValue_ExpectError_KnownValue_FloatAttribute",
        {"float_attribute": Decimal("1.234")},
        New("float_attribute"),
        "float_attribute: expected an unknown value, but it is known: 1.234",
    ),
    known_row(
        "Test_ExpectUnknownValue_ExpectError_KnownValue_ListNestedBlock",
        NESTED_KNOWN,
        New("list_nested_block").AtSliceIndex(0).AtMapKey("list_nested_block_attribute"),
        'list_nested_block[0]["list_nested_block_attribute"]: expected an unknown value, but it is known: "value 1"',
        address=TWO,
    ),
    (
        "Test_ExpectUnknownValue_ExpectError_ResourceNotFound",
        plan(two({}, {}, "test_resource.one")),
        (ExpectUnknownValue(TWO, New("set_attribute")),),
        # Go: "test_resource.two - Resource not found in plan ResourceChanges"
        "ExpectUnknownValue: test_resource.two: resource not found in plan ResourceChanges; closest: test_resource.one",
    ),
]


@rows(UNKNOWN_VALUE)
def test_expect_unknown_value(document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None) -> None:
    assert outcome(document, checks) == expected


# -- ExpectUnknownOutputValue (Go: plancheck/expect_unknown_output_value_test.go) ----------------------------------


def output_row(name: str, output_name: str, after: Any, after_unknown: Any, message: str | None) -> Row:
    document = plan(TIME, outputs={output_name: output(after, after_unknown)})
    expected = None if message is None else f"ExpectUnknownOutputValue: output.{output_name}: {message}"
    return name, document, (ExpectUnknownOutputValue(output_name),), expected


UNKNOWN_OUTPUT: list[Row] = [
    output_row("Test_ExpectUnknownOutputValue_StringAttribute", "string_attribute", None, True, None),
    output_row("Test_ExpectUnknownOutputValue_ListAttribute", "list_attribute", None, True, None),
    output_row("Test_ExpectUnknownOutputValue_SetAttribute", "set_attribute", None, True, None),
    output_row("Test_ExpectUnknownOutputValue_MapAttribute", "map_attribute", None, True, None),
    output_row("Test_ExpectUnknownOutputValue_ListNestedBlock", "list_nested_block_attribute", None, True, None),
    output_row(
        "Test_ExpectUnknownOutputValue_ExpectError_KnownValue_ListAttribute", "list_attribute", ["value1"], False,
        # Go: 'Expected unknown value at output "list_attribute", but found known value: "[value1]"'
        'expected an unknown value, but it is known: ["value1"]',
    ),
    output_row(
        "Test_ExpectUnknownOutputValue_ExpectError_KnownValue_StringAttribute", "string_attribute", "hello world!",
        False, 'expected an unknown value, but it is known: "hello world!"',
    ),
    output_row(
        "Test_ExpectUnknownOutputValue_ExpectError_KnownValue_BoolAttribute", "bool_attribute", True, False,
        "expected an unknown value, but it is known: true",
    ),
    output_row(
        "Test_ExpectUnknownOutputValue_ExpectError_KnownValue_FloatAttribute", "float_attribute", Decimal("1.234"),
        False, "expected an unknown value, but it is known: 1.234",
    ),
    output_row(
        "Test_ExpectUnknownOutputValue_ExpectError_KnownValue_ListNestedBlock", "list_nested_block",
        [{"list_nested_block_attribute": "value 1"}], False,
        # Go: '... but found known value: "[map[list_nested_block_attribute:value 1]]"'
        'expected an unknown value, but it is known: [{"list_nested_block_attribute": "value 1"}]',
    ),
    (
        "Test_ExpectUnknownOutputValue_ExpectError_OutputNotFound",
        plan(outputs={"output_one": output("str", False)}),
        (ExpectUnknownOutputValue("output_two"),),
        # Go: "output_two - Output not found in plan OutputChanges"
        "ExpectUnknownOutputValue: output.output_two: output not found in plan OutputChanges; closest: output_one",
    ),
]


@rows(UNKNOWN_OUTPUT)
def test_expect_unknown_output_value(document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None) -> None:
    assert outcome(document, checks) == expected


# -- ExpectUnknownOutputValueAtPath (Go: plancheck/expect_unknown_output_value_at_path_test.go) --------------------


def at_path_row(name: str, output_name: str, after: Any, after_unknown: Any, path: Any, message: str | None) -> Row:
    document = plan(TIME, outputs={output_name: output(after, after_unknown)})
    expected = None if message is None else f"ExpectUnknownOutputValueAtPath: output.{output_name}: {message}"
    return name, document, (ExpectUnknownOutputValueAtPath(output_name, path),), expected


# output "resource" { value = test_resource.two }, its attributes as known_row's resource has them.
RESOURCE_KNOWN = {"id": "test", **TWO_UNKNOWN}
NESTED_UNKNOWN = {"list_nested_block": [{"list_nested_block_attribute": True}]}

UNKNOWN_OUTPUT_AT_PATH: list[Row] = [
    # output "resource" { value = terraform_data.one }: terraform_data's output is unknown until apply.
    at_path_row("Test_ExpectUnknownOutputValueAtPath_StringAttribute", "resource", {"input": "string"},
                {"id": True, "output": True}, New("output"), None),
    at_path_row("Test_ExpectUnknownOutputValueAtPath_ListAttribute", "resource", RESOURCE_KNOWN,
                {"id": True, "list_attribute": True}, New("list_attribute"), None),
    at_path_row("Test_ExpectUnknownOutputValueAtPath_SetAttribute", "resource", RESOURCE_KNOWN,
                {"id": True, "set_attribute": True}, New("set_attribute"), None),
    at_path_row("Test_ExpectUnknownOutputValueAtPath_MapAttribute", "resource", RESOURCE_KNOWN,
                {"id": True, "map_attribute": True}, New("map_attribute"), None),
    at_path_row("Test_ExpectUnknownOutputValueAtPath_ListNestedBlock_Resource", "resource",
                {**RESOURCE_KNOWN, "list_nested_block": [{}]}, NESTED_UNKNOWN,
                New("list_nested_block").AtSliceIndex(0).AtMapKey("list_nested_block_attribute"), None),
    # output "resource_blocks" { value = test_resource.two.list_nested_block }: a path from an index.
    at_path_row("Test_ExpectUnknownOutputValueAtPath_ListNestedBlock_ResourceBlocks", "resource_blocks", [{}],
                [{"list_nested_block_attribute": True}], New(0).AtMapKey("list_nested_block_attribute"), None),
    at_path_row("Test_ExpectUnknownOutputValueAtPath_ListNestedBlock_ObjectBlockIndex", "resource_blocks_index", {},
                {"list_nested_block_attribute": True}, New("list_nested_block_attribute"), None),
    at_path_row("Test_ExpectUnknownOutputValueAtPath_SetNestedBlock_Object", "resource",
                {**RESOURCE_KNOWN, "set_nested_block": [{}]}, {"set_nested_block": [{"set_nested_block_attribute": True}]},
                New("set_nested_block").AtSliceIndex(0).AtMapKey("set_nested_block_attribute"), None),
    at_path_row(
        "Test_ExpectUnknownOutputValueAtPath_ExpectError_KnownValue_PathNotFound", "resource",
        {**RESOURCE_KNOWN, **NESTED_KNOWN}, False,
        New("list_nested_block").AtSliceIndex(0).AtMapKey("not_correct_attr"),
        # Go: "path not found: specified key not_correct_attr not found in map at list_nested_block.0.not_correct_attr"
        'list_nested_block[0]["not_correct_attr"]: expected an unknown value, but it is not present '
        '(no key "not_correct_attr" in an object with 1 key at list_nested_block[0])',
    ),
    at_path_row(
        "Test_ExpectUnknownOutputValueAtPath_ExpectError_KnownValue_ListAttribute", "resource",
        {**RESOURCE_KNOWN, "list_attribute": ["value1"]}, False, New("list_attribute").AtSliceIndex(0),
        # Go: 'Expected unknown value at output "resource" path "list_attribute.0", but found known value: "value1"'
        'list_attribute[0]: expected an unknown value, but it is known: "value1"',
    ),
    at_path_row(
        "Test_ExpectUnknownOutputValueAtPath_ExpectError_KnownValue_StringAttribute", "resource",
        {**RESOURCE_KNOWN, "string_attribute": "hello world!"}, False, New("string_attribute"),
        'string_attribute: expected an unknown value, but it is known: "hello world!"',
    ),
    at_path_row(
        "Test_ExpectUnknownOutputValueAtPath_ExpectError_KnownValue_BoolAttribute", "resource",
        {**RESOURCE_KNOWN, "bool_attribute": True}, False, New("bool_attribute"),
        "bool_attribute: expected an unknown value, but it is known: true",
    ),
    at_path_row(
        "Test_ExpectUnknownOutputValueAtPath_ExpectError_KnownValue_FloatAttribute", "resource",
        {**RESOURCE_KNOWN, "float_attribute": Decimal("1.234")}, False, New("float_attribute"),
        "float_attribute: expected an unknown value, but it is known: 1.234",
    ),
    at_path_row(
        "Test_ExpectUnknownOutputValueAtPath_ExpectError_KnownValue_ListNestedBlock", "resource",
        {**RESOURCE_KNOWN, **NESTED_KNOWN}, False,
        New("list_nested_block").AtSliceIndex(0).AtMapKey("list_nested_block_attribute"),
        'list_nested_block[0]["list_nested_block_attribute"]: expected an unknown value, but it is known: "value 1"',
    ),
    (
        "Test_ExpectUnknownOutputValueAtPath_ExpectError_OutputNotFound",
        plan(outputs={"output_one": output({"set_attribute": ["value1"]}, False)}),
        (ExpectUnknownOutputValueAtPath("output_two", New("set_attribute")),),
        # Go: "output_two - Output not found in plan OutputChanges"
        "ExpectUnknownOutputValueAtPath: output.output_two: output not found in plan OutputChanges; closest: output_one",
    ),
]


@rows(UNKNOWN_OUTPUT_AT_PATH)
def test_expect_unknown_output_value_at_path(
    document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None
) -> None:
    assert outcome(document, checks) == expected


# -- ExpectSensitiveValue (Go: plancheck/expect_sensitive_value_test.go) ------------------------------------------

RESOURCE_ONE = "test_resource.one"
PASSWORD = "hunter2-s3cr3t"


def sensitive_pass(name: str, after: dict[str, Any], after_sensitive: dict[str, Any], path: Any) -> Row:
    document = plan(change(RESOURCE_ONE, "create", after=after, after_unknown={"id": True}, after_sensitive=after_sensitive))
    return name, document, (ExpectSensitiveValue(RESOURCE_ONE, path),), None


SENSITIVE_VALUE: list[Row] = [
    sensitive_pass("Test_ExpectSensitiveValue_SensitiveStringAttribute", {"sensitive_string_attribute": PASSWORD},
                   {"sensitive_string_attribute": True}, New("sensitive_string_attribute")),
    # A schema-sensitive collection is marked whole.
    sensitive_pass("Test_ExpectSensitiveValue_SensitiveListAttribute", {"sensitive_list_attribute": ["value"]},
                   {"sensitive_list_attribute": True}, New("sensitive_list_attribute")),
    sensitive_pass("Test_ExpectSensitiveValue_SensitiveSetAttribute", {"sensitive_set_attribute": ["value"]},
                   {"sensitive_set_attribute": True}, New("sensitive_set_attribute")),
    sensitive_pass("Test_ExpectSensitiveValue_SensitiveMapAttribute", {"sensitive_map_attribute": {"key1": "value"}},
                   {"sensitive_map_attribute": True}, New("sensitive_map_attribute")),
    sensitive_pass(
        "Test_ExpectSensitiveValue_ListNestedBlock_SensitiveAttribute",
        {"list_nested_block_sensitive_attribute": [{"list_nested_block_attribute": "value", "sensitive": PASSWORD}]},
        {"list_nested_block_sensitive_attribute": [{"sensitive": True}]},
        New("list_nested_block_sensitive_attribute").AtSliceIndex(0).AtMapKey("sensitive"),
    ),
    sensitive_pass(
        "Test_ExpectSensitiveValue_SetNestedBlock_SensitiveAttribute",
        {"set_nested_block_sensitive_attribute": [{"set_nested_block_attribute": "value", "sensitive": PASSWORD}]},
        {"set_nested_block_sensitive_attribute": [{"sensitive": True}]},
        New("set_nested_block_sensitive_attribute").AtSliceIndex(0).AtMapKey("sensitive"),
    ),
    (
        "Test_ExpectSensitiveValue_ExpectError_ResourceNotFound",
        plan(change(RESOURCE_ONE, "create", after={"set_attribute": ["value1"]}, after_sensitive={})),
        (ExpectSensitiveValue(TWO, New("set_attribute")),),
        # Go: "test_resource.two - Resource not found in plan ResourceChanges"
        "ExpectSensitiveValue: test_resource.two: resource not found in plan ResourceChanges; closest: test_resource.one",
    ),
]


@rows(SENSITIVE_VALUE)
def test_expect_sensitive_value(document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None) -> None:
    assert outcome(document, checks) == expected


# -- ExpectEmptyPlan, ExpectNonEmptyPlan (Go: plancheck/expect_empty_plan_test.go, expect_non_empty_plan_test.go) --

ORIGINAL = {"test": output("original", False, ("no-op",)) | {"before": "original"}}
UPDATED = {"test": output("new", False, ("update",)) | {"before": "original"}}
DATA = "terraform_data.test"
REPLACED = plan(
    change("terraform_data.one", "delete", "create"),
    change("terraform_data.two", "no-op"),
    change("terraform_data.three", "delete", "create"),
)

EMPTY_PLAN: list[Row] = [
    ("Test_ExpectEmptyPlan_OutputChanges_NoChanges", plan(outputs=ORIGINAL), (ExpectEmptyPlan(),), None),
    # Go: 'output "test" has planned action(s): [update]'
    ("Test_ExpectEmptyPlan_OutputChanges_Error", plan(outputs=UPDATED), (ExpectEmptyPlan(),),
     "ExpectEmptyPlan: output.test: expected an empty plan, but it has planned action(s): [update]"),
    ("Test_ExpectEmptyPlan_ResourceChanges_NoChanges", plan(change(DATA, "no-op")), (ExpectEmptyPlan(),), None),
    # Go joins "terraform_data.one has planned action(s): [delete create]" and the same for three.
    ("Test_ExpectEmptyPlan_ResourceChanges_Error", REPLACED, (ExpectEmptyPlan(),),
     "2 plan checks failed:\n"
     "  1. ExpectEmptyPlan: terraform_data.one: expected an empty plan, but it has planned action(s): [delete create]\n"
     "  2. ExpectEmptyPlan: terraform_data.three: expected an empty plan, but it has planned action(s): [delete create]"),
    ("Test_ExpectNonEmptyPlan_OutputChanges", plan(outputs=UPDATED), (ExpectNonEmptyPlan(),), None),
    ("Test_ExpectNonEmptyPlan_OutputChanges_Error", plan(outputs=ORIGINAL), (ExpectNonEmptyPlan(),),
     "ExpectNonEmptyPlan: expected a non-empty plan, but got an empty plan"),
    ("Test_ExpectNonEmptyPlan_ResourceChanges", plan(change(DATA, "delete", "create")), (ExpectNonEmptyPlan(),), None),
    ("Test_ExpectNonEmptyPlan_ResourceChanges_Error", plan(change(DATA, "no-op")), (ExpectNonEmptyPlan(),),
     "ExpectNonEmptyPlan: expected a non-empty plan, but got an empty plan"),
]


@rows(EMPTY_PLAN)
def test_expect_empty_and_non_empty_plan(document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None) -> None:
    assert outcome(document, checks) == expected


# -- ExpectDeferredChange, ExpectNoDeferredChanges (Go: expect_deferred_change_test.go, expect_no_deferred_changes_test.go)

TEST = "test_resource.test"


def deferred(address: str, reason: str) -> dict[str, Any]:
    return {"reason": reason, "resource_change": change(address, "create", after={}, after_unknown={"id": True})}


DEFERRED: list[Row] = [
    ("Test_ExpectDeferredChange_Reason_Match",
     plan(complete=False, deferred_changes=[deferred(TEST, "resource_config_unknown")]),
     (ExpectDeferredChange(TEST, DeferredReason.ResourceConfigUnknown),), None),
    # Go: `'test_resource.test' - expected "provider_config_unknown", got deferred reason: "absent_prereq"`
    ("Test_ExpectDeferredChange_Reason_NoMatch",
     plan(complete=False, deferred_changes=[deferred(TEST, "absent_prereq")]),
     (ExpectDeferredChange(TEST, DeferredReason.ProviderConfigUnknown),),
     'ExpectDeferredChange: test_resource.test: expected "provider_config_unknown", got deferred reason: "absent_prereq"'),
    # Go: "test_resource.test - No deferred changes found for resource"
    ("Test_ExpectDeferredChange_NoDeferredChanges",
     plan(change(TEST, "create", after={}, after_unknown={"id": True}), complete=True),
     (ExpectDeferredChange(TEST, DeferredReason.ProviderConfigUnknown),),
     "ExpectDeferredChange: test_resource.test: no deferred changes found for resource: it is planned, with action(s): [create]"),
    ("Test_ExpectNoDeferredChange",
     plan(change(TEST, "create", after={}, after_unknown={"id": True}), complete=True),
     (ExpectNoDeferredChanges(),), None),
    # Go: 'expected no deferred changes, but resource "test_resource.test" is deferred with reason: "resource_config_unknown"'
    ("Test_ExpectNoDeferredChange_OneDeferral",
     plan(complete=False, deferred_changes=[deferred(TEST, "resource_config_unknown")]),
     (ExpectNoDeferredChanges(),),
     'ExpectNoDeferredChanges: test_resource.test: expected no deferred changes, but it is deferred with reason: '
     '"resource_config_unknown"'),
    ("Test_ExpectNoDeferredChange_MultipleDeferrals",
     plan(complete=False, deferred_changes=[deferred("test_resource_one.test", "resource_config_unknown"),
                                            deferred("test_resource_two.test", "absent_prereq")]),
     (ExpectNoDeferredChanges(),),
     "2 plan checks failed:\n"
     '  1. ExpectNoDeferredChanges: test_resource_one.test: expected no deferred changes, but it is deferred with reason: '
     '"resource_config_unknown"\n'
     '  2. ExpectNoDeferredChanges: test_resource_two.test: expected no deferred changes, but it is deferred with reason: '
     '"absent_prereq"'),
]


@rows(DEFERRED)
def test_deferred_changes(document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None) -> None:
    assert outcome(document, checks) == expected


# -- where ours deliberately differs from Go (docs/explanation/differences.md, "Plan checks") ---------------------

# Go's ExpectUnknownValue prints a known value with %v, a secret included; it says "<nil>" for null, and a
# partly unknown value fails with "invalid path: the path value cannot be asserted as bool".
MARKED = plan(change(RESOURCE_ONE, "create",
                     after={"password": PASSWORD, "nothing": None, "names": ["a", None]},
                     after_unknown={"id": True, "names": [False, True]},
                     after_sensitive={"password": True}))

DELIBERATE: list[Row] = [
    # Go: 'Expected unknown value at "password", but found known value: "hunter2-s3cr3t"'
    ("secret-is-never-shown", MARKED, (ExpectUnknownValue(RESOURCE_ONE, New("password")),),
     "ExpectUnknownValue: test_resource.one: password: expected an unknown value, but it is known: (sensitive)"),
    # Go: 'Expected unknown value at "nothing", but found known value: "<nil>"'
    ("null-is-told-apart", MARKED, (ExpectUnknownValue(RESOURCE_ONE, New("nothing")),),
     "ExpectUnknownValue: test_resource.one: nothing: expected an unknown value, but it is null"),
    # Go: "invalid path: the path value cannot be asserted as bool"
    ("partly-unknown-is-told-apart", MARKED, (ExpectUnknownValue(RESOURCE_ONE, New("names")),),
     "ExpectUnknownValue: test_resource.one: names: expected an unknown value, but it is known, with unknown parts: "
     '["a", <unknown>]'),
    # Go: "path not found: specified key absent not found in map at absent"
    ("absent-is-told-apart", MARKED, (ExpectUnknownValue(RESOURCE_ONE, New("absent")),),
     'ExpectUnknownValue: test_resource.one: absent: expected an unknown value, but it is not present '
     '(no key "absent" in an object with 4 keys, 1 unknown until apply: "id")'),
]


@rows(DELIBERATE)
def test_deliberate_differences(document: dict[str, Any], checks: tuple[PlanCheck, ...], expected: str | None) -> None:
    assert outcome(document, checks) == expected
    assert PASSWORD not in str(expected)
