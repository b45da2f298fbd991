"""Action invocations (Terraform 1.14+) in snapshots: rendered, read back, compared, no secret shown."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from plancheck import Plan, snapshot
from plancheck.snapshot._format import parse_snapshot

NEWEST = Path(__file__).parent.parent / "fixtures" / "newest"
SECRET = "ak-5501"

EXPECTED = """\
invocation action.aws_lambda_invoke.later (AfterCreate of terraform_data.web)
  action: invoke
  deferred: deferred_prereq
  function_name = "later"
  payload = (known after apply)

invocation action.aws_lambda_invoke.notify (AfterCreate of terraform_data.web)
  action: invoke
  api_key = (sensitive)
  function_name = "notify"
  payload = "{\\"event\\":\\"created\\"}"
  qualifier = (known after apply)

invocation action.aws_lambda_invoke.notify (BeforeDestroy of terraform_data.old)
  action: invoke
  api_key = (sensitive)
  function_name = "notify"
  payload = "{\\"event\\":\\"destroyed\\"}"

invocation action.local_command.hello (Invoke)
  action: invoke
  arguments[0] = "hello"
  command = "echo"

invocation module.ops.action.local_command.report[0] (Invoke for module.ops.terraform_data.job)
  action: invoke
  command = "report"
"""


def document() -> dict[str, Any]:
    return json.loads((NEWEST / "actions.json").read_text(encoding="utf-8"))


def test_invocations_render_after_the_resources_without_their_secret() -> None:
    text = snapshot.render(Plan.from_dict(document()))
    assert text.endswith("\n\n" + EXPECTED)
    assert text.index("resource terraform_data.web") < text.index("invocation ")
    assert SECRET not in text


def test_a_rendered_invocation_reads_back_as_it_was_written() -> None:
    text = snapshot.render(Plan.from_dict(document()))
    blocks = parse_snapshot(text).blocks
    assert [b.header() for b in blocks if b.kind == "invocation"] == [
        line for line in EXPECTED.splitlines() if line.startswith("invocation ")]
    assert snapshot.diff(text, Plan.from_dict(document())) == []


def changed(edit: Any) -> Plan:
    doc = document()
    edit(doc)
    return Plan.from_dict(doc)


def _set_payload(doc: dict[str, Any]) -> None:
    doc["action_invocations"][0]["config_values"]["payload"] = "{}"


def _set_key(doc: dict[str, Any]) -> None:
    doc["action_invocations"][0]["config_values"]["api_key"] = "ak-5502"


def _drop_hello(doc: dict[str, Any]) -> None:
    del doc["action_invocations"][2]


def _move_trigger(doc: dict[str, Any]) -> None:
    doc["action_invocations"][1]["lifecycle_action_trigger"]["action_trigger_event"] = "AfterDestroy"


def _twice(doc: dict[str, Any]) -> None:
    doc["action_invocations"].append(copy.deepcopy(doc["action_invocations"][2]))


@pytest.mark.parametrize(("edit", "expected"), [
    (_set_payload, ['action.aws_lambda_invoke.notify (AfterCreate of terraform_data.web): payload: '
                    '"{\\"event\\":\\"created\\"}" -> "{}"']),
    (_set_key, ["action.aws_lambda_invoke.notify (AfterCreate of terraform_data.web): api_key: (sensitive) -> "
                "(sensitive, changed)"]),
    (_drop_hello, ["- action.local_command.hello (Invoke)"]),
    (_move_trigger, ["+ action.aws_lambda_invoke.notify (AfterDestroy of terraform_data.old) (invoke)",
                     "- action.aws_lambda_invoke.notify (BeforeDestroy of terraform_data.old)"]),
    (_twice, ["+ action.local_command.hello (Invoke) (2) (invoke)"]),
], ids=["config-changed", "secret-changed", "invocation-gone", "other-event", "invoked-twice-alike"])
def test_a_changed_invocation_is_a_review_comment(edit: Any, expected: list[str]) -> None:
    found = snapshot.diff(Plan.from_dict(document()), changed(edit))
    assert found == expected
    assert not any(SECRET in line or "ak-5502" in line for line in found)


FORGET = """\
resource aws_instance.kept
  action: forget
  identity: {"id":"i-3","region":"eu-west-1"}
  after: null

resource aws_instance.tf
  action: create, forget
  reason: replace_because_cannot_update
  identity: {"id":"i-2","region":"eu-west-1"}
  ami = "ami-2"
  id = (known after apply)

resource aws_instance.tofu
  action: forget, create
  reason: replace_because_cannot_update
  identity: {"id":"i-1","region":"eu-west-1"}
  ami = "ami-2"
  id = (known after apply)
"""


def test_forgets_render_with_their_own_actions_and_no_planned_value() -> None:
    # OpenTofu 1.12's [forget create], Terraform's [create forget]; a forgotten resource is not in
    # planned_values since Terraform 1.15.6, and its block says it has no planned value.
    text = snapshot.render(Plan.from_dict(json.loads((NEWEST / "forget.json").read_text(encoding="utf-8"))))
    assert text.endswith("\n\n" + FORGET)


def _identity_plan(identity: dict[str, Any] | None, before: dict[str, Any] | None = None) -> Plan:
    change: dict[str, Any] = {"actions": ["update"], "before": {"id": "i-1"}, "after": {"id": "i-1"}}
    if identity is not None:
        change["after_identity"] = identity
    if before is not None:
        change["before_identity"] = before
    return Plan.from_dict({"format_version": "1.2", "variables": {"pw": {"value": "pw-ident-77"}},
                           "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
                           "resource_changes": [{"address": "aws_instance.web", "change": change}]})


@pytest.mark.parametrize(("old", "new", "expected"), [
    (_identity_plan({"id": "i-1"}), _identity_plan({"id": "i-2"}),
     ['aws_instance.web: identity: {"id":"i-1"} -> {"id":"i-2"}']),
    (_identity_plan(None), _identity_plan({"id": "i-1", "region": "eu"}),
     ['aws_instance.web: identity: (none) -> {"id":"i-1","region":"eu"}']),
    (_identity_plan(None, before={"id": "i-1"}), _identity_plan({"id": "i-1"}), []),
    (_identity_plan({"id": "pw-ident-77"}), _identity_plan({"id": "i-1"}),
     ['aws_instance.web: identity: {"id":"(sensitive)"} -> {"id":"i-1"}']),
], ids=["identity-changed", "identity-appears", "before-identity-stands-for-after", "secret-in-identity-hidden"])
def test_identity_is_a_fact_of_its_block_and_its_changes_are_review_comments(old: Plan, new: Plan, expected: list[str]) -> None:
    assert snapshot.diff(old, new) == expected
    for plan in (old, new):
        text = snapshot.render(plan)
        assert "pw-ident-77" not in text
        assert parse_snapshot(text) == parse_snapshot(text.replace("\n  action", "\n  action", 1))
    assert parse_snapshot(snapshot.render(new)).blocks[0].fact("identity") is not None
