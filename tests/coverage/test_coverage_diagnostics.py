"""A condition seen failing from a Terraform diagnostic (no Terraform here): what a diagnostic says of its place
(``failed_conditions``, ``text_diagnostics``), the one condition block that place lies in (``scan.locate``), and the
coverage data that records it (``CoverageData.add_failures``): never a guess, never the message."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from plancheck._documents.plan import Plan
from plancheck._plugin.coverage.data import CoverageData
from plancheck._plugin.coverage.scan import locate, scan_text
from plancheck.acceptance._diagnostics import Diagnostic, failed_conditions, text_diagnostics

MAIN_TF = """\
variable "name" {
  type = string
  validation {
    condition     = length(var.name) > 2
    error_message = "Too short."
  }
  validation {
    condition     = var.name != "x"
    error_message = "Not x."
  }
}

resource "t" "a" {
  lifecycle {
    precondition {
      condition     = true
      error_message = "pre"
    }
    postcondition {
      condition     = true
      error_message = "post"
    }
  }
}

resource "t" "b" {
  lifecycle { precondition { condition = true } precondition { condition = false } }
}

output "o" {
  value = 1
  precondition {
    condition     = true
    error_message = "o"
  }
}

check "c" {
  assert {
    condition     = true
    error_message = "c"
  }
}
"""

ITEMS = scan_text(MAIN_TF, "main.tf")


@pytest.mark.parametrize(("kind", "file", "line", "located"), [
    pytest.param("validation", "main.tf", 3, ("var.name", "validation:0"), id="first-validation-rule"),
    pytest.param("validation", "main.tf", 7, ("var.name", "validation:1"), id="second-validation-rule"),
    pytest.param("precondition", "main.tf", 16, ("t.a", "precondition:0"), id="precondition-condition-line"),
    pytest.param("postcondition", "main.tf", 20, ("t.a", "postcondition:0"), id="postcondition-condition-line"),
    pytest.param("precondition", "main.tf", 33, ("output.o", "precondition:0"), id="output-precondition"),
    pytest.param("assert", "main.tf", 40, ("check.c", "assert:0"), id="check-assert"),
    pytest.param("validation", "main.tf", 1, None, id="variable-header-is-no-rule"),
    pytest.param("postcondition", "main.tf", 16, None, id="another-kind-at-the-line"),
    pytest.param("precondition", "main.tf", 14, None, id="lifecycle-line-outside-every-condition"),
    pytest.param("precondition", "main.tf", 27, None, id="two-conditions-on-the-line"),
    pytest.param("precondition", "other.tf", 16, None, id="another-file"),
    pytest.param("validation", "terraform.tfvars.json", 1, None, id="a-value-file"),
])
def test_locate(kind: str, file: str, line: int, located: tuple[str, str] | None) -> None:
    assert locate(ITEMS, file, line, kind) == located


RULE = "This was checked by the validation rule at main.tf:7,3-13."


@pytest.mark.parametrize(("diagnostic", "found"), [
    pytest.param(Diagnostic("error", "Invalid value for variable", f"Not x.\n\n{RULE}", filename="terraform.tfvars.json",
                            line=1), [("validation", "main.tf", 7)], id="validation-by-its-rule-not-its-range"),
    pytest.param(Diagnostic("error", "Invalid value for variable", f"{RULE.replace(':7,', ':3,')}\n\n{RULE}"),
                 [("validation", "main.tf", 7)], id="the-last-pointer-is-terraforms"),
    pytest.param(Diagnostic("error", "Invalid value for variable", "Not x.", filename="main.tf", line=1), [],
                 id="validation-without-pointer"),
    pytest.param(Diagnostic("error", "Invalid value for variable", f"{RULE} and more"), [],
                 id="pointer-not-a-whole-line"),
    pytest.param(Diagnostic("error", "Resource precondition failed", "pre", filename="main.tf", line=16),
                 [("precondition", "main.tf", 16)], id="resource-precondition"),
    pytest.param(Diagnostic("error", "Resource postcondition failed", "post", filename="main.tf", line=20),
                 [("postcondition", "main.tf", 20)], id="resource-postcondition"),
    pytest.param(Diagnostic("error", "Module output value precondition failed", "o", filename="main.tf", line=33),
                 [("precondition", "main.tf", 33)], id="output-precondition"),
    pytest.param(Diagnostic("warning", "Check block assertion failed", "c", filename="main.tf", line=40),
                 [("assert", "main.tf", 40)], id="check-assertion-warning"),
    pytest.param(Diagnostic("error", "Resource precondition failed", "pre"), [], id="no-range"),
    pytest.param(Diagnostic("error", "Unsupported argument", "", filename="main.tf", line=16), [],
                 id="not-a-condition"),
])
def test_failed_conditions(diagnostic: Diagnostic, found: list[tuple[str, str, int]]) -> None:
    assert failed_conditions([diagnostic]) == found


BOXED = """\
Planning failed. Terraform encountered an error while generating this plan.

╷
│ Error: Invalid value for variable
│
│   on terraform.tfvars.json line 1:
│    1: {"name":"x"}
│     ├────────────────
│     │ var.name is "x"
│
│ Not x.
│
│ This was checked by the validation rule at main.tf:7,3-13.
╵
╷
│ Error: Resource precondition failed
│
│   on main.tf line 16, in resource "t" "a":
│   16:       condition     = true
│
│ pre
╵
This was checked by the validation rule at main.tf:3,3-13.
"""

PLAIN = """\
Error: Invalid value for variable

  on main.tf line 1:
   1: variable "name" {

Not x.

This was checked by the validation rule at main.tf:7,3-13.

Error: Check block assertion failed

  on main.tf line 40, in check "c":
  40:     condition     = true

c
"""


@pytest.mark.parametrize(("text", "found"), [
    pytest.param(BOXED, [("validation", "main.tf", 7), ("precondition", "main.tf", 16)], id="boxed-terraform-1.11"),
    pytest.param(PLAIN, [("validation", "main.tf", 7), ("assert", "main.tf", 40)], id="plain-terraform-1.0"),
    pytest.param("Error: Resource precondition failed\n\npre\n", [], id="no-place"),
    pytest.param("nothing of Terraform's", [], id="no-diagnostic"),
])
def test_text_diagnostics(text: str, found: list[tuple[str, str, int]]) -> None:
    assert failed_conditions(text_diagnostics(text)) == found


def _module_call_plan(calls: list[str]) -> Plan:
    child = {"resources": [{"address": "t.a", "mode": "managed", "type": "t", "name": "a"}]}
    return Plan.from_dict({"format_version": "1.2", "terraform_version": "1.11.4", "configuration": {"root_module": {
        "module_calls": {name: {"source": "./child", "module": child} for name in calls}}}})


def _failed(data: CoverageData) -> dict[str, dict[str, list[str]]]:
    return {key: {address: sorted(item.failed) for address, item in module.items.items() if item.failed}
            for key, module in data.modules.items()}


@pytest.mark.parametrize(("calls", "located", "failed"), [
    pytest.param(None, [("validation", "main.tf", 7)], {"root": {"var.name": ["validation:1"]}},
                 id="root-without-a-plan"),
    pytest.param(None, [("validation", "main.tf", 1)], {"root": {}}, id="root-not-located"),
    pytest.param(None, [("precondition", "child/main.tf", 16)], {}, id="child-without-a-plan"),
    pytest.param(["net"], [("precondition", "child/main.tf", 16)],
                 {"root": {}, "root/child": {"module.net.t.a": ["precondition:0"]}}, id="child-of-one-call"),
    pytest.param(["net", "db"], [("precondition", "child/main.tf", 16)], {"root": {}, "root/child": {}},
                 id="child-of-two-calls-not-guessed"),
])
def test_add_failures(tmp_path: Path, calls: list[str] | None, located: list[tuple[str, str, int]],
                      failed: dict[str, Any]) -> None:
    root = tmp_path / "root"
    (root / "child").mkdir(parents=True)
    (root / "main.tf").write_text(MAIN_TF, encoding="utf-8")
    (root / "child" / "main.tf").write_text(MAIN_TF, encoding="utf-8")
    data = CoverageData()
    if calls is not None:
        data.add_plan(_module_call_plan(calls), root, tmp_path)
    data.add_failures(root, tmp_path, located)
    assert _failed(data) == failed
    assert "Not x" not in json.dumps(data.to_json())
