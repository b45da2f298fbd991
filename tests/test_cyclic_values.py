"""A value holding a cycle, given to any public entry that takes Python values, is refused with a typed error
naming where: never a RecursionError, and never a walk that goes round it for ever.

Parsed JSON holds no cycle; a Python value can (a dict put inside itself). Every walk of one (the secret walk,
validation, building checks, writing JSON, comparing) would go round it for ever: before these rows
``Plan(raw).secrets``, ``State(raw).secrets``, ``knownvalue.exact``, ``TestStep(variables=...)``,
``mock_plan(variables=...)``, ``flatten`` and ``CompareValues`` hung, and ``TestStep(config=...)`` took the cycle.
Each message is pinned whole; the planted secret (the looped value's string, under a sensitive mark or a
Sensitive wrapper in the rows that have one, or a plain map's key spelling a Sensitive string of the same variables)
shows in none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from plancheck import Plan, PlanFormatError, State, StateFormatError, tfconfig
from plancheck import knownvalue as kv
from plancheck.acceptance import (
    MockPlanArgumentError,
    Sensitive,
    TestDefinitionError,
    TestStep,
    flatten,
    mock_plan,
)
from plancheck.compare import ValuesSame

SECRET = "hunter2-looped-7Qz"


def _looped() -> dict[str, Any]:
    """``{"a": SECRET, "self": <itself>}``."""
    value: dict[str, Any] = {"a": SECRET}
    value["self"] = value
    return value


def _looped_list() -> list[Any]:
    value: list[Any] = [SECRET]
    value.append(value)
    return value


def _sensitive_variable_plan() -> dict[str, Any]:
    return {"format_version": "1.2", "variables": {"pw": {"value": _looped()}},
            "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}


_BACK = "expected a JSON value (which holds no cycle), found a reference back to"

CASES = [
    pytest.param(lambda: Plan({"format_version": "1.2", "output_changes": {"o": {
        "actions": ["create"], "after": _looped(), "after_sensitive": True}}}).secrets,
        PlanFormatError, f'$.output_changes.o.after["(sensitive)"]: {_BACK} $.output_changes.o.after',
        id="plan-constructor-sensitive-output-change"),
    pytest.param(lambda: Plan(_sensitive_variable_plan()).secrets,
                 PlanFormatError, f'$.variables.pw.value["(sensitive)"]: {_BACK} $.variables.pw.value',
                 id="plan-constructor-sensitive-variable"),
    pytest.param(lambda: Plan.from_dict(_sensitive_variable_plan()),
                 PlanFormatError, f'$.variables.pw.value["(sensitive)"]: {_BACK} $.variables.pw.value',
                 id="plan-from-dict-kept"),
    pytest.param(lambda: State({"format_version": "1.0", "values": {"outputs": {"o": {
        "sensitive": True, "value": _looped()}}}}, source="s.json").secrets,
        StateFormatError, f's.json: $.values.outputs.o.value["(sensitive)"]: {_BACK} $.values.outputs.o.value',
        id="state-constructor-sensitive-output"),
    pytest.param(lambda: State.from_dict({"format_version": "1.0", "values": {"outputs": {"o": {
        "sensitive": True, "value": _looped()}}}}),
        StateFormatError, f'$.values.outputs.o.value["(sensitive)"]: {_BACK} $.values.outputs.o.value',
        id="state-from-dict-kept"),
    pytest.param(lambda: kv.exact({"tags": _looped()}), TypeError,
                 'exact: the value at tags["self"] contains itself (a cycle back to tags)', id="knownvalue-exact"),
    pytest.param(lambda: kv.exact(_looped_list()), TypeError,
                 "exact: the value at [1] contains itself (a cycle back to the root)", id="knownvalue-exact-list"),
    pytest.param(lambda: tfconfig.ExpectVariable("v", default=_looped()), TypeError,
                 "ExpectVariable: expected a knownvalue check or a JSON value; exact: the value at self contains "
                 "itself (a cycle back to the root)", id="tfconfig-check-default"),
    pytest.param(lambda: tfconfig.ExpectResourceWithProperties("null_resource", {"triggers": _looped()}), TypeError,
                 "ExpectResourceWithProperties: expected a knownvalue check or a JSON value; the value at "
                 'triggers["self"] contains itself (a cycle back to triggers)', id="tfconfig-check-properties"),
    pytest.param(lambda: tfconfig.config_from_dict({"locals": _looped()}), tfconfig.ConfigFormatError,
                 '$.locals["self"]: expected a tree of values, found a value that contains itself (a cycle)',
                 id="tfconfig-config-from-dict-kept"),
    pytest.param(lambda: ValuesSame().CompareValues([_looped(), {"a": 1}]), TypeError,
                 "CompareValues: values[0] is not a JSON value: the value at self contains itself (a cycle back to "
                 "the root)", id="compare-values"),
    pytest.param(lambda: TestStep(config="", variables={"v": _looped()}), TestDefinitionError,
                 'TestStep.variables["v"]["self"]: expected a JSON value, got a value that contains itself (a cycle)',
                 id="test-step-variables"),
    pytest.param(lambda: TestStep(config="", variables={"v": Sensitive(_looped())}), TestDefinitionError,
                 'TestStep.variables["v"]["(sensitive)"]: expected a JSON value, got a value that contains itself '
                 "(a cycle)", id="test-step-sensitive-variable"),
    # A plain variable's key spelling a string Sensitive elsewhere in the step: hidden as that string is.
    pytest.param(lambda: TestStep(config="", variables={"pw": Sensitive(SECRET), "v": {SECRET: _looped()}}),
                 TestDefinitionError, 'TestStep.variables["v"]["(sensitive)"]["self"]: expected a JSON value, got a '
                 "value that contains itself (a cycle)", id="test-step-variables-key-spelling-a-secret"),
    # ... also when the Sensitive holding it holds a cycle itself (its strings are collected, each container once):
    # its key "self" is a secret as well.
    pytest.param(lambda: TestStep(config="", variables={"v": {SECRET: _looped()}, "pw": Sensitive(_looped())}),
                 TestDefinitionError, 'TestStep.variables["v"]["(sensitive)"]["(sensitive)"]: expected a JSON value, '
                 "got a value that contains itself (a cycle)", id="test-step-variables-key-spelling-a-looped-secret"),
    pytest.param(lambda: TestStep(config={"locals": _looped()}), TestDefinitionError,
                 'TestStep.config["locals"]["self"]: expected a JSON value, got a value that contains itself (a cycle)',
                 id="test-step-config-dict"),
    # A key below a block's type and two labels may be a secret's: keyed by the secret here, none is named.
    pytest.param(lambda: TestStep(config={"variable": {"pw": {"sensitive": True, "default": {SECRET: _looped()}}}}),
                 TestDefinitionError,
                 'TestStep.config["variable"]["pw"]["default"]["(sensitive)"]["(sensitive)"]: expected a JSON value, '
                 "got a value that contains itself (a cycle)", id="test-step-config-sensitive-variable-default"),
    pytest.param(lambda: TestStep(config={"output": {"o": {"sensitive": True, "value": {SECRET: _looped()}}}}),
                 TestDefinitionError,
                 'TestStep.config["output"]["o"]["value"]["(sensitive)"]["(sensitive)"]: expected a JSON value, '
                 "got a value that contains itself (a cycle)", id="test-step-config-sensitive-output"),
    pytest.param(lambda: TestStep(config={"module": [{"child": {"source": "./c", "token": {SECRET: _looped()}}}]}),
                 TestDefinitionError,
                 'TestStep.config["module"][0]["child"]["token"]["(sensitive)"]["(sensitive)"]: expected a JSON '
                 "value, got a value that contains itself (a cycle)", id="test-step-config-child-sensitive-input"),
    pytest.param(lambda: mock_plan(".", mocks=[], variables={"v": Sensitive(_looped_list())}), MockPlanArgumentError,
                 'variables["v"][1]: expected a JSON value, got a value that contains itself (a cycle)',
                 id="mock-plan-variables"),
    pytest.param(lambda: mock_plan(".", mocks=[], variables={"pw": Sensitive(SECRET), "v": [{SECRET: _looped()}]}),
                 MockPlanArgumentError, 'variables["v"][0]["(sensitive)"]["self"]: expected a JSON value, got a value '
                 "that contains itself (a cycle)", id="mock-plan-variables-key-spelling-a-secret"),
    pytest.param(lambda: flatten({"tags": _looped()}), StateFormatError,
                 "$: expected an object of attribute values, found a value that contains itself (a cycle)",
                 id="flatten"),
    pytest.param(lambda: flatten({"tags": _looped()}, {"tags": True}), StateFormatError,
                 "$: expected an object of attribute values, found a value that contains itself (a cycle)",
                 id="flatten-sensitive"),
]


@pytest.mark.parametrize(("call", "error", "message"), CASES)
def test_a_value_holding_a_cycle_is_refused_naming_where(call: Callable[[], object], error: type[Exception],
                                                           message: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message
    assert SECRET not in str(info.value)
