"""Expected diagnostics of Terraform's own, end to end: no provider to serve or install.

Terraform 1.0.3 and 1.11.4 give an address to the diagnostics of their built-in provider
(``terraform_remote_state``) and none to those of the configuration language; neither gives an
attribute path. The diagnostics of a provider under test: tests/providers/test_diagnostics_e2e.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from plancheck.acceptance import (
    AcceptanceError,
    AcceptanceRunner,
    ExpectDiagnostic,
    Stage,
    TestCase,
    TestStep,
)

pytestmark = pytest.mark.e2e

REMOTE_STATE = 'data "terraform_remote_state" "x" {\n  backend = "nope"\n}\n'
UNDECLARED = 'output "o" {\n  value = var.missing\n}\n'


def runner_for(tf_acceptance: AcceptanceRunner, **kwargs: Any) -> AcceptanceRunner:
    kwargs.setdefault("echo", False)
    return AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, **kwargs)


def test_terraform_config_errors_match_by_summary_and_address(tf_acceptance: AcceptanceRunner) -> None:
    runner = runner_for(tf_acceptance)
    runner.run(TestCase(steps=[
        TestStep(config=REMOTE_STATE, expect_diagnostics=[
            ExpectDiagnostic("error", "Invalid backend configuration", detail='There is no backend type named "nope".',
                             address="data.terraform_remote_state.x"),
        ]),
        TestStep(config=UNDECLARED, expect_diagnostics=[
            ExpectDiagnostic("error", "Reference to undeclared input variable", detail=re.compile('name "missing"')),
        ]),
        # A syntax error fails init, which has no JSON output on 1.0: validate -json then says why.
        TestStep(config="bogus\n", expect_diagnostics=[ExpectDiagnostic("error", "Argument or block definition required")]),
    ]))
    assert [c.command_line.split()[1:3] for c in runner.commands] == [
        ["init", "-input=false"], ["validate", "-json"], ["plan", "-json"],
        ["init", "-input=false"], ["validate", "-json"], ["plan", "-json"],
        ["init", "-input=false"], ["validate", "-json"],
    ]


def test_an_address_terraform_does_not_give_is_not_met(tf_acceptance: AcceptanceRunner) -> None:
    with pytest.raises(AcceptanceError) as info:
        runner_for(tf_acceptance).run(TestCase(steps=[
            TestStep(config=UNDECLARED, expect_diagnostics=[
                ExpectDiagnostic("error", "Reference to undeclared input variable", address="output.o"),
            ]),
        ]))
    error = info.value
    assert (error.stage, error.command) == (Stage.EXPECT_DIAGNOSTICS, "terraform plan -json -input=false -no-color -out=tfplan")
    assert error.reason == (
        "1 of 1 expected diagnostics did not arrive (terraform validate, plan):\n"
        "  the step failed: in stage pre_apply, terraform plan failed\n"
        "  missing:\n"
        "    ExpectDiagnostic('error', summary='Reference to undeclared input variable', address='output.o')\n"
        "  arrived (1):\n"
        "    error: Reference to undeclared input variable\n"
        '      detail: An input variable with the name "missing" has not been declared. This variable can be declared '
        'with a variable "missing" {} block.\n'
        "      address: (none)\n"
        "      attribute: unknown (not reported by a provider served in this process)"
    )
