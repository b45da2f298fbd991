"""The acceptance runner against real Terraform binaries (1.0.3 and the system one) with the null provider.

One case covers the life of a configuration: create (unknown ``id``, sensitive ``triggers``),
count and for_each instances, known/unknown/sensitive outputs, replace versus no-op versus an
output update, a plan-only step with a non-empty plan, and an expected error. Plan formats
0.2 (Terraform 1.0.3) and 1.2 (1.11) are both read back through ``show -json``.
"""

from __future__ import annotations

import pytest

from plancheck import (
    ExpectEmptyPlan,
    ExpectKnownOutputValue,
    ExpectKnownValue,
    ExpectNonEmptyPlan,
    ExpectResourceAction,
    ExpectSensitiveOutputValue,
    ExpectSensitiveValue,
    ExpectUnknownOutputValue,
    ExpectUnknownValue,
    ResourceAction,
    statecheck,
)
from plancheck import knownvalue as kv
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, Sensitive, TestCase, TestStep
from tfjsonpath import New

pytestmark = pytest.mark.e2e

SECRET = "e2e-planted-secret-value"

PROVIDERS = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}
"""


def config(*, a_key: str = "v", each: str = '["x", "y"]') -> str:
    return PROVIDERS + f"""
variable "secret" {{
  type      = string
  sensitive = true
}}

variable "suffix" {{
  type    = string
  default = "1"
}}

resource "null_resource" "a" {{
  triggers = {{
    k = "{a_key}"
    s = var.secret
  }}
}}

resource "null_resource" "counted" {{
  count    = 2
  triggers = {{ i = count.index }}
}}

resource "null_resource" "each" {{
  for_each = toset({each})
  triggers = {{ key = each.key }}
}}

output "known" {{
  value = "const-${{var.suffix}}"
}}

output "unknown" {{
  value = null_resource.a.id
}}

output "secret" {{
  value     = var.secret
  sensitive = true
}}
"""


def test_null_resource_lifecycle(tf_acceptance: AcceptanceRunner) -> None:
    secret = {"secret": Sensitive(SECRET)}
    tf_acceptance.run(TestCase(steps=[
        TestStep(
            config=config(),
            variables=secret,
            config_plan_checks=ConfigPlanChecks(
                pre_apply=[
                    ExpectResourceAction("null_resource.a", ResourceAction.Create),
                    ExpectUnknownValue("null_resource.a", New("id")),
                    ExpectSensitiveValue("null_resource.a", New("triggers").AtMapKey("s")),
                    ExpectResourceAction("null_resource.counted[0]", ResourceAction.Create),
                    ExpectResourceAction("null_resource.counted[1]", ResourceAction.Create),
                    ExpectResourceAction('null_resource.each["y"]', ResourceAction.Create),
                    ExpectUnknownOutputValue("unknown"),
                    ExpectSensitiveOutputValue("secret"),
                    ExpectKnownOutputValue("known", kv.StringExact("const-1")),
                    ExpectKnownValue("null_resource.counted[1]", New("triggers"), kv.MapExact({"i": kv.StringExact("1")})),
                ],
                post_apply_pre_refresh=[ExpectEmptyPlan()],
            ),
            config_state_checks=[
                statecheck.ExpectKnownValue("null_resource.a", New("triggers").AtMapKey("k"), kv.StringExact("v")),
                statecheck.ExpectKnownValue("null_resource.a", New("triggers").AtMapKey("s"), kv.StringExact(SECRET)),
                statecheck.ExpectSensitiveValue("null_resource.a", New("triggers").AtMapKey("s")),
                statecheck.ExpectKnownValue("null_resource.a", New("id"), kv.StringRegexp(r"^[0-9]+$")),
                statecheck.ExpectKnownValue('null_resource.each["x"]', New("triggers").AtMapKey("key"), kv.StringExact("x")),
                statecheck.ExpectKnownOutputValue("known", kv.StringExact("const-1")),
                statecheck.ExpectKnownOutputValue("secret", kv.StringExact(SECRET)),
            ],
        ),
        TestStep(
            config=config(a_key="v2"),
            variables={**secret, "suffix": "2"},
            config_plan_checks=ConfigPlanChecks(
                pre_apply=[
                    ExpectResourceAction("null_resource.a", ResourceAction.DestroyBeforeCreate),
                    ExpectResourceAction("null_resource.counted[0]", ResourceAction.NoOp),
                    ExpectKnownOutputValue("known", kv.StringExact("const-2")),
                ],
                post_apply_post_refresh=[ExpectEmptyPlan()],
            ),
        ),
        TestStep(
            config=config(a_key="v2", each='["x"]'),
            variables={**secret, "suffix": "2"},
            plan_only=True,
            expect_non_empty_plan=True,
            config_plan_checks=ConfigPlanChecks(
                post_apply_pre_refresh=[
                    ExpectNonEmptyPlan(),
                    ExpectResourceAction('null_resource.each["y"]', ResourceAction.Destroy),
                ],
            ),
        ),
        TestStep(
            config=config() + '\nresource "null_resource" "bad" {\n  bogus = 1\n}\n',
            variables=secret,
            expect_error=r'An argument named "bogus" is not expected here',
        ),
    ]))
    commands = [c.command_line.split()[1] for c in tf_acceptance.commands]
    # The rejected configuration, then the last accepted one again, for destroy.
    assert commands[-4:] == ["init", "plan", "init", "destroy"]
    assert all(SECRET not in c.stdout + c.stderr for c in tf_acceptance.commands)
