"""MockProvider end to end: the example module (plan and state checks, update, import, destroy), registry
addresses offline, and the null provider mocked from its real schema against the real null provider.

On the pinned Terraform 1.0.3 and the newer one on PATH: both speak protocol 6 with nested attributes.
"""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from mock_support import CLOUD, CLOUD_SCHEMA, EXAMPLE, NULL_SCHEMA, OFFLINE, SECRET, children, leak_check

from plancheck import (
    ExpectKnownValue,
    ExpectResourceAction,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownValue,
    ResourceAction,
    statecheck,
)
from plancheck import knownvalue as kv
from plancheck._terraform.binary import run_command, terraform_environment
from plancheck._terraform.mock.provider import MockProvider
from plancheck.acceptance import (
    AcceptanceRunner,
    ConfigPlanChecks,
    ProviderServer,
    Sensitive,
    TestCase,
    TestStep,
)
from tfjsonpath import New

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

EIGHT = kv.StringRegexp(re.compile(r"^[a-z0-9]{8}$"))
#: Any attempt to reach the network fails at once.


def runner_for(tf_acceptance: AcceptanceRunner, **kwargs: Any) -> AcceptanceRunner:
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, **kwargs)


def module(readers: str = '["alice", "bob"]') -> str:
    text = (EXAMPLE / "main.tf").read_text(encoding="utf-8")
    return text.replace('default = ["alice", "bob"]', f"default = {readers}")


def test_the_example_module_lifecycle(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    mock = MockProvider.from_schema_file(
        CLOUD_SCHEMA, CLOUD, seed=7, mock_resources={"cloud_bucket": {"arn": lambda config: f"arn:acme:{config['name']}"}}
    )
    variables = {"encryption_key": Sensitive(SECRET)}
    # Terraform 1.0.3 writes no sensitive_values into the state JSON: only its plans show the marks.
    state_marks = tf_acceptance.terraform.version_tuple >= (1, 1)
    ids: list[str] = []
    with leak_check(private_tmp) as leaks:
        runner_for(tf_acceptance, env=OFFLINE).run(TestCase(providers={CLOUD: mock}, steps=[
            TestStep(
                config=module(),
                variables=variables,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("cloud_bucket.logs", ResourceAction.Create),
                    ExpectUnknownValue("cloud_bucket.logs", New("id")),
                    ExpectUnknownValue("cloud_bucket.logs", New("arn")),
                    ExpectUnknownValue("cloud_bucket.logs", New("website").AtMapKey("endpoint")),
                    ExpectUnknownValue("cloud_bucket.logs", New("versioning").AtMapKey("version_id")),
                    ExpectUnknownValue("cloud_bucket.logs", New("lifecycle_rule").AtSliceIndex(0).AtMapKey("rule_id")),
                    ExpectUnknownValue("cloud_bucket.logs", New("cors_rules").AtSliceIndex(0).AtMapKey("max_age")),
                    ExpectKnownValue("cloud_bucket.logs", New("region"), kv.StringExact("eu-west-1")),
                    ExpectSensitiveValue("cloud_bucket.logs", New("encryption_key")),
                    ExpectSensitiveValue("cloud_access_key.reader", New("secret")),
                    ExpectUnknownOutputValue("bucket_arn"),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("id"), EIGHT),
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("arn"), kv.StringExact("arn:acme:logs")),
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("size_gb"), kv.Int64Exact(0)),
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("public"), kv.Bool(False)),
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("endpoints"), kv.ListExact([])),
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("website").AtMapKey("endpoint"), EIGHT),
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("readers"),
                                                kv.SetExact([kv.StringExact("alice"), kv.StringExact("bob")])),
                    statecheck.ExpectKnownValue("data.cloud_region.here", New("endpoint"), EIGHT),
                    statecheck.ExpectKnownValue("data.cloud_region.here", New("zones"), kv.ListExact([])),
                    statecheck.ExpectKnownOutputValue("bucket_arn", kv.StringExact("arn:acme:logs")),
                    *([statecheck.ExpectSensitiveValue("cloud_access_key.reader", New("secret"))] if state_marks else []),
                ],
                check=lambda state: ids.append(mock.objects("cloud_bucket")[0]["id"]),
            ),
            TestStep(  # in place: the computed values of the prior state stay
                config=module(readers='["alice"]'),
                variables=variables,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("cloud_bucket.logs", ResourceAction.Update),
                    ExpectKnownValue("cloud_bucket.logs", New("id"), EIGHT),
                    ExpectKnownValue("cloud_bucket.logs", New("arn"), kv.StringExact("arn:acme:logs")),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("readers"), kv.SetExact([kv.StringExact("alice")])),
                ],
            ),
            TestStep(
                config=module(readers='["alice"]'),
                variables=variables,
                import_state=True,
                resource_name="cloud_bucket.logs",
                import_state_verify=True,
            ),
        ]))
    assert not leaks[0], leaks[0]
    assert mock.objects("cloud_bucket") == []
    assert mock.objects("cloud_access_key") == []
    applies = [(c.type_name, c.action) for c in mock.calls if c.rpc == "ApplyResourceChange"]
    assert applies.count(("cloud_bucket", "create")) == 1
    assert ("cloud_bucket", "update") in applies
    assert ("cloud_bucket", "delete") in applies
    assert [c.config["id"] for c in mock.calls if c.rpc == "ImportResourceState"] == ids
    assert all(SECRET not in c.stdout + c.stderr for c in tf_acceptance.commands)
    assert SECRET not in repr(mock.calls)


AWS = "registry.terraform.io/hashicorp/aws"
AWS_SCHEMA = {"resource_schemas": {"aws_s3_bucket": {"block": {"attributes": {
    "bucket": {"type": "string", "required": True},
    "arn": {"type": "string", "computed": True},
    "id": {"type": "string", "computed": True},
}}}}}


def test_a_registry_address_is_never_installed(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    mock = MockProvider(AWS_SCHEMA, "hashicorp/aws", mock_resources={"aws_s3_bucket": {"arn": "arn:aws:s3:::b"}})
    config = """
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}

resource "aws_s3_bucket" "b" {
  bucket = "b"
}
"""
    with leak_check(private_tmp) as leaks:
        runner_for(tf_acceptance, env=OFFLINE).run(TestCase(providers={AWS: mock}, steps=[
            TestStep(config=config, config_state_checks=[
                statecheck.ExpectKnownValue("aws_s3_bucket.b", New("arn"), kv.StringExact("arn:aws:s3:::b")),
            ]),
        ]))
    assert not leaks[0], leaks[0]
    assert [c.rpc for c in mock.calls].count("ApplyResourceChange") == 2  # create, then the final destroy


# -- the null provider, mocked from its real schema, against the real one ----------------------------------

NULL_CONFIG = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

resource "null_resource" "plain" {
  count    = 2
  triggers = { index = count.index, fixed = "x" }
}

resource "null_resource" "secret" {
  triggers = { secret = var.secret }
}

resource "null_resource" "chained" {
  triggers = { other = null_resource.plain[0].id }
}

data "null_data_source" "d" {
  inputs = { a = "b" }
}

data "null_data_source" "late" {
  inputs = { id = null_resource.secret.id }
}

output "ids" {
  value = null_resource.plain[*].id
}

output "data_outputs" {
  value = data.null_data_source.d.outputs
}
"""


def _any_unknown(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_any_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(_any_unknown(v) for v in value)
    return value is True


def folded(after_unknown: Any) -> Any:
    """Per attribute, a partly unknown collection as wholly unknown.

    The real null provider is an SDKv2 provider: its legacy type system turns a map with one
    unknown element into an unknown map (``triggers = { other = null_resource.plain[0].id }``).
    The mock keeps the element's precision, as providers of the plugin framework do.
    """
    if not isinstance(after_unknown, dict):
        return after_unknown
    return {name: True if _any_unknown(value) else value for name, value in after_unknown.items()}


def plan_shape(terraform: str, directory: Path, env: dict[str, str]) -> dict[str, Any]:
    """Actions, unknown paths and sensitive paths of every change, and the data sources read at plan."""
    env = {**env, "TF_VAR_secret": SECRET}
    for argv in (["init", "-input=false", "-no-color"], ["plan", "-input=false", "-no-color", "-out=plan.bin"]):
        result = run_command([terraform, *argv], cwd=directory, env=env, timeout=120)
        assert result.ok, result.stderr + result.stdout
    shown = run_command([terraform, "show", "-json", "plan.bin"], cwd=directory, env=env, timeout=120)
    assert shown.ok, shown.stderr
    assert SECRET not in shown.stderr
    plan = json.loads(shown.stdout)
    changes = {
        c["address"]: (c["change"]["actions"], folded(c["change"].get("after_unknown")), c["change"].get("after_sensitive"))
        for c in plan.get("resource_changes", [])
    }
    outputs = {n: (o["actions"], o.get("after_unknown"), o.get("after_sensitive")) for n, o in plan.get("output_changes", {}).items()}
    read = {
        r["address"]: sorted(r["values"])
        for r in plan.get("prior_state", {}).get("values", {}).get("root_module", {}).get("resources", [])
    }
    return {"changes": changes, "outputs": outputs, "read_at_plan": read}


def test_the_null_mock_plans_like_the_real_null_provider(
    tf_acceptance: AcceptanceRunner, tf_acceptance_cli_config: Path, tmp_path: Path, private_tmp: Path
) -> None:
    terraform = tf_acceptance.terraform.path
    real_dir, mock_dir = tmp_path / "real", tmp_path / "mock"
    for directory in (real_dir, mock_dir):
        directory.mkdir()
        (directory / "main.tf").write_text(NULL_CONFIG, encoding="utf-8")
    real = plan_shape(terraform, real_dir, terraform_environment(
        os.environ, data_dir=real_dir / ".tfdata", cli_config=tf_acceptance_cli_config))
    mock = MockProvider.from_schema_file(NULL_SCHEMA, "hashicorp/null")
    with leak_check(private_tmp) as leaks, ProviderServer("registry.terraform.io/hashicorp/null", mock) as server:
        env = terraform_environment({**os.environ, **OFFLINE}, data_dir=mock_dir / ".tfdata")
        env.update(server.environment())
        mocked = plan_shape(terraform, mock_dir, env)
    assert not leaks[0], leaks[0]
    assert mocked == real
    # The comparison compares something: creates, a data source read at plan, one deferred to apply, outputs.
    assert real["changes"]["null_resource.plain[0]"][0] == ["create"]
    assert real["changes"]["data.null_data_source.late"][0] == ["read"]
    assert "data.null_data_source.d" in real["read_at_plan"]
    assert real["outputs"]["ids"][1] in (True, [True, True])  # 1.0.3: the whole list; 1.11: each id


def test_nothing_is_left_after_many_servers(private_tmp: Path) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD)
    before = children()
    with leak_check(private_tmp) as leaks:
        for _ in range(3):
            with ProviderServer(CLOUD, mock):
                pass
    assert not leaks[0], leaks[0]
    assert children() - before == set()
    assert not [t for t in threading.enumerate() if t.name.startswith("tfplancheck-cloud")]


def test_the_readme_example_with_config_directory(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    cloud = MockProvider.from_schema_file(
        CLOUD_SCHEMA, "acme/cloud", seed=7,
        mock_resources={"cloud_bucket": {"arn": lambda config: f"arn:acme:{config['name']}"}},
    )
    variables = {"encryption_key": Sensitive(SECRET)}
    with leak_check(private_tmp) as leaks:
        runner_for(tf_acceptance, env=OFFLINE).run(TestCase(providers={CLOUD: cloud}, steps=[
            TestStep(
                config_directory=str(EXAMPLE),
                variables=variables,
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("cloud_bucket.logs", ResourceAction.Create),
                    ExpectSensitiveValue("cloud_bucket.logs", New("encryption_key")),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("arn"), kv.StringExact("arn:acme:logs")),
                ],
            ),
            TestStep(config_directory=str(EXAMPLE), variables=variables,
                     import_state=True, resource_name="cloud_bucket.logs", import_state_verify=True),
        ]))
    assert not leaks[0], leaks[0]
    creates = [c for c in cloud.calls if c.rpc == "ApplyResourceChange" and c.action == "create"]
    assert [c.type_name for c in creates] == ["cloud_bucket", "cloud_access_key"]


README_SCHEMA = {"provider_schemas": {"registry.terraform.io/acme/cloud": {"resource_schemas": {
    "cloud_bucket": {"version": 0, "block": {"attributes": {
        "id": {"type": "string", "computed": True},
        "name": {"type": "string", "required": True},
        "arn": {"type": "string", "computed": True},
        "encryption_key": {"type": "string", "optional": True, "sensitive": True},
    }}},
}}}}
README_MODULE = """
variable "key" {
  type      = string
  sensitive = true
}

resource "cloud_bucket" "logs" {
  name           = "logs"
  encryption_key = var.key
}
"""


def test_the_readme_example(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    """The mock guide's example for module authors (docs/guides/mock-providers.md), as written there (no terraform block: the runner adds it)."""
    cloud = MockProvider(README_SCHEMA, "acme/cloud", seed=7,
                         mock_resources={"cloud_bucket": {"arn": lambda config: f"arn:acme:{config['name']}"}})
    with leak_check(private_tmp) as leaks:
        runner_for(tf_acceptance, env=OFFLINE).run(TestCase(providers={CLOUD: cloud}, steps=[
            TestStep(
                config=README_MODULE,
                variables={"key": Sensitive("k3y")},
                config_plan_checks=ConfigPlanChecks(pre_apply=[
                    ExpectResourceAction("cloud_bucket.logs", ResourceAction.Create),
                    ExpectUnknownValue("cloud_bucket.logs", New("arn")),
                    ExpectSensitiveValue("cloud_bucket.logs", New("encryption_key")),
                ]),
                config_state_checks=[
                    statecheck.ExpectKnownValue("cloud_bucket.logs", New("arn"), kv.StringExact("arn:acme:logs")),
                ],
            ),
            TestStep(config=README_MODULE, variables={"key": Sensitive("k3y")},
                     import_state=True, resource_name="cloud_bucket.logs", import_state_verify=True),
        ]))
    assert not leaks[0], leaks[0]
    creates = [c for c in cloud.calls if c.rpc == "ApplyResourceChange" and c.action == "create"]
    assert [c.type_name for c in creates] == ["cloud_bucket"]


@pytest.mark.parametrize(
    ("second", "applied", "planned"),
    [
        pytest.param(README_MODULE, ["create", "delete"], {"create", "no-op"}, id="identical-steps-plan-no-op"),
        pytest.param(README_MODULE.replace('name           = "logs"', 'name           = "logs2"'),
                     ["create", "update", "delete"], {"create", "no-op", "update"}, id="changed-step-plans-update"),
    ],
)
def test_calls_record_the_action_the_mock_planned(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, second: str, applied: list[str], planned: set[str]
) -> None:
    cloud = MockProvider(README_SCHEMA, "acme/cloud", seed=7)
    step = {"variables": {"key": Sensitive("k3y")}}
    runner_for(tf_acceptance, env=OFFLINE).run(TestCase(providers={CLOUD: cloud}, steps=[
        TestStep(config=README_MODULE, **step), TestStep(config=second, **step),
    ]))
    # Terraform plans a resource several times a step (plan, apply, the empty-plan check); only a
    # real change is an update, and it never applies a no-op.
    plans = [c.action for c in cloud.calls if c.rpc == "PlanResourceChange"]
    assert plans[0] == "create"
    assert set(plans) == planned
    assert [c.action for c in cloud.calls if c.rpc == "ApplyResourceChange"] == applied
