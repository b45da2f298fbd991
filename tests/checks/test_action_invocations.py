"""Action invocations (Terraform 1.14+) and forget-then-create (OpenTofu 1.12), on hand-written plans.

The documents are in ``tests/fixtures/newest/``; its README says where each field comes from in
Terraform's and OpenTofu's source. Every failure message is pinned.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path as FilePath
from typing import Any

import pytest

from plancheck import (
    ActionInvocation,
    ActionTriggerEvent,
    DeferredReason,
    ExpectActionCounts,
    ExpectActionInvocation,
    ExpectDeferredActionInvocation,
    ExpectEmptyPlan,
    ExpectKnownActionConfigValue,
    ExpectKnownValue,
    ExpectNoActionInvocations,
    ExpectNoDeferredChanges,
    ExpectNoDestroys,
    ExpectNonEmptyPlan,
    ExpectNoReplacements,
    ExpectNoResourceChanges,
    ExpectNoValue,
    ExpectOnlyOutputChanges,
    ExpectResourceAction,
    ExpectSensitiveActionConfigValue,
    ExpectUnknownActionConfigValue,
    Plan,
    PlanCheck,
    PlanFormatError,
    ResourceAction,
    load_plan,
)
from plancheck import knownvalue as kv
from tfjsonpath import MapStep, New, Path

NEWEST = FilePath(__file__).parent.parent / "fixtures" / "newest"
NOTIFY = "action.aws_lambda_invoke.notify"
E = ActionTriggerEvent


def newest(name: str) -> Plan:
    return load_plan(NEWEST / f"{name}.json")


def messages(check: PlanCheck, plan: Plan) -> list[str]:
    return [str(f) for f in check.failures(plan)]


def test_the_plan_reads_every_field_of_an_invocation() -> None:
    plan = newest("actions")
    first, second, hello, report = plan.action_invocations
    assert (first.address, first.type, first.name, first.provider_name) == (
        NOTIFY, "aws_lambda_invoke", "notify", "registry.terraform.io/hashicorp/aws")
    assert (first.trigger_event, first.triggering_resource_address, first.action_trigger_block_index,
            first.actions_list_index, first.on_failure) == (E.AfterCreate, "terraform_data.web", 0, 0,
                                                            "ActionOnFailureHalt")
    assert (second.trigger_event, second.on_failure, second.action_trigger_block_index) == (
        E.BeforeDestroy, "ActionOnFailureContinue", 1)
    assert first.config_unknown == {"qualifier": True}
    assert first.config_sensitive == {"api_key": True}
    assert (hello.trigger_event, hello.triggering_resource_address, hello.invoke_action_trigger) == (E.Invoke, None, {})
    assert (report.address, report.calling_resource_address) == (
        "module.ops.action.local_command.report[0]", "module.ops.terraform_data.job")
    assert plan.action_invocations_of(NOTIFY) == (first, second)
    assert [repr(a) for a in plan.action_invocations] == [
        "<ActionInvocation action.aws_lambda_invoke.notify AfterCreate of terraform_data.web>",
        "<ActionInvocation action.aws_lambda_invoke.notify BeforeDestroy of terraform_data.old>",
        "<ActionInvocation action.local_command.hello Invoke>",
        "<ActionInvocation module.ops.action.local_command.report[0] Invoke for module.ops.terraform_data.job>",
    ]
    (deferred,) = plan.deferred_action_invocations
    assert (deferred.reason, deferred.action_invocation.address, deferred.action_invocation.actions_list_index) == (
        "deferred_prereq", "action.aws_lambda_invoke.later", 1)
    assert plan.action_invocations_of("action.nope.x") == ()


def test_the_configured_actions_are_listed_as_written() -> None:
    assert [a["address"] for a in newest("actions").configured_actions] == [
        "action.aws_lambda_invoke.later", "action.aws_lambda_invoke.notify", "action.local_command.hello"]
    odd = Plan.from_dict({"format_version": "1.2", "configuration": {"root_module": {
        "actions": 5, "module_calls": {"m": {"module": {"actions": ["x", {"address": "action.t.n"}]}}, "n": 1}}}})
    assert odd.configured_actions == ({"address": "action.t.n"},)


def test_an_unknown_event_is_none_and_named_as_written() -> None:
    ai = ActionInvocation({"address": "action.t.n", "lifecycle_action_trigger": {"action_trigger_event": "OnTuesday"}})
    assert (ai.trigger_event, ai.trigger_text) == (None, "OnTuesday")


@pytest.mark.parametrize(("document", "message"), [
    ({"action_invocations": [{"type": "t"}]},
     '$.action_invocations[0].address: expected an action address string, found no "address" key'),
    ({"action_invocations": {"address": "a"}}, "$.action_invocations: expected an array of action invocations, found an object"),
    ({"action_invocations": [{"address": "action.t.n", "config_unknown": {"a": "yes"}}]},
     "$.action_invocations[0].config_unknown.a: expected a marks tree (true, false, or an object or array of marks "
     "trees), found a string"),
    ({"action_invocations": [{"address": "action.t.n", "lifecycle_action_trigger": {"actions_list_index": "0"}}]},
     "$.action_invocations[0].lifecycle_action_trigger.actions_list_index: expected an actions list index (an "
     "integer), found a string"),
    ({"deferred_action_invocations": [{"reason": "deferred_prereq"}]},
     "$.deferred_action_invocations[0].action_invocation: expected an action invocation object, found no "
     '"action_invocation" key'),
], ids=["no-address", "not-an-array", "bad-marks", "bad-index", "deferred-without-invocation"])
@pytest.mark.parametrize("validation", ["fast", "full"])
def test_validation_names_what_is_wrong_in_an_invocation(document: dict[str, Any], message: str, validation: str) -> None:
    with pytest.raises(PlanFormatError) as info:
        Plan.from_dict({"format_version": "1.2", **document}, validation=validation)
    assert message in str(info.value)


CHECKS: list[tuple[str, str, PlanCheck, list[str]]] = [
    ("invoked", "actions", ExpectActionInvocation(NOTIFY), []),
    ("invoked-on-event", "actions", ExpectActionInvocation(NOTIFY, event=E.BeforeDestroy), []),
    ("invoked-by", "actions", ExpectActionInvocation(NOTIFY, event=E.AfterCreate, triggered_by="terraform_data.web"), []),
    ("invoked-directly", "actions", ExpectActionInvocation("action.local_command.hello", event=E.Invoke), []),
    ("invoked-for-caller", "actions", ExpectActionInvocation(
        "module.ops.action.local_command.report[0]", triggered_by="module.ops.terraform_data.job"), []),
    ("not-on-event", "actions", ExpectActionInvocation(NOTIFY, event=E.AfterUpdate),
     ["ExpectActionInvocation: action.aws_lambda_invoke.notify: expected an invocation on AfterUpdate, got "
      "invocation(s): [AfterCreate of terraform_data.web, BeforeDestroy of terraform_data.old]"]),
    ("not-this-pair", "actions", ExpectActionInvocation(NOTIFY, event=E.BeforeDestroy, triggered_by="terraform_data.web"),
     ["ExpectActionInvocation: action.aws_lambda_invoke.notify: expected an invocation on BeforeDestroy of "
      "terraform_data.web, got invocation(s): [AfterCreate of terraform_data.web, BeforeDestroy of terraform_data.old]"]),
    ("not-invoked-closest", "actions", ExpectActionInvocation("action.aws_lambda_invoke.notfy"),
     ["ExpectActionInvocation: action.aws_lambda_invoke.notfy: action not invoked in plan ActionInvocations; "
      "closest: action.aws_lambda_invoke.notify"]),
    ("not-invoked-deferred", "actions", ExpectActionInvocation("action.aws_lambda_invoke.later"),
     ["ExpectActionInvocation: action.aws_lambda_invoke.later: action not invoked in plan ActionInvocations: its "
      'invocation (AfterCreate of terraform_data.web) is deferred with reason "deferred_prereq"']),
    ("not-invoked-none", "forget", ExpectActionInvocation(NOTIFY),
     ["ExpectActionInvocation: action.aws_lambda_invoke.notify: action not invoked in plan ActionInvocations; the "
      "plan invokes no action"]),
    ("no-invocations-holds", "forget", ExpectNoActionInvocations(), []),
    ("no-invocations", "actions", ExpectNoActionInvocations(), [
        "ExpectNoActionInvocations: action.aws_lambda_invoke.notify: expected no action invocations, but it is "
        "invoked (AfterCreate of terraform_data.web)",
        "ExpectNoActionInvocations: action.aws_lambda_invoke.notify: expected no action invocations, but it is "
        "invoked (BeforeDestroy of terraform_data.old)",
        "ExpectNoActionInvocations: action.local_command.hello: expected no action invocations, but it is invoked "
        "(Invoke)",
        "ExpectNoActionInvocations: module.ops.action.local_command.report[0]: expected no action invocations, but "
        "it is invoked (Invoke for module.ops.terraform_data.job)",
        "ExpectNoActionInvocations: action.aws_lambda_invoke.later: expected no action invocations, but its "
        'invocation (AfterCreate of terraform_data.web) is deferred with reason "deferred_prereq"',
    ]),
    ("known", "actions", ExpectKnownActionConfigValue(NOTIFY, New("function_name"), kv.StringExact("notify")), []),
    ("known-by", "actions", ExpectKnownActionConfigValue(
        NOTIFY, New("payload"), kv.StringExact('{"event":"destroyed"}'), triggered_by="terraform_data.old"), []),
    ("known-differs-per-invocation", "actions", ExpectKnownActionConfigValue(
        NOTIFY, New("payload"), kv.StringExact('{"event":"created"}')),
     ['ExpectKnownActionConfigValue: action.aws_lambda_invoke.notify: payload: invocation BeforeDestroy of '
      'terraform_data.old: expected value "{\\"event\\":\\"created\\"}" for StringExact check, got: '
      '"{\\"event\\":\\"destroyed\\"}"']),
    ("known-but-unknown", "actions", ExpectKnownActionConfigValue(
        NOTIFY, New("qualifier"), kv.NotNull(), triggered_by="terraform_data.web"),
     ["ExpectKnownActionConfigValue: action.aws_lambda_invoke.notify: qualifier: value is unknown; expected "
      "<not null>"]),
    ("known-sensitive-hidden", "actions", ExpectKnownActionConfigValue(
        NOTIFY, New("api_key"), kv.StringExact("nope"), triggered_by="terraform_data.web"),
     # The expected literal is hidden too: shown beside a hidden value, it would say how close a guess came.
     ["ExpectKnownActionConfigValue: action.aws_lambda_invoke.notify: api_key: expected value (sensitive) for "
      "StringExact check, got: (sensitive)"]),
    ("known-absent", "actions", ExpectKnownActionConfigValue(
        "action.local_command.hello", New("timeout"), kv.NotNull()),
     ['ExpectKnownActionConfigValue: action.local_command.hello: timeout: value is not present (no key '
      '"timeout" in an object with 2 keys); expected <not null>']),
    ("known-not-by", "actions", ExpectKnownActionConfigValue(
        NOTIFY, New("payload"), kv.NotNull(), triggered_by="terraform_data.gone"),
     ["ExpectKnownActionConfigValue: action.aws_lambda_invoke.notify: action not invoked by terraform_data.gone in "
      "plan ActionInvocations; its invocation(s): [AfterCreate of terraform_data.web, BeforeDestroy of "
      "terraform_data.old]"]),
    ("unknown", "actions", ExpectUnknownActionConfigValue(NOTIFY, New("qualifier"), triggered_by="terraform_data.web"), []),
    ("unknown-fails", "actions", ExpectUnknownActionConfigValue(NOTIFY, New("qualifier")),
     ["ExpectUnknownActionConfigValue: action.aws_lambda_invoke.notify: qualifier: invocation BeforeDestroy of "
      'terraform_data.old: expected an unknown value, but it is not present (no key "qualifier" in an object with 3 '
      "keys)"]),
    ("sensitive", "actions", ExpectSensitiveActionConfigValue(NOTIFY, New("api_key")), []),
    ("sensitive-fails", "actions", ExpectSensitiveActionConfigValue("action.local_command.hello", New("command")),
     ['ExpectSensitiveActionConfigValue: action.local_command.hello: command: expected a sensitive value, but it is '
      'not sensitive; it is known: "echo"']),
    ("sensitive-unmarked", "unmarked", ExpectSensitiveActionConfigValue("action.t.n", New("a")),
     ['ExpectSensitiveActionConfigValue: action.t.n: a: expected a sensitive value, but it is not sensitive; it is '
      'known: "x" (the invocation records no config_sensitive marks)']),
    ("deferred", "actions", ExpectDeferredActionInvocation("action.aws_lambda_invoke.later", DeferredReason.DeferredPrereq), []),
    ("deferred-other-reason", "actions", ExpectDeferredActionInvocation(
        "action.aws_lambda_invoke.later", DeferredReason.AbsentPrereq),
     ['ExpectDeferredActionInvocation: action.aws_lambda_invoke.later: expected "absent_prereq", got deferred '
      'reason(s): ["deferred_prereq"]']),
    ("deferred-but-invoked", "actions", ExpectDeferredActionInvocation(NOTIFY, DeferredReason.DeferredPrereq),
     ["ExpectDeferredActionInvocation: action.aws_lambda_invoke.notify: no deferred invocation found for action: it "
      "is invoked (AfterCreate of terraform_data.web, BeforeDestroy of terraform_data.old)"]),
    ("deferred-none", "forget", ExpectDeferredActionInvocation(NOTIFY, DeferredReason.DeferredPrereq),
     ["ExpectDeferredActionInvocation: action.aws_lambda_invoke.notify: no deferred invocation found for action; the "
      "plan has no deferred action invocations"]),
    ("no-deferred", "actions", ExpectNoDeferredChanges(),
     ["ExpectNoDeferredChanges: action.aws_lambda_invoke.later: expected no deferred changes, but its invocation "
      '(AfterCreate of terraform_data.web) is deferred with reason: "deferred_prereq"']),
    # Terraform's Changes.Empty counts invocations: a plan whose only change is one is not empty.
    ("empty-invoke-only", "invoke-only", ExpectEmptyPlan(),
     ["ExpectEmptyPlan: action.local_command.hello: expected an empty plan, but it is invoked (Invoke)"]),
    ("non-empty-invoke-only", "invoke-only", ExpectNonEmptyPlan(), []),
    ("no-resource-changes-invoke-only", "invoke-only", ExpectNoResourceChanges(), []),
    ("only-outputs-invoke-only", "invoke-only", ExpectOnlyOutputChanges(), [
        "ExpectOnlyOutputChanges: action.local_command.hello: expected only output changes, but it is invoked (Invoke)",
        "ExpectOnlyOutputChanges: expected output changes, but the plan changes no output"]),
    # OpenTofu's ["forget", "create"] and Terraform's ["create", "forget"]: each its own action, neither a destroy.
    ("forget-create", "forget", ExpectResourceAction("aws_instance.tofu", ResourceAction.ForgetThenCreate), []),
    ("create-forget", "forget", ExpectResourceAction("aws_instance.tf", ResourceAction.CreateThenForget), []),
    ("forget-create-is-no-replace", "forget", ExpectResourceAction("aws_instance.tofu", ResourceAction.Replace),
     ["ExpectResourceAction: aws_instance.tofu: expected Replace, got action(s): [forget create]"]),
    ("forget-create-is-not-create-forget", "forget",
     ExpectResourceAction("aws_instance.tofu", ResourceAction.CreateThenForget),
     ["ExpectResourceAction: aws_instance.tofu: expected CreateThenForget, got action(s): [forget create]"]),
    ("forgets-destroy-nothing", "forget", ExpectNoDestroys(), []),
    ("forgets-replace-nothing", "forget", ExpectNoReplacements(), []),
    ("forget-counts", "forget", ExpectActionCounts(create=2, forget=3, delete=0, replace=0), []),
    # Terraform 1.15.6 leaves a forgotten resource out of planned_values: its change says all there is.
    ("forgotten-known", "forget", ExpectKnownValue("aws_instance.kept", New("ami"), kv.NotNull()),
     ["ExpectKnownValue: aws_instance.kept: ami: value is not present: the resource has no planned value (action(s): "
      "[forget])"]),
    ("forgotten-no-value", "forget", ExpectNoValue("aws_instance.kept", New("ami")),
     ["ExpectNoValue: aws_instance.kept: ami: expected no value, but the resource has no planned value at all "
      "(action(s): [forget])"]),
    ("forget-create-known", "forget", ExpectKnownValue("aws_instance.tofu", New("ami"), kv.StringExact("ami-2")), []),
    ("forgets-are-changes", "forget", ExpectEmptyPlan(), [
        "ExpectEmptyPlan: aws_instance.kept: expected an empty plan, but it has planned action(s): [forget]",
        "ExpectEmptyPlan: aws_instance.tf: expected an empty plan, but it has planned action(s): [create forget]",
        "ExpectEmptyPlan: aws_instance.tofu: expected an empty plan, but it has planned action(s): [forget create]"]),
    ("invoke-count", "actions", ExpectActionCounts(invoke=4, create=1, delete=1), []),
    ("invoke-count-none", "forget", ExpectActionCounts(invoke=0), []),
    ("invoke-count-differs", "invoke-only", ExpectActionCounts(invoke=0, noop=1),
     ["ExpectActionCounts: expected 0 action invocation(s), got 1: action.local_command.hello (Invoke)"]),
]


@pytest.mark.parametrize(("document", "check", "expected"), [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS])
def test_checks_on_invocations_and_forgets(document: str, check: PlanCheck, expected: list[str]) -> None:
    plan = newest(document) if document != "unmarked" else Plan.from_dict({"format_version": "1.2", "action_invocations": [
        {"address": "action.t.n", "config_values": {"a": "x"}, "invoke_action_trigger": {}}]})
    assert messages(check, plan) == expected


@pytest.mark.parametrize(("build", "error", "message"), [
    (lambda: ExpectActionInvocation(""), ValueError, "ExpectActionInvocation: address must not be empty"),
    (lambda: ExpectActionInvocation("action.t.n", event="AfterCreate"), TypeError,
     "ExpectActionInvocation: event must be an ActionTriggerEvent or None, got str (did you mean ActionTriggerEvent.AfterCreate?)"),
    (lambda: ExpectActionInvocation("action.t.n", triggered_by=3), TypeError,
     "ExpectActionInvocation: triggered_by must be a str, got int"),
    (lambda: ExpectKnownActionConfigValue("action.t.n", "a", kv.NotNull()), TypeError,
     "ExpectKnownActionConfigValue: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('a'))"),
    (lambda: ExpectKnownActionConfigValue("action.t.n", New("a"), "x"), TypeError,
     "ExpectKnownActionConfigValue: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())"),
    (lambda: ExpectUnknownActionConfigValue("action.t.n", Path(), triggered_by=""), ValueError,
     "ExpectUnknownActionConfigValue: triggered_by must not be empty"),
    (lambda: ExpectDeferredActionInvocation("action.t.n", "deferred_prereq"), TypeError,
     "ExpectDeferredActionInvocation: reason must be a DeferredReason, got str (did you mean DeferredReason.DeferredPrereq?)"),
], ids=["empty-address", "event-str", "triggered-by-int", "path-str", "matcher-str", "triggered-by-empty",
        "reason-str"])
def test_bad_arguments_say_which(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


@pytest.mark.parametrize("check", [
    ExpectActionInvocation(NOTIFY, event=E.AfterCreate, triggered_by="a.b"),
    ExpectKnownActionConfigValue(NOTIFY, New("x"), kv.NotNull(), triggered_by="a.b"),
    ExpectSensitiveActionConfigValue(NOTIFY, New("x")),
    ExpectDeferredActionInvocation(NOTIFY, DeferredReason.AbsentPrereq),
    ExpectNoActionInvocations(),
], ids=lambda c: type(c).__name__)
def test_checks_are_values(check: PlanCheck) -> None:
    assert pickle.loads(pickle.dumps(check)) == check
    assert eval(repr(check), {**globals(), "MapStep": MapStep, "NotNull": kv.NotNull}) == check


@pytest.mark.parametrize("parser", ["stdlib", "fast"])
def test_a_large_plan_read_lazily_has_its_invocations_validated_and_their_secrets_known(parser: str) -> None:
    document = json.loads((NEWEST / "actions.json").read_text(encoding="utf-8"))
    document["planned_values"]["root_module"]["resources"][0]["values"]["input"] = "x" * (2 << 20)  # over LAZY_MIN_BYTES
    plan = load_plan(json.dumps(document).encode(), parser=parser)
    assert (len(plan.action_invocations), "ak-5501" in plan.secrets) == (4, True)
    document["action_invocations"][1]["lifecycle_action_trigger"]["action_trigger_block_index"] = "1"
    with pytest.raises(PlanFormatError) as info:
        load_plan(json.dumps(document).encode(), parser=parser)
    assert str(info.value) == ("$.action_invocations[1].lifecycle_action_trigger.action_trigger_block_index: expected an "
                               "action_trigger block index (an integer), found a string")
