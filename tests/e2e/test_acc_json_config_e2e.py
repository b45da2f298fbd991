"""A configuration given as a dict (Terraform's JSON syntax), with TF_LOG on, against real binaries."""

from __future__ import annotations

import pytest

from plancheck import ExpectKnownValue, ExpectResourceAction, ResourceAction, statecheck
from plancheck import knownvalue as kv
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, TestCase, TestStep
from tfjsonpath import New

pytestmark = pytest.mark.e2e

CONFIG: dict[str, object] = {
    "terraform": {"required_providers": {"null": {"source": "hashicorp/null", "version": "2.1.2"}}},
    "variable": {"name": {"type": "string"}},
    "resource": {"null_resource": {"j": {"triggers": {"name": "${var.name}"}}}},
    "output": {"name": {"value": "${null_resource.j.triggers.name}"}},
}


def test_json_syntax_config_with_debug_logging(tf_acceptance: AcceptanceRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TF_LOG", "DEBUG")  # passes through to every command; its output goes to stderr only
    tf_acceptance.run(TestCase(steps=[
        TestStep(
            config=CONFIG,
            variables={"name": "from-json"},
            config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectResourceAction("null_resource.j", ResourceAction.Create),
                ExpectKnownValue("null_resource.j", New("triggers"), kv.MapExact({"name": kv.StringExact("from-json")})),
            ]),
            config_state_checks=[statecheck.ExpectKnownOutputValue("name", kv.StringExact("from-json"))],
        ),
        TestStep(
            config={**CONFIG, "resource": {"null_resource": "not an object"}},
            # Rejected before any command runs, naming the JSON location.
            expect_error=r"cannot write the configuration: \$\.resource\W+null_resource\W+: expected an object of resource names",
        ),
    ]))
    case_dir = tf_acceptance.work_dir / "case1"
    # Step 2 could not be written, so destroy ran with step 1's files, written again (no new init needed).
    assert sorted(p.name for p in case_dir.glob("*.tf*")) == [
        "main.tf.json", "terraform.tfstate", "terraform.tfstate.backup", "terraform.tfvars.json"
    ]
    assert [c.command_line.replace("terraform ", "", 1) for c in tf_acceptance.commands] == [
        "init -input=false -no-color",
        "plan -input=false -no-color -out=tfplan",
        "show -json tfplan",
        "apply -input=false -no-color tfplan",
        "show -json",
        "plan -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan",
        "plan -input=false -no-color -detailed-exitcode -out=tfplan",
        "destroy -auto-approve -input=false -no-color -refresh=false",
    ]
    show = tf_acceptance.commands[2]
    assert "[DEBUG]" in show.stderr
    assert show.stdout.startswith("{")
