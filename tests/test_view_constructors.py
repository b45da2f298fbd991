"""The document views built by hand (``ResourceChange(raw)``, ``StateResource(raw)``, ...) refuse an object that is
no such entry: it was a bare KeyError, AttributeError or TypeError from inside (``StateResource({})``,
``ResourceChange(1)``), or a view whose reads failed later (``Change({"actions": "create"}).actions`` spelt the
word). Now the schema's error for that entry, a PlanFormatError or StateFormatError naming the view and where in
the entry; a name that is no str is an ArgumentError. A plan and a state build theirs unchecked: validated whole."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plancheck._documents.views as views_module
from plancheck import (
    ActionInvocation,
    ArgumentError,
    Change,
    DeferredActionInvocation,
    DeferredChange,
    DocumentFormatError,
    OutputChange,
    Plan,
    PlanFormatError,
    ResourceChange,
    State,
    StateFormatError,
    StateOutput,
    StateResource,
)

_C = {"actions": ["create"]}
_RC = {"address": "a.b", "change": _C}
_AI = {"address": "action.t.n"}
_ACTION = 'an action: one of "no-op", "create", "read", "update", "delete", "forget"'
_MARKS = "a marks tree (true, false, or an object or array of marks trees)"


@dataclasses.dataclass(frozen=True)
class Row:
    """A view, what it is given, and the error it raises."""

    view: Callable[..., object]
    args: tuple[Any, ...]
    error: type[Exception]
    message: str


# (view, arguments, error, message): every view given no object, an empty one, each required key missing, and keys
# of the wrong type, its own and its parts' (a resource change's change, a deferral's entry, a trigger).
ROWS = [
    pytest.param(ResourceChange, (1,), PlanFormatError, "ResourceChange: $: expected a resource change object, found a number", id="resource-change-a-number"),
    pytest.param(ResourceChange, ({},), PlanFormatError, 'ResourceChange: $.address: expected a resource address string, found no "address" key', id="resource-change-empty"),
    pytest.param(ResourceChange, ({"change": _C},), PlanFormatError, 'ResourceChange: $.address: expected a resource address string, found no "address" key', id="resource-change-without-address"),
    pytest.param(ResourceChange, ({"address": "a.b"},), PlanFormatError, 'ResourceChange: $.change: expected a change object, found no "change" key', id="resource-change-without-change"),
    pytest.param(ResourceChange, ({"address": 1, "change": _C},), PlanFormatError, "ResourceChange: $.address: expected a resource address string, found a number", id="resource-change-address-a-number"),
    pytest.param(ResourceChange, ({**_RC, "mode": 1},), PlanFormatError, "ResourceChange: $.mode: expected a string, found a number", id="resource-change-mode-a-number"),
    pytest.param(ResourceChange, ({**_RC, "index": [0]},), PlanFormatError, "ResourceChange: $.index: expected an instance key (an integer or a string), found an array of 1 element", id="resource-change-index-an-array"),
    pytest.param(ResourceChange, ({**_RC, "index_unknown": "yes"},), PlanFormatError, "ResourceChange: $.index_unknown: expected a bool, found a string", id="resource-change-index-unknown-a-string"),
    pytest.param(ResourceChange, ({**_RC, "deposed": 1},), PlanFormatError, "ResourceChange: $.deposed: expected a deposed key string, found a number", id="resource-change-deposed-a-number"),
    pytest.param(ResourceChange, ({**_RC, "change": []},), PlanFormatError, "ResourceChange: $.change: expected a change object, found an array of 0 elements", id="resource-change-change-an-array"),
    pytest.param(ResourceChange, ({**_RC, "change": {"actions": "create"}},), PlanFormatError, "ResourceChange: $.change.actions: expected an array of actions, found a string", id="resource-change-actions-a-string"),
    pytest.param(Change, (None,), PlanFormatError, "Change: $: expected a change object, found null", id="change-none"),
    pytest.param(Change, ({},), PlanFormatError, 'Change: $.actions: expected an array of actions, found no "actions" key', id="change-empty"),
    pytest.param(Change, ({"actions": [1]},), PlanFormatError, f"Change: $.actions[0]: expected {_ACTION}, found a number", id="change-action-a-number"),
    pytest.param(Change, ({"actions": ["nop"]},), PlanFormatError, f'Change: $.actions[0]: expected {_ACTION}, found the string "nop"', id="change-action-unknown"),
    pytest.param(Change, ({**_C, "replace_paths": "a"},), PlanFormatError, "Change: $.replace_paths: expected an array of attribute paths, found a string", id="change-replace-paths-a-string"),
    pytest.param(Change, ({**_C, "replace_paths": ["a"]},), PlanFormatError, "Change: $.replace_paths[0]: expected an attribute path (an array of steps), found a string", id="change-replace-path-a-string"),
    pytest.param(Change, ({**_C, "after_unknown": "yes"},), PlanFormatError, f"Change: $.after_unknown: expected {_MARKS}, found a string", id="change-after-unknown-a-string"),
    pytest.param(Change, ({**_C, "after_sensitive": {"a": [1]}},), PlanFormatError, f"Change: $.after_sensitive.a[0]: expected {_MARKS}, found a number", id="change-after-sensitive-leaf-a-number"),
    pytest.param(Change, ({**_C, "importing": []},), PlanFormatError, "Change: $.importing: expected an object, found an array of 0 elements", id="change-importing-an-array"),
    pytest.param(Change, ({**_C, "before_identity": "i-1"},), PlanFormatError, "Change: $.before_identity: expected a resource identity object or null, found a string", id="change-identity-a-string"),
    pytest.param(OutputChange, (1, _C), ArgumentError, "OutputChange expects an output name (str), got int", id="output-change-name-a-number"),
    pytest.param(OutputChange, ("o", "create"), PlanFormatError, "OutputChange: $: expected a change object, found a string", id="output-change-a-string"),
    pytest.param(OutputChange, ("o", {}), PlanFormatError, 'OutputChange: $.actions: expected an array of actions, found no "actions" key', id="output-change-empty"),
    pytest.param(OutputChange, ("o", {**_C, "after_unknown": 1}), PlanFormatError, f"OutputChange: $.after_unknown: expected {_MARKS}, found a number", id="output-change-after-unknown-a-number"),
    pytest.param(DeferredChange, ([],), PlanFormatError, "DeferredChange: $: expected a deferred change object, found an array of 0 elements", id="deferred-change-an-array"),
    pytest.param(DeferredChange, ({},), PlanFormatError, 'DeferredChange: $.reason: expected a deferral reason string, found no "reason" key', id="deferred-change-empty"),
    pytest.param(DeferredChange, ({"resource_change": _RC},), PlanFormatError, 'DeferredChange: $.reason: expected a deferral reason string, found no "reason" key', id="deferred-change-without-reason"),
    pytest.param(DeferredChange, ({"reason": "r"},), PlanFormatError, 'DeferredChange: $.resource_change: expected a resource change object, found no "resource_change" key', id="deferred-change-without-change"),
    pytest.param(DeferredChange, ({"reason": 1, "resource_change": _RC},), PlanFormatError, "DeferredChange: $.reason: expected a deferral reason string, found a number", id="deferred-change-reason-a-number"),
    pytest.param(DeferredChange, ({"reason": "r", "resource_change": {"address": "a.b"}},), PlanFormatError, 'DeferredChange: $.resource_change.change: expected a change object, found no "change" key', id="deferred-change-change-without-change"),
    pytest.param(ActionInvocation, ("action.t.n",), PlanFormatError, "ActionInvocation: $: expected an action invocation object, found a string", id="invocation-a-string"),
    pytest.param(ActionInvocation, ({},), PlanFormatError, 'ActionInvocation: $.address: expected an action address string, found no "address" key', id="invocation-empty"),
    pytest.param(ActionInvocation, ({"address": None},), PlanFormatError, "ActionInvocation: $.address: expected an action address string, found null", id="invocation-address-null"),
    pytest.param(ActionInvocation, ({**_AI, "provider_name": 1},), PlanFormatError, "ActionInvocation: $.provider_name: expected a string, found a number", id="invocation-provider-a-number"),
    pytest.param(ActionInvocation, ({**_AI, "config_sensitive": "yes"},), PlanFormatError, f"ActionInvocation: $.config_sensitive: expected {_MARKS}, found a string", id="invocation-config-sensitive-a-string"),
    pytest.param(ActionInvocation, ({**_AI, "lifecycle_action_trigger": []},), PlanFormatError, "ActionInvocation: $.lifecycle_action_trigger: expected a lifecycle action trigger object, found an array of 0 elements", id="invocation-trigger-an-array"),
    pytest.param(ActionInvocation, ({**_AI, "lifecycle_action_trigger": {"action_trigger_event": 1}},), PlanFormatError, "ActionInvocation: $.lifecycle_action_trigger.action_trigger_event: expected an action trigger event string, found a number", id="invocation-event-a-number"),
    pytest.param(ActionInvocation, ({**_AI, "lifecycle_action_trigger": {"actions_list_index": "1"}},), PlanFormatError, "ActionInvocation: $.lifecycle_action_trigger.actions_list_index: expected an actions list index (an integer), found a string", id="invocation-list-index-a-string"),
    pytest.param(ActionInvocation, ({**_AI, "invoke_action_trigger": {"calling_resource_address": 1}},), PlanFormatError, "ActionInvocation: $.invoke_action_trigger.calling_resource_address: expected a resource address string, found a number", id="invocation-calling-address-a-number"),
    pytest.param(DeferredActionInvocation, (0,), PlanFormatError, "DeferredActionInvocation: $: expected a deferred action invocation object, found a number", id="deferred-invocation-a-number"),
    pytest.param(DeferredActionInvocation, ({},), PlanFormatError, 'DeferredActionInvocation: $.reason: expected a deferral reason string, found no "reason" key', id="deferred-invocation-empty"),
    pytest.param(DeferredActionInvocation, ({"reason": "r"},), PlanFormatError, 'DeferredActionInvocation: $.action_invocation: expected an action invocation object, found no "action_invocation" key', id="deferred-invocation-without-invocation"),
    pytest.param(DeferredActionInvocation, ({"reason": "r", "action_invocation": {}},), PlanFormatError, 'DeferredActionInvocation: $.action_invocation.address: expected an action address string, found no "address" key', id="deferred-invocation-without-address"),
    pytest.param(StateResource, (1,), StateFormatError, "StateResource: $: expected a resource object, found a number", id="state-resource-a-number"),
    pytest.param(StateResource, ({},), StateFormatError, 'StateResource: $.address: expected a resource address string, found no "address" key', id="state-resource-empty"),
    pytest.param(StateResource, ({"address": 1},), StateFormatError, "StateResource: $.address: expected a resource address string, found a number", id="state-resource-address-a-number"),
    pytest.param(StateResource, ({"address": "a.b", "index": 1.5},), StateFormatError, "StateResource: $.index: expected an instance key (an integer or a string), found a number", id="state-resource-index-a-float"),
    pytest.param(StateResource, ({"address": "a.b", "schema_version": "0"},), StateFormatError, "StateResource: $.schema_version: expected an integer, found a string", id="state-resource-schema-version-a-string"),
    pytest.param(StateResource, ({"address": "a.b", "deposed_key": 1},), StateFormatError, "StateResource: $.deposed_key: expected a deposed key string, found a number", id="state-resource-deposed-a-number"),
    pytest.param(StateResource, ({"address": "a.b", "tainted": "yes"},), StateFormatError, "StateResource: $.tainted: expected a bool, found a string", id="state-resource-tainted-a-string"),
    pytest.param(StateResource, ({"address": "a.b", "depends_on": ["x", 1]},), StateFormatError, "StateResource: $.depends_on[1]: expected a string, found a number", id="state-resource-dependency-a-number"),
    pytest.param(StateResource, ({"address": "a.b", "sensitive_values": "yes"},), StateFormatError, f"StateResource: $.sensitive_values: expected {_MARKS}, found a string", id="state-resource-marks-a-string"),
    pytest.param(StateResource, ({"address": "a.b", "identity": []},), StateFormatError, "StateResource: $.identity: expected a resource identity object or null, found an array of 0 elements", id="state-resource-identity-an-array"),
    pytest.param(StateResource, ({"address": "a.b"}, 1), ArgumentError, "StateResource expects a module address (str), got int", id="state-resource-module-a-number"),
    pytest.param(StateOutput, (None, {}), ArgumentError, "StateOutput expects an output name (str), got NoneType", id="state-output-name-none"),
    pytest.param(StateOutput, ("o", []), StateFormatError, "StateOutput: $: expected an output object, found an array of 0 elements", id="state-output-an-array"),
    pytest.param(StateOutput, ("o", {"sensitive": "true"}), StateFormatError, "StateOutput: $.sensitive: expected a bool, found a string", id="state-output-sensitive-a-string"),
]  # fmt: skip


@pytest.mark.parametrize(("view", "args", "error", "message"), ROWS)
def test_a_view_refuses_an_object_that_is_no_such_entry(
    view: Callable[..., object], args: tuple[Any, ...], error: type[Exception], message: str
) -> None:
    given_args = copy.deepcopy(args)
    with pytest.raises(error) as caught:
        view(*args)
    assert type(caught.value) is error
    assert str(caught.value) == message
    assert args == given_args  # nothing passed in is mutated


_SECRET = "hunter2-view-secret"


# A value or key the error would show is hidden where it is a secret of the entry: its own marks say so.
SECRETS = [
    pytest.param(Change, ({"actions": [_SECRET], "after": {"pw": _SECRET}, "after_sensitive": {"pw": True}},),
                 f"Change: $.actions[0]: expected {_ACTION}, found (sensitive)", id="change-action-a-secret"),
    pytest.param(ResourceChange, ({"address": "a.b", "change": {"actions": [_SECRET], "before": {"pw": _SECRET},
                                   "before_sensitive": {"pw": True}}},),
                 f"ResourceChange: $.change.actions[0]: expected {_ACTION}, found (sensitive)", id="resource-change-action-a-secret"),
    pytest.param(Change, ({"actions": [], "after": {_SECRET: "x"}, "after_sensitive": True, "after_unknown": {_SECRET: 1}},),
                 f'Change: $.after_unknown["(sensitive)"]: expected {_MARKS}, found a number', id="change-key-of-a-sensitive-map"),
    pytest.param(StateResource, ({"address": "a.b", "values": {"tags": {_SECRET: "x"}}, "sensitive_values": {"tags": True},
                                  "identity": {}, "depends_on": [1]},),
                 "StateResource: $.depends_on[0]: expected a string, found a number", id="state-resource-secret-elsewhere"),
    pytest.param(StateResource, ({"address": "a.b", "values": {"pw": _SECRET}, "sensitive_values": {"pw": True, _SECRET: [2]}},),
                 f'StateResource: $.sensitive_values["(sensitive)"][0]: expected {_MARKS}, found a number', id="state-resource-marks-key-a-secret"),
]  # fmt: skip


@pytest.mark.parametrize(("view", "args", "message"), SECRETS)
def test_a_view_error_hides_the_entry_s_secrets(view: Callable[..., object], args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(DocumentFormatError) as caught:
        view(*args)
    assert str(caught.value) == message
    assert _SECRET not in repr(caught.value)
    assert _SECRET not in repr(vars(caught.value))


def _cyclic_change() -> dict[str, Any]:
    after: dict[str, Any] = {"id": "x"}
    after["self"] = [after]
    return {"actions": ["create"], "after": after}


def test_a_view_refuses_a_cycle_naming_where_within_the_entry() -> None:
    with pytest.raises(PlanFormatError) as caught:
        ResourceChange({"address": "a.b", "change": _cyclic_change()})
    assert str(caught.value) == ('ResourceChange: $.change.after["(sensitive)"][0]: expected a JSON value (which holds '
                                 "no cycle), found a reference back to $.change.after")


_PLAN = {
    "format_version": "1.2",
    "resource_changes": [_RC, {**_RC, "address": "a.c"}],
    "resource_drift": [_RC],
    "output_changes": {"o": _C},
    "deferred_changes": [{"reason": "r", "resource_change": {**_RC, "address": "a.d"}}],
    "action_invocations": [_AI],
    "deferred_action_invocations": [{"reason": "r", "action_invocation": _AI}],
}
_STATE = {"format_version": "1.0", "values": {"outputs": {"o": {"value": 1}}, "root_module": {
    "resources": [{"address": "a.b"}], "child_modules": [{"address": "module.m", "resources": [{"address": "module.m.a.b"}]}]}}}  # fmt: skip


def _every_view(plan: Plan, state: State) -> list[object]:
    return [*plan.resource_changes, *plan.resource_drift, *plan.output_changes.values(), *plan.deferred_changes,
            *plan.action_invocations, *plan.deferred_action_invocations, plan.resource_change("a.b").change,
            plan.output_change("o").change, plan.deferred_changes[0].resource_change,
            plan.deferred_action_invocations[0].action_invocation, *state.resources, *state.outputs.values()]


def test_a_document_builds_its_views_without_checking_them_again(monkeypatch: pytest.MonkeyPatch) -> None:
    plan, state = Plan(_PLAN), State(_STATE)
    checked: list[str] = []
    monkeypatch.setattr(views_module, "entry", lambda kind, raw, view, at: checked.append(view))
    assert len(_every_view(plan, state)) == 14
    assert checked == []
    ResourceChange(_RC)
    StateOutput("o", {})
    assert checked == ["ResourceChange", "StateOutput"]  # the constructors do check, through the same function


# -- a property: whatever a view is given, it is built and read, or refused with the typed error -------------------

_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8),
                  st.sampled_from(["create", "delete", "no-op", "a.b", 'a.b["k"]', "AfterCreate"]))  # fmt: skip
_KEYS = st.sampled_from([
    "address", "change", "actions", "mode", "type", "name", "index", "deposed", "previous_address", "module_address",
    "action_reason", "provider_name", "before", "after", "after_unknown", "before_sensitive", "after_sensitive",
    "replace_paths", "importing", "before_identity", "after_identity", "reason", "resource_change",
    "action_invocation", "config_values", "config_unknown", "config_sensitive", "lifecycle_action_trigger",
    "invoke_action_trigger", "triggering_resource_address", "action_trigger_event", "action_trigger_block_index",
    "actions_list_index", "on_failure", "calling_resource_address", "values", "sensitive_values", "deposed_key",
    "tainted", "identity", "identity_schema_version", "value", "sensitive",
]) | st.text(max_size=4)  # fmt: skip
_JSON = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=6),
                     max_leaves=24)
# Beside JSON: values of Python types no parser makes (a tuple, bytes, a set, a complex number), as a caller may pass.
_ANY = st.one_of(_JSON, st.dictionaries(_KEYS, _JSON | st.from_type(tuple[int, ...]) | st.from_type(bytes)
                                        | st.from_type(frozenset[str]) | st.from_type(complex), max_size=6),
                 st.from_type(bytes), st.from_type(tuple[str, ...]))  # fmt: skip

# Each view, its error, and a sound entry that the property adds members to (most of them of a wrong type).
_VIEWS: list[tuple[Callable[[Any], object], type[DocumentFormatError], dict[str, Any]]] = [
    (ResourceChange, PlanFormatError, _RC), (Change, PlanFormatError, _C),
    (lambda raw: OutputChange("o", raw), PlanFormatError, _C),
    (DeferredChange, PlanFormatError, {"reason": "r", "resource_change": _RC}), (ActionInvocation, PlanFormatError, _AI),
    (DeferredActionInvocation, PlanFormatError, {"reason": "r", "action_invocation": _AI}),
    (StateResource, StateFormatError, {"address": "a.b"}), (lambda raw: StateOutput("o", raw), StateFormatError, {}),
]  # fmt: skip


_VIEW_NAMES = {"ResourceChange", "Change", "OutputChange", "DeferredChange", "ActionInvocation",
               "DeferredActionInvocation", "StateResource", "StateOutput"}  # fmt: skip


def _read_all(view: object) -> None:
    """Every public attribute of ``view`` read, its parts' too, and its repr made."""
    repr(view)
    for name in dir(view):
        if name.startswith("_"):
            continue
        value = getattr(view, name)
        if isinstance(value, (Change, ResourceChange, ActionInvocation)):
            _read_all(value)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(which=st.integers(0, len(_VIEWS) - 1), data=st.data())
def test_a_view_is_built_or_refused_with_its_typed_error(which: int, data: st.DataObject) -> None:
    view, error, sound = _VIEWS[which]
    members = st.dictionaries(_KEYS, _JSON | _LEAF, max_size=3)
    raw = data.draw(_ANY | members.map(lambda extra: {**sound, **extra}), label="raw")
    refused: list[DocumentFormatError] = []
    try:
        built = view(raw)
    except error as caught:
        refused.append(caught)
    else:
        _read_all(built)
    assert all(type(caught) is error and caught.source in _VIEW_NAMES for caught in refused)
