"""Every part of a plan or state that plancheck reads is validated: prior_state, planned_values,
configuration, and every marks tree; a malformed one is a located error, never a crash later.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loading_support import ROUTES, dumps, load_fully, route

from plancheck._documents.plan import Plan
from plancheck._documents.sensitive import collect_plan_secrets, collect_state_secrets
from plancheck._documents.state import State
from plancheck._errors import PlanFormatError, StateFormatError
from plancheck._loading.validate import load_schema, plan_validator, render_violation, state_validator

_MARKS = "a marks tree (true, false, or an object or array of marks trees)"


def _plan(**members: Any) -> bytes:
    return dumps({"format_version": "1.2", **members})


def _rc(change: dict[str, Any], key: str = "resource_changes") -> dict[str, Any]:
    return {key: [{"address": "null_resource.a", "change": {"actions": ["create"], **change}}]}


def _module(**members: Any) -> dict[str, Any]:
    return {"root_module": members}


PLAN_CASES: list[Any] = [
    # The crash of issue #12 item 8: a number where secret collection walks a list.
    pytest.param(
        _plan(prior_state={"values": _module(resources=5)}),
        "$.prior_state.values.root_module.resources: expected an array of resources, found a number",
        id="prior-state-resources-a-number",
    ),
    pytest.param(
        _plan(prior_state={"values": _module(child_modules="module.a")}),
        "$.prior_state.values.root_module.child_modules: expected an array of modules, found a string",
        id="prior-state-child-modules-a-string",
    ),
    pytest.param(
        _plan(prior_state={"values": _module(child_modules=[{"resources": [{"address": "a.b"}, 1]}])}),
        "$.prior_state.values.root_module.child_modules[0].resources[1]: expected a resource object, found a number",
        id="prior-state-child-resource-a-number",
    ),
    pytest.param(
        _plan(prior_state={"values": []}),
        "$.prior_state.values: expected an object holding outputs and modules, found an array of 0 elements",
        id="prior-state-values-an-array",
    ),
    pytest.param(
        _plan(prior_state="{}"),
        "$.prior_state: expected an object (the state before the plan), found a string",
        id="prior-state-a-string",
    ),
    pytest.param(
        _plan(prior_state={"values": {"outputs": {"pw": {"value": "x", "sensitive": "yes"}}}}),
        "$.prior_state.values.outputs.pw.sensitive: expected a bool, found a string",
        id="prior-state-output-sensitive-a-string",
    ),
    pytest.param(
        _plan(prior_state={"values": _module(resources=[{"address": "a.b", "sensitive_values": {"pw": 1}}])}),
        f"$.prior_state.values.root_module.resources[0].sensitive_values.pw: expected {_MARKS}, found a number",
        id="prior-state-sensitive-values-leaf-1",
    ),
    pytest.param(
        _plan(planned_values=_module(resources=[{"address": "a.b", "sensitive_values": {"tags": {"k": "true"}}}])),
        f'$.planned_values.root_module.resources[0].sensitive_values.tags.k: expected {_MARKS}, found a string',
        id="planned-sensitive-values-leaf-string-true",
    ),
    pytest.param(
        _plan(planned_values=_module(resources=[{"values": {}}])),
        '$.planned_values.root_module.resources[0].address: expected a resource address string, found no "address" key',
        id="planned-resource-without-address",
    ),
    pytest.param(
        _plan(planned_values={"outputs": {"o": 1}}),
        "$.planned_values.outputs.o: expected an output object, found a number",
        id="planned-output-a-number",
    ),
    pytest.param(
        _plan(planned_values={"outputs": {"o": {"sensitive": 1}}}),
        "$.planned_values.outputs.o.sensitive: expected a bool, found a number",
        id="planned-output-sensitive-a-number",
    ),
    pytest.param(
        _plan(configuration={"root_module": {"variables": {"pw": {"sensitive": "true"}}}}),
        "$.configuration.root_module.variables.pw.sensitive: expected a bool, found a string",
        id="config-variable-sensitive-a-string",
    ),
    pytest.param(
        _plan(configuration={"root_module": {"variables": {"pw": "sensitive"}}}),
        "$.configuration.root_module.variables.pw: expected a variable configuration object, found a string",
        id="config-variable-a-string",
    ),
    pytest.param(
        _plan(configuration={"root_module": {"variables": []}}),
        "$.configuration.root_module.variables: expected an object mapping variable names to their configuration, found an array of 0 elements",
        id="config-variables-an-array",
    ),
    pytest.param(
        _plan(configuration={"root_module": []}),
        "$.configuration.root_module: expected a module configuration object, found an array of 0 elements",
        id="config-root-module-an-array",
    ),
    pytest.param(
        _plan(**_rc({"after_sensitive": {"a": [True, 1]}})),
        f"$.resource_changes[0].change.after_sensitive.a[1]: expected {_MARKS}, found a number",
        id="after-sensitive-leaf-1",
    ),
    pytest.param(
        _plan(**_rc({"after_unknown": "true"})),
        f"$.resource_changes[0].change.after_unknown: expected {_MARKS}, found a string",
        id="after-unknown-string-true",
    ),
    pytest.param(
        _plan(**_rc({"before_sensitive": None})),
        f"$.resource_changes[0].change.before_sensitive: expected {_MARKS}, found null",
        id="before-sensitive-null",
    ),
    pytest.param(
        _plan(**_rc({"after_sensitive": {"x": {"y": [[None]]}}})),
        f"$.resource_changes[0].change.after_sensitive.x.y[0][0]: expected {_MARKS}, found null",
        id="after-sensitive-deep-null",
    ),
    pytest.param(
        _plan(**_rc({"before_sensitive": {"a": "b"}}, key="resource_drift")),
        f"$.resource_drift[0].change.before_sensitive.a: expected {_MARKS}, found a string",
        id="drift-before-sensitive",
    ),
    pytest.param(
        _plan(output_changes={"ip": {"actions": ["create"], "after_unknown": 0}}),
        f"$.output_changes.ip.after_unknown: expected {_MARKS}, found a number",
        id="output-after-unknown-0",
    ),
    pytest.param(
        _plan(deferred_changes=[{"reason": "r", "resource_change": _rc({"after_sensitive": [1.5]})["resource_changes"][0]}]),
        f"$.deferred_changes[0].resource_change.change.after_sensitive[0]: expected {_MARKS}, found a number",
        id="deferred-after-sensitive",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), PLAN_CASES)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_malformed_sections_of_a_plan_are_refused(route_name: str, validation: str, data: bytes, message: str) -> None:
    got = load_fully(route_name, data, validation)
    assert isinstance(got, PlanFormatError), got
    assert str(got) == f"plan.json: {message}"


def _load_or_error(data: bytes) -> Plan | PlanFormatError:
    with route("fast-lazy") as parser:
        try:
            return Plan.from_json(data, source="plan.json", parser=parser)
        except PlanFormatError as exc:
            return exc


def _read_every_member(plan: Plan) -> None:
    for key in list(plan.raw):
        plan.raw[key]


@pytest.mark.parametrize(("data", "message"), PLAN_CASES)
def test_the_fast_route_refuses_them_when_first_read(data: bytes, message: str) -> None:
    """planned_values, prior_state, configuration and entries' marks are validated on first read there."""
    plan = _load_or_error(data)
    if isinstance(plan, PlanFormatError):
        assert str(plan) == f"plan.json: {message}"
        return
    with pytest.raises(PlanFormatError) as caught:
        _read_every_member(plan)
    assert str(caught.value) == f"plan.json: {message}"
    # A value that failed is not kept as if it were valid: reading it again fails again.
    key = caught.value.location[2:].split(".")[0].split("[")[0]
    with pytest.raises(PlanFormatError) as again:
        plan.raw[key]
    assert str(again.value) == str(caught.value)


def _state(**values: Any) -> dict[str, Any]:
    return {"format_version": "1.0", "values": values}


STATE_CASES: list[Any] = [
    pytest.param(_state(root_module={"resources": 5}), "$.values.root_module.resources: expected an array of resources, found a number", id="resources-a-number"),
    pytest.param(
        _state(root_module={"resources": [{"address": "a.b", "sensitive_values": {"pw": 1}}]}),
        f"$.values.root_module.resources[0].sensitive_values.pw: expected {_MARKS}, found a number",
        id="sensitive-values-leaf-1",
    ),
    pytest.param(
        _state(root_module={"child_modules": [{"resources": [{"address": "a.b", "sensitive_values": "true"}]}]}),
        f"$.values.root_module.child_modules[0].resources[0].sensitive_values: expected {_MARKS}, found a string",
        id="child-sensitive-values-string",
    ),
    pytest.param(_state(outputs={"o": {"sensitive": "true"}}), "$.values.outputs.o.sensitive: expected a bool, found a string", id="output-sensitive-string"),
]  # fmt: skip


@pytest.mark.parametrize(("document", "message"), STATE_CASES)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_malformed_sections_of_a_state_are_refused(
    document: dict[str, Any], message: str, validation: str, parser: str
) -> None:
    with route(parser) as name, pytest.raises(StateFormatError) as caught:
        State.from_json(json.dumps(document), source="state.json", validation=validation, parser=name)
    assert str(caught.value) == f"state.json: {message}"


def test_the_crash_of_issue_12_item_8_is_gone() -> None:
    """Secret collection walked a number as a list; such a plan is now refused at load."""
    data = _plan(prior_state={"values": _module(resources=5)})
    with pytest.raises(PlanFormatError, match=r"resources: expected an array of resources, found a number$"):
        Plan.from_json(data)


@pytest.mark.parametrize("route_name", list(ROUTES))
def test_well_formed_sections_load_and_their_secrets_are_collected(route_name: str) -> None:
    data = _plan(
        variables={"pw": {"value": "var-s3cret"}},
        configuration={"root_module": {"variables": {"pw": {"sensitive": True}, "n": {}}}},
        planned_values={"outputs": {"o": {"value": "out-s3cret", "sensitive": True}},
                        **_module(resources=[{"address": "a.b", "values": {"k": "pv-s3cret", "l": [1]},
                                              "sensitive_values": {"k": True, "l": [False]}}])},
        prior_state={"format_version": "1.0", "values": _module(child_modules=[
            {"address": "module.m", "resources": [{"address": "module.m.a.b", "values": {"p": "prior-s3cret"},
                                                   "sensitive_values": {"p": True}}]}])},
        **_rc({"after": {"x": "rc-s3cret", "y": "shown"}, "after_sensitive": {"x": True, "y": False},
               "after_unknown": {"id": True, "tags": {}, "list": [[], {}]}, "before_sensitive": False}),
    )  # fmt: skip
    got = load_fully(route_name, data, "full")
    assert isinstance(got, Plan), got
    secrets = collect_plan_secrets(got.raw)
    for secret in ("var-s3cret", "out-s3cret", "pv-s3cret", "prior-s3cret", "rc-s3cret"):
        assert secret in secrets, secret
    assert "shown" not in secrets


def test_a_state_s_secrets_are_collected_after_validation() -> None:
    state = State.from_dict(_state(root_module={"resources": [{"address": "a.b", "values": {"pw": "st-s3cret"},
                                                               "sensitive_values": {"pw": True}}]}))  # fmt: skip
    assert "st-s3cret" in collect_state_secrets(state.raw)


def test_both_schemas_share_the_definitions_of_what_they_both_read() -> None:
    plan, state = load_schema("plan"), load_schema("state")
    for name in ("output", "module", "resource", "marks"):
        assert plan["$defs"][name] == state["$defs"][name], name


# -- marks trees: the compiled validator and jsonschema agree ---------------------------------------

_leaves = st.sampled_from([True, False, 1, 0, "true", None, 1.5, "x"])
marks_trees = st.recursive(
    _leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "c-d"]), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(marks_trees, st.sampled_from(["after_unknown", "after_sensitive", "before_sensitive", "sensitive_values"]))
def test_marks_trees_are_judged_alike_by_both_validators(tree: Any, where: str) -> None:
    if where == "sensitive_values":
        document: dict[str, Any] = {"format_version": "1.0", "values": _module(resources=[{"address": "a.b", where: tree}])}
        validator, error = state_validator(), StateFormatError
    else:
        document = {"format_version": "1.2", **_rc({where: tree})}
        validator, error = plan_validator(), PlanFormatError  # type: ignore[assignment]
    fast = validator.first_violation(document)
    full = validator.first_full_violation(document)
    assert (fast is None) == (full is None)
    assert (fast is None) == _is_marks(tree)
    if fast is not None and full is not None:
        assert str(render_violation(fast, document, validator.schema, error, None)) == str(
            render_violation(full, document, validator.schema, error, None)
        )


def _is_marks(tree: Any) -> bool:
    stack = [tree]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif not isinstance(value, bool):
            return False
    return True
