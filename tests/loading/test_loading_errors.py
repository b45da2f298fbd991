"""A malformed plan is refused with one exact error, whatever the route and the validation mode."""

from __future__ import annotations

import io
import json
from importlib import resources
from typing import Any

import pytest
from loading_support import ROUTES, dumps, load_by
from unvalidated import unvalidated_plan

import plancheck
from plancheck import querycheck
from plancheck._errors import PlanFormatError


def _rc(**changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"address": "null_resource.a", "change": {"actions": ["create"]}}
    entry.update(changes)
    return entry


def _plan(**members: Any) -> bytes:
    return dumps({"format_version": "1.2", **members})


#: An instance whose for_each key is a secret (its value is marked sensitive): an error shows the key hidden.
_SECRET_ADDRESS = 'null_resource.a["pw-hunter2-0042"]'
_SECRET_CHANGE = {"actions": ["create"], "after": {"key": "pw-hunter2-0042"}, "after_sensitive": {"key": True}}

#: The loader's hint for a plan or state that does not even start as JSON.
_TEXT = (
    "not JSON at all (Terraform's text output, or a configuration?): get a plan's JSON from terraform show -json "
    "PLANFILE, a state's from terraform show -json"
)
_ACTION = 'an action: one of "no-op", "create", "read", "update", "delete", "forget"'
_VERSION = "a plan format version 0.x or 1.x (plancheck reads terraform show -json plans of major format version 0 and 1)"

CASES: list[Any] = [
    pytest.param(
        b'{"format_version": "1.2",',
        "$: expected valid JSON, found invalid JSON: Expecting property name enclosed in double quotes at line 1 column 26 (character 25)",
        id="truncated",
    ),
    pytest.param(b"", "$: expected valid JSON, found invalid JSON: Expecting value at line 1 column 1 (character 0)", id="empty"),
    pytest.param(b" \n", "$: expected valid JSON, found invalid JSON: Expecting value at line 2 column 1 (character 2)",
                 id="whitespace-only-is-empty-not-text"),
    # Not JSON at all: what a newcomer saves as plan.json. Every front end (load_plan, the pytest plugin) is told.
    pytest.param(b"\nTerraform used the selected providers to generate the following execution\n",
                 f"$: expected valid JSON, found invalid JSON: Expecting value at line 2 column 1 (character 1); {_TEXT}",
                 id="terraform-show-without-json"),
    pytest.param(b'resource "null_resource" "a" {}\n',
                 f"$: expected valid JSON, found invalid JSON: Expecting value at line 1 column 1 (character 0); {_TEXT}",
                 id="a-configuration"),
    pytest.param(b'{"format_version": "1.2", "x": nope}',
                 "$: expected valid JSON, found invalid JSON: Expecting value at line 1 column 32 (character 31)",
                 id="a-bad-value-inside-json-is-no-text"),
    pytest.param(b"[1, 2]", "$: expected a JSON object (a terraform show -json plan), found an array of 2 elements", id="not-an-object"),
    pytest.param(b'{"format_version": "1.2", "x": NaN}', "$: expected valid JSON, found NaN, which is not JSON", id="nan"),
    pytest.param(b'{"format_version": "1.2", "x": -Infinity}', "$: expected valid JSON, found -Infinity, which is not JSON", id="infinity"),
    pytest.param(b"{}", f'$.format_version: expected {_VERSION}, found no "format_version" key', id="no-format-version"),
    pytest.param(b'{"format_version": 1.2}', f"$.format_version: expected {_VERSION}, found a number", id="format-version-number"),
    pytest.param(b'{"format_version": "2.0"}', f'$.format_version: expected {_VERSION}, found the string "2.0"', id="format-version-2"),
    pytest.param(b'{"format_version": "10.1"}', f'$.format_version: expected {_VERSION}, found the string "10.1"', id="format-version-10"),
    # Python's $ matches before a final newline, ECMA-262's (the schema's dialect) does not.
    pytest.param(b'{"format_version": "1.2\\n"}', f'$.format_version: expected {_VERSION}, found the string "1.2\\n"', id="format-version-trailing-newline"),
    pytest.param(
        _plan(resource_changes={"a": 1}),
        "$.resource_changes: expected an array of resource changes, found an object with 1 key",
        id="resource-changes-not-an-array",
    ),
    pytest.param(
        _plan(resource_changes=["x"]), "$.resource_changes[0]: expected a resource change object, found a string",
        id="entry-not-an-object",
    ),
    pytest.param(
        _plan(resource_changes=[{"change": {"actions": []}}]),
        '$.resource_changes[0].address: expected a resource address string, found no "address" key',
        id="entry-without-address",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(address=None)]),
        "$.resource_changes[0].address: expected a resource address string, found null",
        id="address-null",
    ),
    pytest.param(
        _plan(resource_changes=[{"address": "a.b"}]),
        '$.resource_changes[0].change: expected a change object, found no "change" key',
        id="entry-without-change",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(change="create")]),
        "$.resource_changes[0].change: expected a change object, found a string",
        id="change-not-an-object",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(change={"before": None})]),
        '$.resource_changes[0].change.actions: expected an array of actions, found no "actions" key',
        id="actions-missing",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(), _rc(change={"actions": "create"})]),
        "$.resource_changes[1].change.actions: expected an array of actions, found a string",
        id="actions-a-string",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(change={"actions": ["create", "destroy"]})]),
        f'$.resource_changes[0].change.actions[1]: expected {_ACTION}, found the string "destroy"',
        id="action-unknown",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(change={"actions": ["create-then-forget"]})]),
        f'$.resource_changes[0].change.actions[0]: expected {_ACTION}, found the string "create-then-forget"',
        id="action-create-then-forget-is-two-actions",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(change={"actions": [1]})]),
        f"$.resource_changes[0].change.actions[0]: expected {_ACTION}, found a number",
        id="action-a-number",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(index=True)]),
        "$.resource_changes[0].index: expected an instance key (an integer or a string), found a bool",
        id="index-a-bool",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(deposed=5)]),
        "$.resource_changes[0].deposed: expected a deposed key string, found a number",
        id="deposed-a-number",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(change={"actions": ["delete", "create"], "replace_paths": ["id"]})]),
        "$.resource_changes[0].change.replace_paths[0]: expected an attribute path (an array of steps), found a string",
        id="replace-paths-not-paths",
    ),
    pytest.param(
        _plan(resource_drift=[_rc(change={})]),
        '$.resource_drift[0].change.actions: expected an array of actions, found no "actions" key',
        id="drift-entry",
    ),
    pytest.param(
        _plan(deferred_changes={}),
        "$.deferred_changes: expected an array of deferred changes, found an object with 0 keys",
        id="deferred-not-an-array",
    ),
    pytest.param(
        _plan(deferred_changes=[{"resource_change": _rc()}]),
        '$.deferred_changes[0].reason: expected a deferral reason string, found no "reason" key',
        id="deferred-without-reason",
    ),
    pytest.param(
        _plan(deferred_changes=[{"reason": "instance_count_unknown", "resource_change": {"address": 3, "change": {"actions": []}}}]),
        "$.deferred_changes[0].resource_change.address: expected a resource address string, found a number",
        id="deferred-resource-change",
    ),
    pytest.param(
        _plan(output_changes=[]),
        "$.output_changes: expected an object mapping output names to changes, found an array of 0 elements",
        id="output-changes-not-an-object",
    ),
    pytest.param(
        _plan(output_changes={"my-ip": {"after": "x"}}),
        '$.output_changes["my-ip"].actions: expected an array of actions, found no "actions" key',
        id="output-change-without-actions",
    ),
    pytest.param(_plan(complete="yes"), "$.complete: expected a bool, found a string", id="complete-a-string"),
    pytest.param(
        _plan(variables={"region": "us-east-1"}),
        "$.variables.region: expected an object holding the variable's value, found a string",
        id="variable-not-an-object",
    ),
    pytest.param(
        _plan(planned_values=[]), "$.planned_values: expected an object holding outputs and modules, found an array of 0 elements",
        id="planned-values-an-array",
    ),
    pytest.param(
        b'{"format_version": "1.2", "x": "\xff"}',
        "$: expected JSON text in UTF-8 (or UTF-16/UTF-32), found an invalid byte 0xff at byte offset 32",
        id="invalid-utf8",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(), {"mode": 1, "change": {"actions": ["x"]}}]),
        '$.resource_changes[1].address: expected a resource address string, found no "address" key',
        id="first-problem-missing-key-before-members",
    ),
    pytest.param(
        _plan(resource_changes=[{"change": {"actions": ["x"]}, "mode": 1, "address": "a.b"}]),
        f'$.resource_changes[0].change.actions[0]: expected {_ACTION}, found the string "x"',
        id="first-problem-in-document-order",
    ),
    pytest.param(
        _plan(resource_changes=[{"mode": 1, "change": {"actions": ["x"]}, "address": "a.b"}]),
        "$.resource_changes[0].mode: expected a string, found a number",
        id="first-problem-in-document-order-reversed",
    ),
    pytest.param(
        dumps({"resource_changes": 1, "format_version": "3"}),
        "$.resource_changes: expected an array of resource changes, found a number",
        id="first-problem-top-level-document-order",
    ),
    # Terraform writes one change per (address, deposed key): a second one, which the index (first wins) would hide
    # from every check, is refused where it stands, naming the first.
    pytest.param(
        _plan(resource_changes=[_rc(change={"actions": ["no-op"]}), _rc(address="null_resource.b"), _rc(change={"actions": ["delete"]})]),
        '$.resource_changes[2].address: expected an address not given before, found "null_resource.a" again (first at $.resource_changes[0])',
        id="address-twice",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(deposed="dead0001"), _rc(), _rc(deposed="dead0001")]),
        '$.resource_changes[2].address: expected an address not given before, found "null_resource.a" (deposed "dead0001") again (first at $.resource_changes[0])',
        id="deposed-object-twice",
    ),
    pytest.param(
        _plan(resource_changes=[_rc(address=_SECRET_ADDRESS, change=_SECRET_CHANGE)] * 2),
        '$.resource_changes[1].address: expected an address not given before, found "null_resource.a[\\"(sensitive)\\"]" again (first at $.resource_changes[0])',
        id="secret-keyed-address-twice",
    ),
    # Drift is one entry per object, a deferral one per instance (jsonplan sorts both by address and deposed key).
    pytest.param(
        _plan(resource_drift=[_rc(), _rc(address="null_resource.b"), _rc(change={"actions": ["delete"]})]),
        '$.resource_drift[2].address: expected an address not given before, found "null_resource.a" again (first at $.resource_drift[0])',
        id="drift-address-twice",
    ),
    pytest.param(
        _plan(resource_drift=[_rc(deposed="dead0001"), _rc(deposed="dead0001")]),
        '$.resource_drift[1].address: expected an address not given before, found "null_resource.a" (deposed "dead0001") again (first at $.resource_drift[0])',
        id="drift-deposed-object-twice",
    ),
    pytest.param(
        _plan(resource_drift=[_rc(address=_SECRET_ADDRESS, change=_SECRET_CHANGE)] * 2),
        '$.resource_drift[1].address: expected an address not given before, found "null_resource.a[\\"(sensitive)\\"]" again (first at $.resource_drift[0])',
        id="drift-secret-keyed-address-twice",
    ),
    pytest.param(
        _plan(deferred_changes=[{"reason": "resource_config_unknown", "resource_change": _rc(address=a)} for a in ("null_resource.a", "null_resource.b", "null_resource.a")]),
        '$.deferred_changes[2].resource_change.address: expected an address not given before, found "null_resource.a" again (first at $.deferred_changes[0].resource_change)',
        id="deferred-address-twice",
    ),
    pytest.param(
        _plan(deferred_changes=[{"reason": "deferred_prereq", "resource_change": _rc(address=_SECRET_ADDRESS, change=_SECRET_CHANGE)}] * 2),
        '$.deferred_changes[1].resource_change.address: expected an address not given before, found "null_resource.a[\\"(sensitive)\\"]" again (first at $.deferred_changes[0].resource_change)',
        id="deferred-secret-keyed-address-twice",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), CASES)
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_malformed_plan_is_refused(route_name: str, validation: str, data: bytes, message: str) -> None:
    got = load_by(route_name, data, validation)
    assert isinstance(got, PlanFormatError), got
    assert str(got) == f"plan.json: {message}"
    assert got.source == "plan.json"
    assert f"{got.location}: " in message


TEXT_OUTPUT = b"\nNo changes. Your infrastructure matches the configuration.\n"


@pytest.mark.parametrize(
    ("load", "error", "message"),
    [
        pytest.param(lambda: plancheck.load_plan(io.BytesIO(TEXT_OUTPUT)), plancheck.PlanFormatError,
                     f"$: expected valid JSON, found invalid JSON: Expecting value at line 2 column 1 (character 1); {_TEXT}",
                     id="load_plan"),
        pytest.param(lambda: plancheck.load_state(io.BytesIO(TEXT_OUTPUT)), plancheck.StateFormatError,
                     f"$: expected valid JSON, found invalid JSON: Expecting value at line 2 column 1 (character 1); {_TEXT}",
                     id="load_state"),
        # Not a plan or state: the hint, which names where those come from, is not said.
        pytest.param(lambda: querycheck.load_query(io.BytesIO(TEXT_OUTPUT)), querycheck.QueryFormatError,
                     "line 2: $: expected valid JSON, found invalid JSON: Expecting value at column 1",
                     id="load_query-no-hint"),
    ],
)
def test_text_output_is_told_apart_from_broken_json(load: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as caught:
        load()
    assert str(caught.value) == message


def test_error_fields_name_the_location() -> None:
    got = load_by("stdlib", _plan(resource_changes=[_rc(change={"actions": ["nope"]})]))
    assert isinstance(got, PlanFormatError)
    assert (got.location, got.expected, got.found) == (
        "$.resource_changes[0].change.actions[0]",
        _ACTION,
        'the string "nope"',
    )


@pytest.mark.parametrize(
    "action",
    [["no-op"], ["create"], ["read"], ["update"], ["delete"], ["delete", "create"], ["create", "delete"],
     ["forget"], ["create", "forget"], ["forget", "create"]],
    ids=lambda a: "-then-".join(a),
)  # fmt: skip
def test_every_action_terraform_writes_is_accepted(action: list[str]) -> None:
    plan = load_by("stdlib", _plan(resource_changes=[_rc(change={"actions": action})]))
    assert not isinstance(plan, PlanFormatError)
    assert plan.resource_change("null_resource.a").actions == tuple(action)


@pytest.mark.parametrize("version", ["0.1", "0.2", "1.0", "1.1", "1.2", "1.10", "1"], ids=lambda v: f"v{v}")
def test_every_format_version_0_and_1_is_accepted(version: str) -> None:
    plan = load_by("stdlib", dumps({"format_version": version}))
    assert not isinstance(plan, PlanFormatError)
    assert plan.format_version == version


@pytest.mark.parametrize(
    "members",
    [
        # One object in several lists: drifted, then changed, or deferred (each list holds it once).
        {"resource_drift": [_rc()], "resource_changes": [_rc()]},
        {"resource_changes": [_rc()], "deferred_changes": [{"reason": "deferred_prereq", "resource_change": _rc()}]},
        # The current object and a deposed one of an instance are two objects.
        {"resource_drift": [_rc(), _rc(deposed="dead0001"), _rc(deposed="dead0002")]},
        {"deferred_changes": [{"reason": "deferred_prereq", "resource_change": _rc(address=a)} for a in ("null_resource.a", "null_resource.a[0]")]},
    ],
    ids=["drift-and-change", "change-and-deferral", "drift-current-and-deposed", "deferred-instance-and-resource"],
)  # fmt: skip
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_one_object_once_in_each_list_is_accepted(route_name: str, members: dict[str, Any]) -> None:
    plan = load_by(route_name, _plan(**members))
    assert not isinstance(plan, PlanFormatError), plan
    assert (len(plan.resource_drift), len(plan.deferred_changes)) == (
        len(members.get("resource_drift", ())), len(members.get("deferred_changes", ())))


def test_unknown_keys_and_values_of_any_shape_are_accepted() -> None:
    data = _plan(
        future_key={"anything": [1, 2]},
        resource_changes=[
            _rc(index_unknown=True, new_field=[None], change={"actions": ["create"], "after": 5})
        ],
        output_changes={"o": {"actions": ["no-op"], "before": [1], "after": {"x": None}}},
        deferred_changes=[{"reason": "some_future_reason", "resource_change": _rc()}],
    )
    for route_name in ROUTES:
        plan = load_by(route_name, data, "full")
        assert not isinstance(plan, PlanFormatError), (route_name, plan)
        assert plan.raw["future_key"] == {"anything": [1, 2]}


_FUTURE = {"x_future": {"nested": [1, None]}}
_INVOCATION = {"address": "action.t.n", "type": "t", "name": "n", "config_values": {}, "config_sensitive": {},
               "config_unknown": {}, **_FUTURE}


@pytest.mark.parametrize("members", [
    pytest.param({"action_invocations": [{**_INVOCATION, "lifecycle_action_trigger": {
        "triggering_resource_address": "null_resource.a", "action_trigger_event": "AfterCreate",
        "action_trigger_block_index": 0, "actions_list_index": 0, "on_failure": "ActionOnFailureHalt", **_FUTURE}}]},
        id="terraform-1.14-action-invocation-and-trigger"),
    pytest.param({"deferred_action_invocations": [{"reason": "deferred_prereq", **_FUTURE, "action_invocation": {
        **_INVOCATION, "invoke_action_trigger": {"calling_resource_address": "null_resource.a", **_FUTURE}}}]},
        id="terraform-1.16-deferred-invocation"),
    pytest.param({"resource_changes": [_rc(change={"actions": ["create"], "before_identity": None,
        "after_identity": {"id": "i-1"}, "generated_config": "", **_FUTURE,
        "importing": {"id": "i-1", "unknown": False, "identity": {"id": "i-1"}, **_FUTURE}})]},
        id="terraform-1.12-identity-and-importing"),
    pytest.param({"planned_values": {**_FUTURE, "outputs": {"o": {"sensitive": False, "deprecated": "old", **_FUTURE}},
        "root_module": {**_FUTURE, "resources": [{"address": "null_resource.a", "identity_schema_version": 1,
                                                  "identity": {"id": "i-1"}, **_FUTURE}]}}},
        id="planned-values-identity-and-opentofu-output-deprecated"),
    pytest.param({"configuration": {"root_module": {**_FUTURE, "actions": [{"address": "action.t.n", **_FUTURE}],
        "variables": {"v": {"ephemeral": True, "deprecated": "old", "const": True, **_FUTURE}}}}},
        id="configuration-actions-and-variables"),
    pytest.param({"relevant_attributes": [{"resource": "null_resource.a", "attribute": ["id"], **_FUTURE}],
                  "checks": [{"address": {"kind": "resource", **_FUTURE}, "status": "pass", **_FUTURE}],
                  "timestamp": "2026-08-21T10:00:00Z", "applyable": True, "complete": False, "errored": False},
        id="relevant-attributes-checks-and-flags"),
])
def test_a_newer_writers_unknown_field_loads_in_every_section(members: dict[str, Any]) -> None:
    # Terraform 1.12-1.16 and OpenTofu 1.12 add fields (plan.go, action_invocations.go): every section of the schema
    # allows keys it does not name, so a plan of a newer writer loads on every route.
    for route_name in ROUTES:
        plan = load_by(route_name, _plan(**members), "full")
        assert not isinstance(plan, PlanFormatError), (route_name, plan)
        assert {key: plan.raw[key] for key in members} == members


def test_a_str_passed_as_text_is_parsed_not_opened() -> None:
    from plancheck._documents.plan import Plan

    text = json.dumps({"format_version": "1.2"})
    assert Plan.from_json(text).format_version == "1.2"


def _patterns(schema: Any) -> list[str]:
    if isinstance(schema, dict):
        own = [schema["pattern"]] if isinstance(schema.get("pattern"), str) else []
        return own + [p for value in schema.values() for p in _patterns(value)]
    return [p for value in schema for p in _patterns(value)] if isinstance(schema, list) else []


@pytest.mark.parametrize("name", ["plan", "state", "query", "cli-output"])
def test_every_schema_pattern_ends_where_the_text_does(name: str) -> None:
    """A schema's pattern is ECMA-262, where ``$`` is the end of the text; both validators run it with Python's re,
    whose ``$`` also matches before a final newline: an end anchor is written ``$(?!\\n)``, the same in both."""
    schema = json.loads((resources.files("plancheck") / "schemas" / f"{name}.schema.json").read_text("utf-8"))
    loose = [p for p in _patterns(schema) if p.endswith("$")]
    assert loose == []


_TWICE = [_rc(address=_SECRET_ADDRESS, change=_SECRET_CHANGE)] * 2


@pytest.mark.parametrize(
    "members",
    [{"resource_changes": _TWICE}, {"resource_drift": _TWICE},
     {"deferred_changes": [{"reason": "deferred_prereq", "resource_change": rc} for rc in _TWICE]}],
    ids=["changes", "drift", "deferred"],
)  # fmt: skip
@pytest.mark.parametrize("validation", ["fast", "full"])
@pytest.mark.parametrize("route_name", list(ROUTES))
def test_a_duplicate_secret_keyed_address_shows_no_secret(route_name: str, validation: str, members: dict[str, Any]) -> None:
    got = load_by(route_name, _plan(**members), validation)
    assert isinstance(got, PlanFormatError)
    assert "hunter2" not in f"{got} {got!r} {got.found} {got.args}"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"resource_drift": [{"change": {}}, "x", _rc(), {"change": {}}]}, None),
        ({"deferred_changes": [{"reason": "excluded"}, 3, {"resource_change": "x"}, {"resource_change": _rc()}]}, None),
        ({"resource_drift": [{"change": {}}, _rc(), _rc()]},
         '$.resource_drift[2].address: expected an address not given before, found "null_resource.a" again (first at $.resource_drift[1])'),
        ({"deferred_changes": [{"reason": "excluded"}, {"resource_change": _rc()}, {"resource_change": _rc()}]},
         '$.deferred_changes[2].resource_change.address: expected an address not given before, found "null_resource.a" again '
         "(first at $.deferred_changes[1].resource_change)"),
    ],
    ids=["drift-entries-without-address", "deferrals-without-a-change", "drift-twice-beside-garbage", "deferral-twice-beside-garbage"],
)  # fmt: skip
def test_an_unvalidated_plan_refuses_repeats_and_passes_over_what_names_nothing(raw: dict[str, Any], message: str | None) -> None:
    """A plan set up unvalidated (Plan(raw) validates; tests/test_document_constructors.py pins its errors for these
    entries): an entry without an address (the checks report it) is no repeat, never a KeyError."""
    document = {"format_version": "1.2", **raw}
    if message is None:
        assert unvalidated_plan(document).raw is document
        return
    with pytest.raises(PlanFormatError) as caught:
        unvalidated_plan(document)
    assert str(caught.value) == message
