"""Action invocations (Terraform 1.14+) on the command line: checks files, query (text and JSON)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import clirun
import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = ROOT / "tests" / "fixtures" / "newest" / "actions.json"
SCHEMA = json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
NOTE = 'NOTE  the plan is not complete ("complete": false): another plan and apply are needed to converge'

CHECKS = """\
[[check]]
type = "ExpectActionInvocation"
address = "action.aws_lambda_invoke.notify"
event = "BeforeDestroy"
triggered_by = "terraform_data.old"

[[check]]
type = "ExpectKnownActionConfigValue"
address = "action.aws_lambda_invoke.notify"
path = "payload"
matcher = { type = "StringExact", value = "{}" }
triggered_by = "terraform_data.web"

[[check]]
type = "ExpectSensitiveActionConfigValue"
address = "action.aws_lambda_invoke.notify"
path = "api_key"

[[check]]
type = "ExpectDeferredActionInvocation"
address = "action.aws_lambda_invoke.later"
reason = "deferred_prereq"
"""


#: These runs get an empty environment (not even PATH) and no stdin stream.
cli = partial(clirun.cli, stdin=None, environ={})


def test_a_checks_file_names_the_action_checks(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text(CHECKS, "utf-8")
    code, out, err = cli(str(ACTIONS), "-c", str(tmp_path / "c.toml"))
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        NOTE,
        'FAIL  ExpectKnownActionConfigValue: action.aws_lambda_invoke.notify: payload: expected value "{}" for '
        'StringExact check, got: "{\\"event\\":\\"created\\"}"',
        "PASS  ExpectActionInvocation: action.aws_lambda_invoke.notify",
        "PASS  ExpectSensitiveActionConfigValue: action.aws_lambda_invoke.notify: api_key",
        "PASS  ExpectDeferredActionInvocation: action.aws_lambda_invoke.later",
        f"4 checks in {ACTIONS}: 3 passed, 1 failed",
    ]


def test_an_unknown_event_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text(
        '[[check]]\ntype = "ExpectActionInvocation"\naddress = "action.t.n"\nevent = "AfterEvent"\n', "utf-8")
    code, _, err = cli(str(ACTIONS), "-c", str(tmp_path / "c.toml"))
    assert code == 2
    assert err.endswith(f'{tmp_path / "c.toml"}:4: check[0].event: expected one of BeforeCreate, AfterCreate, '
                        'BeforeUpdate, AfterUpdate, BeforeDestroy, AfterDestroy, Invoke, found "AfterEvent"\n')


def test_query_lists_the_invocations_after_the_changes() -> None:
    code, out, _ = cli("query", str(ACTIONS))
    assert code == 0
    assert [" ".join(line.split()) for line in out.splitlines()] == [
        "terraform_data.web create",
        "terraform_data.old delete",
        "action.aws_lambda_invoke.notify (AfterCreate of terraform_data.web) invoke",
        "action.aws_lambda_invoke.notify (BeforeDestroy of terraform_data.old) invoke",
        "action.local_command.hello (Invoke) invoke",
        "module.ops.action.local_command.report[0] (Invoke for module.ops.terraform_data.job) invoke",
        "action.aws_lambda_invoke.later (AfterCreate of terraform_data.web; deferred: deferred_prereq) invoke",
    ]


@pytest.mark.parametrize("plan", ["actions.json", "forget.json"])
def test_query_json_is_valid_and_lists_invocations_only_when_there_are_some(plan: str) -> None:
    code, out, _ = cli("query", str(ACTIONS.with_name(plan)), "--format", "json")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert code == 0
    if plan == "forget.json":
        assert "action_invocations" not in doc
    else:
        assert doc["action_invocations"][-1] == {"address": "action.aws_lambda_invoke.later", "actions": ["invoke"],
                                                 "trigger": "AfterCreate of terraform_data.web",
                                                 "deferred": "deferred_prereq"}
