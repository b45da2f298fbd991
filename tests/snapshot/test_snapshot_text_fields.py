"""The plan's own text fields a snapshot writes (``reason:``, ``deferred:``, an invocation's trigger event, an
address that does not parse) never show a secret: Terraform writes fixed words there, a hand-made plan anything.
The format's own words stay as they are."""

from __future__ import annotations

from typing import Any

import pytest
from clirun import cli

from plancheck import Plan, snapshot

SECRET = "hunter2-pw-xyz"
_SENSITIVE_VAR = {
    "variables": {"pw": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
}


def _rc(address: str = "aws_thing.a", **members: Any) -> dict[str, Any]:
    return {"address": address, "mode": "managed", "type": "aws_thing", "name": "a",
            "change": {"actions": ["create"], "before": None, "after": {}, "after_unknown": {}}, **members}  # fmt: skip


def _invocation(event: str) -> dict[str, Any]:
    return {"address": "action.a.b", "type": "a", "name": "b",
            "lifecycle_action_trigger": {"triggering_resource_address": "aws_thing.a", "action_trigger_event": event,
                                         "action_trigger_block_index": 0, "actions_list_index": 0}}  # fmt: skip


CASES = [
    pytest.param({"resource_changes": [_rc(action_reason=SECRET)]},
                 "resource aws_thing.a\n  action: create\n  reason: (sensitive)\n", id="action-reason"),
    pytest.param({"resource_changes": [_rc(action_reason="replace_because_tainted")]},
                 "resource aws_thing.a\n  action: create\n  reason: replace_because_tainted\n", id="reason-no-secret"),
    pytest.param({"deferred_changes": [{"reason": SECRET, "resource_change": _rc()}]},
                 "resource aws_thing.a\n  action: create\n  deferred: (sensitive)\n", id="deferred-reason"),
    pytest.param({"deferred_changes": [{"reason": "", "resource_change": _rc()}]},
                 "resource aws_thing.a\n  action: create\n  deferred: (no reason given)\n", id="deferred-no-reason"),
    pytest.param({"deferred_action_invocations": [{"reason": SECRET, "action_invocation": _invocation("AfterCreate")}]},
                 "invocation action.a.b (AfterCreate of aws_thing.a)\n  action: invoke\n  deferred: (sensitive)\n",
                 id="deferred-invocation-reason"),
    pytest.param({"action_invocations": [_invocation(SECRET)]},
                 "invocation action.a.b ((sensitive) of aws_thing.a)\n  action: invoke\n", id="trigger-event"),
    pytest.param({"action_invocations": [_invocation("AfterCreate")]},
                 "invocation action.a.b (AfterCreate of aws_thing.a)\n  action: invoke\n", id="trigger-event-no-secret"),
    pytest.param({"resource_changes": [_rc(f'aws_thing.z["{SECRET}"')]},
                 "resource aws_thing.z[\"(sensitive)\"\n  action: create\n", id="address-without-closing-bracket"),
    pytest.param({"resource_changes": [_rc(f'aws_thing.z["{SECRET}"]')]},
                 "resource aws_thing.z[\"(sensitive)\"]\n  action: create\n", id="address-parsed"),
    pytest.param({"resource_changes": [_rc("module.m[0].aws_thing.z[1]")]},
                 "resource module.m[0].aws_thing.z[1]\n  action: create\n", id="address-indexes-no-secret"),
]  # fmt: skip


def _document(members: dict[str, Any]) -> dict[str, Any]:
    return {"format_version": "1.2", **_SENSITIVE_VAR, **members}


@pytest.mark.parametrize(("members", "block"), CASES)
def test_snapshot_text_fields_are_scrubbed(members: dict[str, Any], block: str) -> None:
    text = snapshot.render(Plan.from_dict(_document(members)))
    assert SECRET not in text
    assert block in text


@pytest.mark.parametrize(("members", "block"), [c for c in CASES if SECRET in repr(c.values[0])])
def test_snapshot_command_writes_no_secret(members: dict[str, Any], block: str, tmp_path: Any) -> None:
    import json

    plan, snap = tmp_path / "p.json", tmp_path / "p.snap"
    plan.write_text(json.dumps(_document(members)), encoding="utf-8")
    cli("snapshot", "--update", str(plan), str(snap), never=[SECRET])
    assert block in snap.read_text(encoding="utf-8")
    assert SECRET not in snap.read_text(encoding="utf-8")
