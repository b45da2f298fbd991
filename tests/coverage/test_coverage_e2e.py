"""``pytest --tf-cov`` with real Terraform: acceptance tests of the fixture tree (root and local child, from a
``config_directory``) make the plans, and the JSON report is pinned whole.

Terraform 1.5+ only: the tree uses ``terraform_data`` (1.4+) and a ``check`` block, and the plan's ``checks``
section (1.5+) says the conditions' outcomes. That older plans say "not available" is pinned with plans built
in code (test_coverage_session.py). The runner reads no plan after the apply unless it has checks (the destroy is not
read either), so only the create action is seen. The validation's failing way: a step expecting its error, whose
plan Terraform 1.11 writes although planning failed ("errored": true), read by the runner while coverage watches.
"""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
from coverage_support import MOCK_MODULE, TREE
from test_coverage_session import NA, _condition, _item

from plancheck._terraform.binary import TerraformBinary

pytestmark = [pytest.mark.e2e, pytest.mark.tf_min_version("1.5")]

TESTS = """
import re
from plancheck import ExpectKnownValue, ExpectResourceAction, ResourceAction
from plancheck import knownvalue as kv
from plancheck.acceptance import ConfigPlanChecks, TestCase, TestStep
from tfjsonpath import New


def test_web(tf_acceptance, pytestconfig):
    tf_acceptance.run(TestCase(steps=[TestStep(
        config_directory=pytestconfig.rootpath / "tree",
        config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("terraform_data.app", ResourceAction.Create),
            ExpectKnownValue("module.net.terraform_data.vpc", New("input"), kv.StringExact("10.0.0.0/16")),
        ]),
    )]))


def test_another_name(tf_acceptance, pytestconfig):  # the check block fails (a warning: the step goes on)
    tf_acceptance.run(TestCase(steps=[TestStep(
        config_directory=pytestconfig.rootpath / "tree", variables={"name": "api"},
    )]))


def test_a_short_name(tf_acceptance, pytestconfig):  # the validation fails: planning stops
    tf_acceptance.run(TestCase(steps=[TestStep(
        config_directory=pytestconfig.rootpath / "tree", variables={"name": "db"},
        expect_error=re.compile("name must be longer than 2 characters"),
    )]))
"""

EXPECTED: dict[str, Any] = {"format_version": "2", "percent": 80.0, "modules": [
    {"module": "tree", "percent": 78.57, "conditions_available": True, "items": [
        _item("check.name_is_web", "check", True, conditions=[_condition("assert", True, True)], **NA),
        _item("module.net", "module", True, **NA),
        _item("output.app_id", "output", True),
        _item("terraform_data.app", "resource", True, ["create"], asserted=True),
        _item("terraform_data.spare", "resource", False),
        _item("var.name", "variable", True, conditions=[_condition("validation", True, True)], **NA),
        _item("var.replicas", "variable", True, **NA),
    ]},
    {"module": "tree/modules/net", "percent": 83.33, "conditions_available": True, "items": [
        _item("module.net.output.vpc_id", "output", True, **NA),
        _item("module.net.terraform_data.vpc", "resource", True, ["create"], asserted=True, paths=["input"],
              conditions=[_condition("precondition", True, False)]),
        _item("module.net.var.cidr", "variable", True, **NA),
    ]},
]}


def test_acceptance_plans_of_a_module_tree(pytester: pytest.Pytester, tf_acceptance_binary: TerraformBinary | None) -> None:
    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    shutil.copytree(TREE, pytester.path / "tree")
    pytester.makepyfile(test_tree=TESTS)
    result = pytester.runpytest(
        "--tf-cov", "--tf-cov-report=json:tf.json", "--tf-cov-report=term", f"--terraform={tf_acceptance_binary.path}",
        "--no-tf-acc-gate", "-p", "no:cacheprovider",
    )
    result.assert_outcomes(passed=3)
    assert json.loads((pytester.path / "tf.json").read_text(encoding="utf-8")) == EXPECTED


MOCK_TESTS = """
from pathlib import Path
from plancheck import ExpectKnownValue, ExpectResourceAction, ExpectSensitiveValue, ResourceAction
from plancheck import knownvalue as kv
from plancheck._terraform.mock.provider import MockProvider
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, Sensitive, TestCase, TestStep
from tfjsonpath import New

OFFLINE = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}


def test_the_example_module(tf_acceptance, pytestconfig):
    module = pytestconfig.rootpath / "mock_module"
    mock = MockProvider.from_schema_file(module / "cloud.schema.json", "registry.terraform.io/acme/cloud", seed=7)
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, env=OFFLINE)
    runner.run(TestCase(providers={"registry.terraform.io/acme/cloud": mock}, steps=[TestStep(
        config_directory=module, variables={"encryption_key": Sensitive("%s")},
        config_plan_checks=ConfigPlanChecks(pre_apply=[
            ExpectResourceAction("cloud_bucket.logs", ResourceAction.Create),
            ExpectSensitiveValue("cloud_bucket.logs", New("encryption_key")),
            ExpectKnownValue("cloud_bucket.logs", New("region"), kv.StringExact("eu-west-1")),
        ]),
    )]))
"""

#: The example module: every item planned, the bucket asserted. The data source was read while planning: it has
#: no resource change for a check to address, so it counts once, as the variables do.
MOCK_EXPECTED: dict[str, Any] = {"format_version": "2", "percent": 75.0, "modules": [
    {"module": "mock_module", "percent": 75.0, "conditions_available": True, "items": [
        _item("cloud_access_key.reader", "resource", True, ["create"]),
        _item("cloud_bucket.logs", "resource", True, ["create"], asserted=True, paths=["encryption_key", "region"]),
        _item("data.cloud_region.here", "data", True, **NA),
        _item("output.access_key", "output", True),
        _item("output.bucket_arn", "output", True),
        _item("var.encryption_key", "variable", True, **NA),
        _item("var.name", "variable", True, **NA),
        _item("var.readers", "variable", True, **NA),
    ]},
]}


def test_the_mocked_example_module(pytester: pytest.Pytester, tf_acceptance_binary: TerraformBinary | None) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    secret = "cov-mock-secret-5Hq2zz"
    shutil.copytree(MOCK_MODULE, pytester.path / "mock_module")
    pytester.makepyfile(test_mock=MOCK_TESTS % secret)
    result = pytester.runpytest(
        "--tf-cov", "--tf-cov-report=json:tf.json", "--tf-cov-report=html:html", f"--terraform={tf_acceptance_binary.path}",
        "--no-tf-acc-gate", "-p", "no:cacheprovider",
    )
    result.assert_outcomes(passed=1)
    assert json.loads((pytester.path / "tf.json").read_text(encoding="utf-8")) == MOCK_EXPECTED
    written = [pytester.path / "tf.json", *(pytester.path / "html").iterdir()]
    assert [p.name for p in written if secret in p.read_text(encoding="utf-8")] == []
