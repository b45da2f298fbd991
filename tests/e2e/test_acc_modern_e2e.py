"""Newer Terraform only (>= 1.7): ``moved``, ``removed`` (forget), ``check`` blocks and ``replace_paths``.

Uses the built-in ``terraform_data`` resource, so no provider is installed at all.
"""

from __future__ import annotations

from typing import Any

import pytest

from plancheck import (
    CheckFailure,
    ExpectResourceAction,
    ExpectResourceReplacePaths,
    PlanCheckError,
    ResourceAction,
)
from plancheck.acceptance import AcceptanceRunner, ConfigPlanChecks, TestCase, TestStep
from tfjsonpath import New

pytestmark = [pytest.mark.e2e, pytest.mark.tf_min_version("1.7")]


def config(*, moved: bool = False, replace: str = "one", update: str = "first", removed: bool = False) -> str:
    old = (
        'moved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n'
        'resource "terraform_data" "new" {\n  input = "moved-me"\n}\n'
        if moved
        else 'resource "terraform_data" "old" {\n  input = "moved-me"\n}\n'
    )
    keep = (
        'removed {\n  from = terraform_data.keep\n  lifecycle {\n    destroy = false\n  }\n}\n'
        if removed
        else 'resource "terraform_data" "keep" {\n  input = "kept"\n}\n'
    )
    return old + keep + f"""
resource "terraform_data" "r" {{
  triggers_replace = "{replace}"
  input            = "a"
}}

resource "terraform_data" "u" {{
  input = "{update}"
}}

check "u_is_first" {{
  assert {{
    condition     = terraform_data.u.input == "first"
    error_message = "u is no longer first"
  }}
}}
"""


class ExpectMovedFrom:
    def __init__(self, address: str, previous: str) -> None:
        self.address, self.previous = address, previous

    def CheckPlan(self, plan: Any) -> None:
        found = plan.resource_change(self.address).previous_address
        if found != self.previous:
            raise PlanCheckError([CheckFailure("ExpectMovedFrom", self.address, None, f"moved from {found!r}")])


class ExpectCheckStatus:
    """The plan's ``checks`` report ``status`` for the check block at ``address``."""

    def __init__(self, address: str, status: str) -> None:
        self.address, self.status = address, status

    def CheckPlan(self, plan: Any) -> None:
        statuses = {
            result["address"]["to_display"]: result["status"]
            for result in plan.raw.get("checks", ())
            if result.get("address", {}).get("kind") == "check"
        }
        if statuses.get(self.address) != self.status:
            raise PlanCheckError([CheckFailure("ExpectCheckStatus", self.address, None, f"statuses: {statuses}")])


def test_moved_removed_check_blocks_and_replace_paths(tf_acceptance: AcceptanceRunner) -> None:
    tf_acceptance.run(TestCase(steps=[
        TestStep(
            config=config(),
            config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectResourceAction("terraform_data.old", ResourceAction.Create),
                ExpectCheckStatus("check.u_is_first", "pass"),
            ]),
        ),
        TestStep(
            config=config(moved=True, replace="two", update="second"),
            config_plan_checks=ConfigPlanChecks(
                pre_apply=[
                    ExpectResourceAction("terraform_data.new", ResourceAction.NoOp),
                    ExpectMovedFrom("terraform_data.new", "terraform_data.old"),
                    ExpectResourceAction("terraform_data.r", ResourceAction.DestroyBeforeCreate),
                    ExpectResourceReplacePaths("terraform_data.r", [New("triggers_replace")]),
                    ExpectResourceAction("terraform_data.u", ResourceAction.Update),
                    ExpectCheckStatus("check.u_is_first", "fail"),
                ],
                post_apply_post_refresh=[ExpectCheckStatus("check.u_is_first", "fail")],
            ),
        ),
        TestStep(
            config=config(moved=True, replace="two", update="second", removed=True),
            config_plan_checks=ConfigPlanChecks(pre_apply=[
                ExpectResourceAction("terraform_data.keep", ResourceAction.Forget),
            ]),
        ),
    ]))
