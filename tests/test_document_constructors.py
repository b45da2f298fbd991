"""Plan(raw) and State(raw) take a document already parsed; given JSON text, None or a list they failed inside
with AttributeError: 'str' object has no attribute 'get'. A TypeError that says what to call instead. And they
validate it as the loaders do: a document that is no plan (state) was a bare KeyError or TypeError from inside."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from plancheck import Plan, PlanFormatError, State, StateFormatError


@pytest.mark.parametrize(("make", "message"), [
    pytest.param(lambda: Plan('{"format_version": "1.2"}'), "Plan() takes a plan document already parsed (a dict), "
                 "got str: load one with plancheck.load_plan, Plan.from_json or Plan.from_dict", id="plan-json-text"),
    pytest.param(lambda: Plan(None), "Plan() takes a plan document already parsed (a dict), got NoneType: load one "
                 "with plancheck.load_plan, Plan.from_json or Plan.from_dict", id="plan-none"),
    pytest.param(lambda: State([]), "State() takes a state document already parsed (a dict), got list: load one "
                 "with plancheck.load_state, State.from_json or State.from_dict", id="state-list"),
])
def test_a_document_constructor_given_no_dict_says_what_to_call(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as caught:
        make()
    assert str(caught.value) == message


_RC = {"address": "null_resource.a", "mode": "managed", "type": "null_resource", "name": "a", "change": {"actions": ["create"]}}


def _plan(**members: Any) -> dict[str, Any]:
    return {"format_version": "1.2", **members}


def _state(**values: Any) -> dict[str, Any]:
    return {"format_version": "1.0", "values": values}


# Each document was read unvalidated: a bare KeyError/TypeError/AttributeError from inside (the first rows), or a
# plan or state no loader accepts, which a check would have met later. Now the constructor's schema error.
UNSOUND = [
    pytest.param(Plan, _plan(resource_changes=[{"change": {"actions": ["create"]}}]),
                 '$.resource_changes[0].address: expected a resource address string, found no "address" key',
                 id="plan-change-without-address"),
    pytest.param(Plan, _plan(resource_changes=5),
                 "$.resource_changes: expected an array of resource changes, found a number", id="plan-changes-a-number"),
    pytest.param(Plan, _plan(resource_changes=[5]),
                 "$.resource_changes[0]: expected a resource change object, found a number", id="plan-change-a-number"),
    pytest.param(Plan, _plan(output_changes=[1]),
                 "$.output_changes: expected an object mapping output names to changes, found an array of 1 element",
                 id="plan-output-changes-an-array"),
    pytest.param(Plan, _plan(variables=[1]), "$.variables: expected an object, found an array of 1 element",
                 id="plan-variables-an-array"),
    pytest.param(Plan, _plan(variables={"pw": "hunter2"}),
                 "$.variables.pw: expected an object holding the variable's value, found a string",
                 id="plan-variable-not-an-object"),
    pytest.param(Plan, _plan(resource_drift=["x"]), "$.resource_drift[0]: expected a resource change object, found a string",
                 id="plan-drift-a-string"),
    pytest.param(Plan, _plan(resource_drift=[{"change": {}}, _RC]),
                 '$.resource_drift[0].address: expected a resource address string, found no "address" key',
                 id="plan-drift-without-address"),
    pytest.param(Plan, _plan(deferred_changes=[3]), "$.deferred_changes[0]: expected a deferred change object, found a number",
                 id="plan-deferral-a-number"),
    pytest.param(Plan, _plan(deferred_changes=[{"reason": "excluded", "resource_change": "x"}]),
                 "$.deferred_changes[0].resource_change: expected a resource change object, found a string",
                 id="plan-deferral-change-a-string"),
    pytest.param(Plan, _plan(prior_state=5), "$.prior_state: expected an object (the state before the plan), found a number",
                 id="plan-prior-state-a-number"),
    pytest.param(Plan, _plan(prior_state={"format_version": "1.0", "values": 5}),
                 "$.prior_state.values: expected an object holding outputs and modules, found a number",
                 id="plan-prior-state-values-a-number"),
    pytest.param(Plan, _plan(configuration=5), "$.configuration: expected an object (the configuration), found a number",
                 id="plan-configuration-a-number"),
    pytest.param(Plan, _plan(configuration={"root_module": [1]}),
                 "$.configuration.root_module: expected a module configuration object, found an array of 1 element",
                 id="plan-configuration-module-an-array"),
    pytest.param(Plan, _plan(planned_values={"outputs": [1]}),
                 "$.planned_values.outputs: expected an object mapping output names to outputs, found an array of 1 element",
                 id="plan-planned-outputs-an-array"),
    pytest.param(Plan, _plan(action_invocations=[1]),
                 "$.action_invocations[0]: expected an action invocation object, found a number", id="plan-action-a-number"),
    pytest.param(Plan, _plan(errored="yes"), "$.errored: expected a bool, found a string", id="plan-errored-a-string"),
    pytest.param(Plan, _plan(resource_changes=[{**_RC, "change": {"actions": ["update"], "after": {"k": "hunter2"},
                                                                   "after_sensitive": {"k": 1}}}]),
                 "$.resource_changes[0].change.after_sensitive.k: expected a marks tree (true, false, or an object or "
                 "array of marks trees), found a number", id="plan-malformed-marks"),
    pytest.param(State, _state(root_module={"resources": [{}]}),
                 '$.values.root_module.resources[0].address: expected a resource address string, found no "address" key',
                 id="state-resource-without-address"),
    pytest.param(State, {"format_version": "1.0", "values": 5},
                 "$.values: expected an object holding the state's outputs and modules, found a number",
                 id="state-values-a-number"),
    pytest.param(State, {"values": 5}, "$.format_version: expected a state format version 0.x or 1.x (plancheck reads "
                 'terraform show -json states of major format version 0 and 1), found no "format_version" key',
                 id="state-without-format-version"),
    pytest.param(State, _state(outputs=[1]),
                 "$.values.outputs: expected an object mapping output names to outputs, found an array of 1 element",
                 id="state-outputs-an-array"),
    pytest.param(State, _state(outputs={"a": 1}), "$.values.outputs.a: expected an output object, found a number",
                 id="state-output-a-number"),
    pytest.param(State, _state(outputs={"pw": {"value": "hunter2", "sensitive": "yes"}}),
                 "$.values.outputs.pw.sensitive: expected a bool, found a string", id="state-sensitive-not-a-bool"),
    pytest.param(State, _state(root_module=5), "$.values.root_module: expected a module object, found a number",
                 id="state-module-a-number"),
    pytest.param(State, _state(root_module={"resources": 5}),
                 "$.values.root_module.resources: expected an array of resources, found a number",
                 id="state-resources-a-number"),
    pytest.param(State, _state(root_module={"resources": [5]}),
                 "$.values.root_module.resources[0]: expected a resource object, found a number",
                 id="state-resource-a-number"),
    pytest.param(State, _state(root_module={"child_modules": [5]}),
                 "$.values.root_module.child_modules[0]: expected a module object, found a number",
                 id="state-child-module-a-number"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "raw", "message"), UNSOUND)
def test_the_constructor_validates_as_from_dict_does(kind: type[Plan | State], raw: dict[str, Any], message: str) -> None:
    """Plan(raw)/State(raw) validate (fast) as the loaders do: a typed error naming the JSON path, the same as
    from_dict's, and the document left as it was given."""
    error = PlanFormatError if kind is Plan else StateFormatError
    before = copy.deepcopy(raw)
    with pytest.raises(error) as caught:
        kind(raw, source="doc.json")
    assert str(caught.value) == f"doc.json: {message}"
    assert "hunter2" not in f"{caught.value} {caught.value!r} {caught.value.args}"
    with pytest.raises(error) as loaded:
        kind.from_dict(raw, source="doc.json")
    assert str(loaded.value) == str(caught.value)
    assert raw == before
