"""``pytest --tf-cov`` with real Terraform: a condition is seen failing from the diagnostic a step expected, located by
the file and line Terraform names, on every binary found (the pinned 1.0.3 and the one on PATH).

The module's variable has two validations, so an errored plan's ``checks`` section (Terraform 1.5+: one status for
the variable) cannot say which failed; the diagnostic can: Terraform points at the rule that failed. One test
expects the error as text (``expect_error``: Terraform's text output is read), the other as a diagnostic
(``expect_diagnostics``: its ``-json`` output is). On Terraform 1.0.3 no plan is written when planning fails, so
nothing is planned and the outcomes of the checks section are not available, but the failures are still seen.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_coverage_session import NA, _item

from plancheck._terraform.binary import TerraformBinary

pytestmark = [pytest.mark.e2e]

MAIN_TF = """\
variable "name" {
  type = string
  validation {
    condition     = length(var.name) > 2
    error_message = "Name must be longer than 2 characters."
  }
  validation {
    condition     = var.name != "hunter2-secret"
    error_message = "Name must not be that one."
  }
}

output "greeting" {
  value = "hello ${var.name}"
}
"""

TESTS = """
import re
from plancheck.acceptance import ExpectDiagnostic, TestCase, TestStep


def test_the_second_rule_as_text(tf_acceptance, pytestconfig):
    tf_acceptance.run(TestCase(steps=[TestStep(
        config_directory=pytestconfig.rootpath / "named", variables={"name": "hunter2-secret"},
        expect_error=re.compile("Name must not be"),
    )]))


def test_the_first_rule_as_a_diagnostic(tf_acceptance, pytestconfig):
    tf_acceptance.run(TestCase(steps=[TestStep(
        config_directory=pytestconfig.rootpath / "named", variables={"name": "db"},
        expect_diagnostics=[ExpectDiagnostic(severity="error", summary="Invalid value for variable")],
    )]))
"""


def _validation(index: int, failed: bool) -> dict[str, Any]:
    return {"kind": "validation", "index": index, "passed": False, "failed": failed}


@pytest.mark.parametrize("tests", [
    pytest.param(["test_the_second_rule_as_text"], id="text"),
    pytest.param(["test_the_first_rule_as_a_diagnostic"], id="json"),
    pytest.param(["test_the_second_rule_as_text", "test_the_first_rule_as_a_diagnostic"], id="both"),
])
def test_a_validation_seen_failing_from_the_expected_diagnostic(
    pytester: pytest.Pytester, tf_acceptance_binary: TerraformBinary | None, tests: list[str]
) -> None:
    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    (pytester.path / "named").mkdir()
    (pytester.path / "named" / "main.tf").write_text(MAIN_TF, encoding="utf-8")
    pytester.makepyfile(test_named=TESTS)
    selected = " or ".join(tests)
    result = pytester.runpytest(
        "--tf-cov", "--tf-cov-report=json:tf.json", "--tf-cov-report=term", f"--terraform={tf_acceptance_binary.path}",
        "--no-tf-acc-gate", "-p", "no:cacheprovider", "-k", selected,
    )
    result.assert_outcomes(passed=len(tests))
    modern = tf_acceptance_binary.version_tuple >= (1, 5)
    report = json.loads((pytester.path / "tf.json").read_text(encoding="utf-8"))
    seen = len(tests) + (1 if modern else 0)  # each failure, and the variable planned (1.5+ writes the errored plan)
    percent = round(seen * 100 / (2 + 1 + 2 * 2), 2)  # two items, one assertable (the output), two conditions
    assert report == {"format_version": "2", "percent": percent, "modules": [
        {"module": "named", "percent": percent, "conditions_available": modern, "items": [
            _item("output.greeting", "output", False),
            _item("var.name", "variable", modern, conditions=[
                _validation(0, "test_the_first_rule_as_a_diagnostic" in tests),
                _validation(1, "test_the_second_rule_as_text" in tests),
            ], **NA),
        ]},
    ]}
    everything = "\n".join([*result.outlines, *result.errlines, (pytester.path / "tf.json").read_text(encoding="utf-8")])
    assert "hunter2" not in everything


GUARDED_TF = """\
variable "size" {
  type = number
}

resource "terraform_data" "disk" {
  input = var.size
  lifecycle {
    precondition {
      condition     = var.size > 0
      error_message = "The size must be positive."
    }
    postcondition {
      condition     = self.output != null
      error_message = "The disk has no size."
    }
  }
}
"""

GUARDED_TESTS = """
import re
from plancheck.acceptance import TestCase, TestStep


def test_a_negative_size(tf_acceptance, pytestconfig):
    tf_acceptance.run(TestCase(steps=[TestStep(
        config_directory=pytestconfig.rootpath / "guarded", variables={"size": -1},
        expect_error=re.compile("The size must be positive"),
    )]))
"""


@pytest.mark.tf_min_version("1.5")  # terraform_data (1.4+) and the errored plan's checks section (1.5+)
def test_a_precondition_told_apart_from_the_postcondition(
    pytester: pytest.Pytester, tf_acceptance_binary: TerraformBinary | None
) -> None:
    """The checks section says only that the resource failed (it has two conditions): the diagnostic says which."""
    if tf_acceptance_binary is None:
        pytest.skip("no Terraform binary")
    (pytester.path / "guarded").mkdir()
    (pytester.path / "guarded" / "main.tf").write_text(GUARDED_TF, encoding="utf-8")
    pytester.makepyfile(test_guarded=GUARDED_TESTS)
    result = pytester.runpytest(
        "--tf-cov", "--tf-cov-report=json:tf.json", f"--terraform={tf_acceptance_binary.path}",
        "--no-tf-acc-gate", "-p", "no:cacheprovider",
    )
    result.assert_outcomes(passed=1)
    report = json.loads((pytester.path / "tf.json").read_text(encoding="utf-8"))
    assert report["modules"][0]["items"] == [
        _item("terraform_data.disk", "resource", False, conditions=[
            {"kind": "precondition", "index": 0, "passed": False, "failed": True},
            {"kind": "postcondition", "index": 0, "passed": False, "failed": False},
        ]),
        _item("var.size", "variable", True, **NA),
    ]
