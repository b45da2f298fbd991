"""Action invocations (Terraform 1.14+) and deferred changes on the command line: checks files, query (text and JSON)."""

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


def _deferred_plan(tmp_path: Path) -> Path:
    """A plan with deferred resource changes (Terraform 1.9+ jsonplan.DeferredResourceChange: reason and
    resource_change; a wildcard instance key is index_unknown), one keyed by a secret, one deposed."""
    def change(address: str, actions: list[str], **extra: object) -> dict[str, object]:
        return {"address": address, "mode": "managed", "type": "test_resource", "name": address.split(".")[1][:1],
                **extra, "change": {"actions": actions, "before": None, "after": {"pw": SECRET}, "after_unknown": {},
                                    "before_sensitive": False, "after_sensitive": {"pw": True}}}
    plan = {"format_version": "1.2", "complete": False,
            "resource_changes": [change("test_resource.a", ["create"])],
            "deferred_changes": [
                {"reason": "instance_count_unknown", "resource_change": change("test_resource.e[*]", ["create"],
                                                                                index_unknown=True)},
                {"reason": "resource_config_unknown", "resource_change": change(f'test_resource.k["{SECRET}"]',
                                                                                 ["create"])},
                {"reason": "provider_config_unknown", "resource_change": change("test_resource.d", ["delete"],
                                                                                 deposed="00000001")}]}
    path = tmp_path / "deferred.json"
    path.write_text(json.dumps(plan), "utf-8")
    return path


SECRET = "hunter2-planted-key"


def test_query_lists_the_deferred_changes_after_the_output_changes(tmp_path: Path) -> None:
    code, out, err = cli("query", str(_deferred_plan(tmp_path)))
    assert (code, err) == (0, "")
    assert [" ".join(line.split()) for line in out.splitlines()] == [
        "test_resource.a create",
        "test_resource.e[*] (deferred: instance_count_unknown) create",
        'test_resource.k["(sensitive)"] (deferred: resource_config_unknown) create',
        "test_resource.d (deposed 00000001; deferred: provider_config_unknown) delete",
    ]
    assert SECRET not in out


def test_query_json_lists_the_deferred_changes_only_when_there_are_some(tmp_path: Path) -> None:
    code, out, _ = cli("query", str(_deferred_plan(tmp_path)), "--format", "json")
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert code == 0
    assert doc["deferred_changes"] == [
        {"address": "test_resource.e[*]", "actions": ["create"], "deferred": "instance_count_unknown"},
        {"address": 'test_resource.k["(sensitive)"]', "actions": ["create"], "deferred": "resource_config_unknown"},
        {"address": "test_resource.d", "actions": ["delete"], "deposed": "00000001",
         "deferred": "provider_config_unknown"},
    ]
    assert SECRET not in out
    code, out, _ = cli("query", str(ACTIONS.with_name("forget.json")), "--format", "json")
    assert (code, "deferred_changes" in json.loads(out)) == (0, False)


@pytest.mark.parametrize(("address", "message"), [
    pytest.param("test_resource.e[*]",
                 "tfplancheck: error: resource 'test_resource.e[*]' has no planned value: it is deferred with reason "
                 '"instance_count_unknown"', id="deferred"),
    pytest.param(f'test_resource.k["{SECRET}"]',
                 """tfplancheck: error: resource 'test_resource.k["(sensitive)"]' has no planned value: it is deferred """
                 'with reason "resource_config_unknown"', id="deferred-under-a-secret-key"),
    pytest.param("test_resource.b",
                 "tfplancheck: error: resource 'test_resource.b' is not in the plan; closest: test_resource.a",
                 id="absent"),
])
def test_query_of_a_deferred_address_says_why_it_has_no_value(tmp_path: Path, address: str, message: str) -> None:
    code, out, err = cli("query", str(_deferred_plan(tmp_path)), address)
    assert (code, out, err.splitlines()) == (2, "", [message])
