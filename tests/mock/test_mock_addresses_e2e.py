"""Per-address mock defaults end to end (issue #24, item 2): count, for_each and a local module, and the refusal.

On the pinned Terraform 1.0.3 and the newer one on PATH.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from mock_support import CLOUD, CLOUD_SCHEMA, leak_check, offline_runner, write_tree

from plancheck import knownvalue as kv
from plancheck import statecheck
from plancheck.acceptance import AcceptanceError, AcceptanceRunner, MockProvider, TestCase, TestStep
from tfjsonpath import New

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

REQUIRED = 'terraform {\n  required_providers {\n    cloud = { source = "acme/cloud" }\n  }\n}\n'
# Terraform 1.0.3 panics planning a null single nested attribute: every bucket sets website.
ROOT_MODULE = REQUIRED + """
resource "cloud_bucket" "counted" {
  count   = 2
  name    = "c${count.index}"
  website = { index_document = "index.html" }
}

resource "cloud_bucket" "each" {
  for_each = toset(["a", "b"])
  name     = "e-${each.key}"
  website  = { index_document = "index.html" }
}

module "store" {
  source   = "./modules/store"
  for_each = toset(["x", "y"])
  name     = each.key
}
"""
STORE_MODULE = REQUIRED + """
variable "name" {
  type = string
}

resource "cloud_bucket" "inner" {
  name    = "m-${var.name}"
  website = { index_document = "index.html" }
}
"""
DEFAULTS = {
    "cloud_bucket": {"arn": "by-type"},
    "cloud_bucket.counted[1]": {"arn": "counted-1"},
    "cloud_bucket.each": {"arn": "each"},
    'cloud_bucket.each["b"]': {"arn": "each-b"},
    'module.store["y"].cloud_bucket.inner': {"arn": "store-y"},
    "module.*.cloud_bucket.*": {"arn": lambda config: "in-a-module:" + config["name"]},
}
EXPECTED = {
    "cloud_bucket.counted[0]": "by-type",
    "cloud_bucket.counted[1]": "counted-1",
    'cloud_bucket.each["a"]': "each",
    'cloud_bucket.each["b"]': "each-b",
    'module.store["x"].cloud_bucket.inner': "in-a-module:m-x",
    'module.store["y"].cloud_bucket.inner': "store-y",
}


def write_module(root: Path) -> Path:
    return write_tree(root, {"main.tf": ROOT_MODULE, "modules/store/main.tf": STORE_MODULE})


@pytest.mark.parametrize("override_during", ["apply", "plan"])
def test_each_instance_gets_the_defaults_of_its_most_specific_key(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, tmp_path: Path, override_during: Literal["apply", "plan"]
) -> None:
    mock = MockProvider.from_schema_file(
        CLOUD_SCHEMA, CLOUD, seed=3, mock_resources=DEFAULTS, override_during=override_during
    )
    directory = str(write_module(tmp_path / "module"))
    checks = [statecheck.ExpectKnownValue(address, New("arn"), kv.StringExact(arn)) for address, arn in EXPECTED.items()]
    with leak_check(private_tmp) as leaks:
        # The second step plans nothing: the runner fails it otherwise (the per-address values are kept).
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: mock}, steps=[
            TestStep(config_directory=directory, config_state_checks=checks),
            TestStep(config_directory=directory, config_state_checks=checks),
        ]))
    assert not leaks[0], leaks[0]
    creates = [c for c in mock.calls if c.rpc == "ApplyResourceChange" and c.action == "create"]
    assert len(creates) == len(EXPECTED)


TWINS = REQUIRED + """
resource "cloud_bucket" "twin" {
  count   = 2
  name    = "same"
  website = { index_document = "index.html" }
}
"""
REFUSAL = (
    "Cannot tell cloud_bucket.twin[0] from cloud_bucket.twin[1]: their defaults differ",
    "The mock of registry.terraform.io/acme/cloud finds the address of a create by its planned values, and these "
    "two cloud_bucket instances plan the same ones, while cloud_bucket.twin[0] gets mock_resources[\"cloud_bucket\"] "
    "and cloud_bucket.twin[1] gets mock_resources[\"cloud_bucket.twin[1]\"]. It will not guess which is which: give "
    "them configurations that differ, or the same defaults.",
)


def test_identical_instances_with_different_defaults_are_refused(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, mock_resources={
        "cloud_bucket": {"arn": "by-type"}, "cloud_bucket.twin[1]": {"arn": "twin-1"}})
    with leak_check(private_tmp) as leaks, pytest.raises(AcceptanceError) as info:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: mock}, steps=[TestStep(config=TWINS)]))
    assert not leaks[0], leaks[0]
    assert info.value.stage.value == "apply"
    shown = re.sub(r"\s+", " ", info.value.output)
    for text in REFUSAL:
        assert text in shown
    assert mock.objects("cloud_bucket") == []


def test_identical_instances_with_the_same_defaults_apply(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, mock_resources={
        "cloud_bucket": {"arn": "by-type"}, "cloud_bucket.twin": {"arn": "twins"}})
    checks = [statecheck.ExpectKnownValue(f"cloud_bucket.twin[{i}]", New("arn"), kv.StringExact("twins")) for i in (0, 1)]
    with leak_check(private_tmp) as leaks:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: mock}, steps=[
            TestStep(config=TWINS, config_state_checks=checks)]))
    assert not leaks[0], leaks[0]
