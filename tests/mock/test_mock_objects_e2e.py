"""MockProvider end to end (issue #24, item 1): a module author's first test passes.

* A data source without a ``mock_data`` default reads the same values for the same configuration,
  so a resource fed by one of its computed attributes plans nothing after apply.

On the pinned Terraform 1.0.3 and the newer one on PATH.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mock_support import CLOUD, CLOUD_SCHEMA, NULL_SCHEMA, leak_check

from plancheck import ExpectResourceAction, ResourceAction
from plancheck.acceptance import (
    AcceptanceRunner,
    ConfigPlanChecks,
    MockProvider,
    TestCase,
    TestStep,
)

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

NULL = "registry.terraform.io/hashicorp/null"
#: Any attempt to reach the network fails at once.
OFFLINE = {"HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}


def runner_for(tf_acceptance: AcceptanceRunner) -> AcceptanceRunner:
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, env=OFFLINE)


# -- 1. a data source without a default reads the same answer twice ---------------------------------

CLOUD_DATA_MODULE = """
data "cloud_region" "here" {
  name = "eu-west-1"
}

resource "cloud_bucket" "logs" {
  name    = "logs"
  tags    = { endpoint = data.cloud_region.here.endpoint }
  website = { index_document = "index.html" } # Terraform 1.0.3 panics planning a null single nested attribute
}
"""

NULL_DATA_MODULE = """
data "null_data_source" "d" {
  inputs = { a = "b" }
}

resource "null_resource" "r" {
  triggers = { random = data.null_data_source.d.random }
}
"""


def cloud_mock(**options: Any) -> MockProvider:
    return MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, seed=11, **options)


def null_mock(**options: Any) -> MockProvider:
    return MockProvider.from_schema_file(NULL_SCHEMA, NULL, seed=11, **options)


@pytest.mark.parametrize(("make", "address", "module", "watched"), [
    pytest.param(cloud_mock, CLOUD, CLOUD_DATA_MODULE, "cloud_bucket.logs", id="cloud-no-defaults"),
    pytest.param(lambda: cloud_mock(override_during="plan"), CLOUD, CLOUD_DATA_MODULE, "cloud_bucket.logs",
                 id="cloud-override-during-plan"),
    pytest.param(lambda: cloud_mock(mock_resources={"cloud_bucket": lambda c: {"arn": "arn:" + c["name"]}}),
                 CLOUD, CLOUD_DATA_MODULE, "cloud_bucket.logs", id="cloud-callable-default-for-another-type"),
    pytest.param(null_mock, NULL, NULL_DATA_MODULE, "null_resource.r", id="null-no-defaults"),
])
def test_an_undefaulted_data_source_feeding_a_resource_passes_two_identical_steps(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, make: Any, address: str, module: str, watched: str
) -> None:
    mock = make()
    with leak_check(private_tmp) as leaks:
        # Each step's post-apply plan must be empty: the runner fails the step otherwise.
        runner_for(tf_acceptance).run(TestCase(providers={address: mock}, steps=[
            TestStep(config=module, config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectResourceAction(watched, ResourceAction.Create)])),
            TestStep(config=module, config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectResourceAction(watched, ResourceAction.NoOp)])),
        ]))
    assert not leaks[0], leaks[0]
    reads = [c for c in mock.calls if c.rpc == "ReadDataSource"]
    assert len(reads) >= 2
    applies = [c.action for c in mock.calls if c.rpc == "ApplyResourceChange"]
    assert applies == ["create", "delete"]
