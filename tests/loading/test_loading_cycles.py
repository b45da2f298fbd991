"""A document given as Python values can hold itself, which parsed JSON cannot: Plan.from_dict, State.from_dict,
load_plan/load_state of a dict and QueryOutput.from_messages went round the cycle for ever (validation's walk, the
secret walk) or raised RecursionError (the quick test, resolving a path, rendering). Each refuses it with its
format error, naming where the reference is and the container it refers back to; keys inside a holder's values
or marks are hidden there, as the marks that tell which are secret are not read (their walks may go round it too).
A key on the way to a holder is hidden where it spells a secret of the document with its cycles cut (leak23), and
every key is where more cycles than the error cuts leave the secrets unread.
A value met twice elsewhere (one mapping shared by two places) is no cycle and loads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from plancheck import (
    DocumentFormatError,
    Plan,
    PlanFormatError,
    State,
    StateFormatError,
    load_plan,
    load_state,
)
from plancheck.querycheck import QueryFormatError, QueryOutput


def _plan(**change: Any) -> dict[str, Any]:
    return {"format_version": "1.2", "resource_changes": [{
        "address": "t.a", "mode": "managed", "type": "t", "name": "a", "provider_name": "p",
        "change": {"actions": ["create"], "before": None, "after": {"id": "a"}, "after_unknown": {},
                   "before_sensitive": False, "after_sensitive": {}, **change},
    }]}  # fmt: skip


def _holding_itself() -> dict[str, Any]:
    value: dict[str, Any] = {"id": "a"}
    value["tags"] = {"hunter2-key": [value]}
    return value


def _looping() -> dict[str, Any]:
    marks: dict[str, Any] = {}
    marks["x"] = marks
    return marks


def _plan_holding_itself() -> dict[str, Any]:
    plan = _plan()
    plan["configuration"] = {"provider_config": plan}
    return plan


def _plan_listing_its_changes() -> dict[str, Any]:
    plan = _plan()
    plan["resource_changes"].append(plan["resource_changes"])
    return plan


def _plan_with_variables_inside() -> dict[str, Any]:
    plan = _plan()
    plan["variables"] = {"v": {"value": None}}
    plan["variables"]["v"]["value"] = plan["variables"]
    return plan


def _state_module_inside() -> dict[str, Any]:
    root: dict[str, Any] = {"resources": []}
    root["child_modules"] = [root]
    return {"format_version": "1.0", "values": {"root_module": root}}


def _message_inside() -> list[dict[str, Any]]:
    found: dict[str, Any] = {"address": "list.a.b", "display_name": "x", "resource_type": "a", "identity": {}}
    message = {"type": "list_resource_found", "list_resource_found": found}
    found["identity"]["id"] = message
    return [{"type": "version", "terraform": "1.14.0", "ui": "1.2"}, message]


_SECRET = "hunter2-LEAK23"
_SENSITIVE_PW = {"variables": {"pw": {"value": _SECRET}},
                 "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}}


def _output_named_by_a_secret() -> dict[str, Any]:
    # An output whose name is a sensitive variable's value: the way to its cycle spells the secret.
    return {**_plan(), **_SENSITIVE_PW, "output_changes": {_SECRET: {"actions": ["create"], "after": _looping()}}}


def _state_keyed_by_a_secret() -> dict[str, Any]:
    return {"format_version": "1.0", _SECRET: _looping(),
            "values": {"outputs": {"pw": {"sensitive": True, "value": _SECRET}}, "root_module": {"resources": []}}}


def _variable_holding_its_map() -> dict[str, Any]:
    # A sensitive variable whose value is the variables map holding it: the walk going round the cycle meets the
    # map's keys in the value, the variable's name among them, which the cut document's walk alone does not.
    variables: dict[str, Any] = {}
    variables[_SECRET] = {"value": variables}
    return {**_plan(), "variables": variables,
            "configuration": {"root_module": {"variables": {_SECRET: {"sensitive": True}}}}}


def _many_cycles() -> dict[str, Any]:
    # More cycles than the error cuts to read the secrets: no key of the way is vouched for.
    return {**_plan(), "configuration": {"loops": [_looping() for _ in range(101)]}}


_BACK = "expected a JSON value (which holds no cycle), found a reference back to"


@pytest.mark.parametrize(("load", "error", "message"), [
    pytest.param(lambda: Plan.from_dict(_plan(after=_holding_itself())), PlanFormatError,
                 f'$.resource_changes[0].change.after["(sensitive)"]["(sensitive)"][0]: {_BACK} '
                 "$.resource_changes[0].change.after", id="plan-value"),
    pytest.param(lambda: Plan.from_dict(_plan(after_sensitive=_looping())), PlanFormatError,
                 f'$.resource_changes[0].change.after_sensitive["(sensitive)"]: {_BACK} '
                 "$.resource_changes[0].change.after_sensitive", id="plan-marks"),
    pytest.param(lambda: Plan.from_dict(_plan(after_unknown=_looping()), validation="full"), PlanFormatError,
                 f'$.resource_changes[0].change.after_unknown["(sensitive)"]: {_BACK} '
                 "$.resource_changes[0].change.after_unknown", id="plan-unknown-marks-full-validation"),
    pytest.param(lambda: Plan.from_dict(_plan_holding_itself()), PlanFormatError,
                 f"$.configuration.provider_config: {_BACK} $", id="plan-top"),
    pytest.param(lambda: Plan.from_dict(_plan_listing_its_changes()), PlanFormatError,
                 f"$.resource_changes[1]: {_BACK} $.resource_changes", id="plan-changes"),
    pytest.param(lambda: load_plan(_plan_with_variables_inside()), PlanFormatError,
                 f"$.variables.v.value: {_BACK} $.variables", id="load-plan-variables"),
    pytest.param(lambda: State.from_dict(_state_module_inside()), StateFormatError,
                 f"$.values.root_module.child_modules[0]: {_BACK} $.values.root_module", id="state-module"),
    pytest.param(lambda: load_state(_state_module_inside()), StateFormatError,
                 f"$.values.root_module.child_modules[0]: {_BACK} $.values.root_module", id="load-state-module"),
    pytest.param(lambda: QueryOutput.from_messages(_message_inside()), QueryFormatError,
                 f"line 2: $.list_resource_found.identity.id: {_BACK} $", id="query-message"),
    pytest.param(lambda: Plan.from_dict(_output_named_by_a_secret()), PlanFormatError,
                 f'$.output_changes["(sensitive)"]["(sensitive)"]["(sensitive)"]: {_BACK} '
                 '$.output_changes["(sensitive)"]["(sensitive)"]', id="key-spelling-a-secret-plan"),
    pytest.param(lambda: State(_state_keyed_by_a_secret()), StateFormatError,
                 f'$["(sensitive)"]["(sensitive)"]: {_BACK} $["(sensitive)"]', id="key-spelling-a-secret-state"),
    pytest.param(lambda: Plan.from_dict(_variable_holding_its_map()), PlanFormatError,
                 f'$.variables["(sensitive)"]["(sensitive)"]: {_BACK} $.variables', id="key-met-round-the-cycle"),
    pytest.param(lambda: Plan.from_dict(_many_cycles()), PlanFormatError,
                 f'$["(sensitive)"]["(sensitive)"][0]["(sensitive)"]: {_BACK} $["(sensitive)"]["(sensitive)"][0]',
                 id="too-many-cycles-to-read-the-secrets"),
])
def test_a_document_holding_itself_is_a_format_error(
    load: Callable[[], Any], error: type[DocumentFormatError], message: str
) -> None:
    with pytest.raises(error) as caught:
        load()
    assert str(caught.value) == message


def _doubling(levels: int) -> list[Any]:
    # Each level holds the one below twice: 2**levels paths to the bottom, levels + 1 containers.
    value: list[Any] = ["leaf"]
    for _ in range(levels):
        value = [value, value]
    return value


@pytest.mark.parametrize("after", [
    pytest.param({"a": (shared := {"k": "v"}), "b": shared}, id="one-mapping-twice"),
    pytest.param({"tags": _doubling(64)}, id="shared-at-every-level"),
    pytest.param({"t": ({"k": ["v"]},)}, id="tuple"),
])
def test_a_value_met_twice_is_no_cycle(after: dict[str, Any]) -> None:
    plan = Plan.from_dict(_plan(after=after))
    assert plan.resource_changes[0].change.after is after
