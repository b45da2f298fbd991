"""Python twins of Go's plancheck ExpectKnownValue, ExpectKnownOutputValue and ExpectKnownOutputValueAtPath tests.

Each Go test runs a configuration through a test provider and checks the plan; each
twin builds the plan that configuration gives and pins our exact message.
"""

from __future__ import annotations

from typing import Any

import pytest
from known_go_cases import GO_CASES, OUTPUT_OF, WHOLE_OUTPUT, GoCase, case_id, failure_text

from plancheck import Plan, PlanCheck, PlanCheckError
from plancheck import knownvalue as kv
from plancheck._planchecks.values import (
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
)
from tfjsonpath import New, Path

ADDRESS = "test_resource.one"


def plan_of(case: GoCase) -> Plan:
    """The plan of ``resource "test_resource" "one"`` with the case's configuration, and Go's outputs."""
    values = case.values()
    outputs = {
        OUTPUT_OF[name]: {"actions": ["create"], "before": None, "after": value, "after_unknown": False}
        for name, value in values.items()
    }
    # The whole-resource output is known but for the computed id (Terraform >= 1.3).
    outputs[WHOLE_OUTPUT] = {
        "actions": ["create"],
        "before": None,
        "after": values,
        "after_unknown": {"id": True},
    }
    return Plan.from_dict(
        {
            "format_version": "1.2",
            "resource_changes": [
                {
                    "address": ADDRESS,
                    "mode": "managed",
                    "type": "test_resource",
                    "name": "one",
                    "change": {
                        "actions": ["create"],
                        "before": None,
                        "after": values,
                        "after_unknown": {"id": True},
                        "after_sensitive": {},
                    },
                }
            ],
            "output_changes": outputs,
        }
    )


def messages(check: PlanCheck, plan: Plan) -> list[str]:
    return [str(f) for f in check.failures(plan)]


def expected(check: str, address: str, prefix: str, case: GoCase) -> list[str]:
    if case.expected is None:
        return []
    location, reason = case.expected
    return [failure_text(check, address, prefix + location, reason)]


@pytest.mark.parametrize(
    "case", GO_CASES, ids=[case_id("TestExpectKnownValue_CheckPlan", c) for c in GO_CASES]
)
def test_expect_known_value(case: GoCase) -> None:
    check = ExpectKnownValue(ADDRESS, New(case.attribute), case.matcher)
    assert messages(check, plan_of(case)) == expected("ExpectKnownValue", ADDRESS, case.attribute, case)


@pytest.mark.parametrize(
    "case", GO_CASES, ids=[case_id("TestExpectKnownOutputValue_CheckPlan", c) for c in GO_CASES]
)
def test_expect_known_output_value(case: GoCase) -> None:
    name = OUTPUT_OF[case.attribute]
    check = ExpectKnownOutputValue(name, case.matcher)
    assert messages(check, plan_of(case)) == expected("ExpectKnownOutputValue", f"output.{name}", "", case)


@pytest.mark.parametrize(
    "case", GO_CASES, ids=[case_id("TestExpectKnownOutputValueAtPath_CheckPlan", c) for c in GO_CASES]
)
def test_expect_known_output_value_at_path(case: GoCase) -> None:
    check = ExpectKnownOutputValueAtPath(WHOLE_OUTPUT, New(case.attribute), case.matcher)
    want = expected("ExpectKnownOutputValueAtPath", f"output.{WHOLE_OUTPUT}", case.attribute, case)
    assert messages(check, plan_of(case)) == want


BOOL_PLAN = plan_of(GO_CASES[0])

NOT_FOUND: list[tuple[str, PlanCheck, str]] = [
    (
        "TestExpectKnownValue_CheckPlan_ResourceNotFound",
        ExpectKnownValue("test_resource.two", New("bool_attribute"), kv.Bool(True)),
        "ExpectKnownValue: test_resource.two: resource not found in plan ResourceChanges; "
        "closest: test_resource.one",
    ),
    (
        "TestExpectKnownOutputValue_CheckPlan_OutputNotFound",
        ExpectKnownOutputValue("bool_not_found", kv.Bool(True)),
        "ExpectKnownOutputValue: output.bool_not_found: output not found in plan OutputChanges; "
        "the plan has no similar output name",
    ),
    (
        "TestExpectKnownOutputValueAtPath_CheckPlan_ResourceNotFound",
        ExpectKnownOutputValueAtPath("test_resource_two_output", New("bool_attribute"), kv.Bool(True)),
        "ExpectKnownOutputValueAtPath: output.test_resource_two_output: output not found in plan "
        "OutputChanges; closest: test_resource_one_output",
    ),
]


@pytest.mark.parametrize(("check", "message"), [r[1:] for r in NOT_FOUND], ids=[r[0] for r in NOT_FOUND])
def test_not_found(check: PlanCheck, message: str) -> None:
    with pytest.raises(PlanCheckError) as info:
        check.CheckPlan(BOOL_PLAN)
    assert str(info.value) == message


def _float32_plan(value: Any) -> Plan:
    return Plan.from_dict(
        {
            "format_version": "1.2",
            "resource_changes": [
                {
                    "address": "example_resource.test",
                    "change": {"actions": ["create"], "after": {"attribute": value}},
                }
            ],
            "output_changes": {"float32_output": {"actions": ["create"], "after": value}},
        }
    )


# Go's "unrecognised-type" case hands the check a Go float32; a Python set is our value of no JSON type.
UNKNOWN_TYPE: list[tuple[str, PlanCheck, str]] = [
    (
        "TestExpectKnownValue_CheckPlan_UnknownAttributeType-unrecognised-type",
        ExpectKnownValue("example_resource.test", New("attribute"), kv.Int64Exact(123)),
        "ExpectKnownValue: example_resource.test: attribute: expected number value for Int64Exact check, "
        "got: non-JSON set; expected 123, got <set>",
    ),
    (
        "TestExpectKnownOutputValue_CheckPlan_UnknownAttributeType-unrecognised-type",
        ExpectKnownOutputValue("float32_output", kv.Int64Exact(123)),
        "ExpectKnownOutputValue: output.float32_output: expected number value for Int64Exact check, "
        "got: non-JSON set; expected 123, got <set>",
    ),
    (
        "TestExpectKnownOutputValueAtPath_CheckPlan_UnknownAttributeType-unrecognised-type",
        ExpectKnownOutputValueAtPath("float32_output", Path(), kv.Int64Exact(123)),
        "ExpectKnownOutputValueAtPath: output.float32_output: expected number value for Int64Exact check, "
        "got: non-JSON set; expected 123, got <set>",
    ),
]


@pytest.mark.parametrize(
    ("check", "message"), [r[1:] for r in UNKNOWN_TYPE], ids=[r[0] for r in UNKNOWN_TYPE]
)
def test_unknown_attribute_type(check: PlanCheck, message: str) -> None:
    assert messages(check, _float32_plan({123})) == [message]
