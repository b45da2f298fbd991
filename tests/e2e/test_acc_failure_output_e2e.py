"""What a failing acceptance test prints under pytest, pinned, against real binaries; and that no secret leaks.

A nested pytest session (pytester) runs two failing cases:

* two failing state checks on a sensitive value, plancheck's own and a careless project check
  that puts the raw value into its message, on a resource with ``prevent_destroy``, so the
  post-test destroy fails too and is chained to the first failure;
* a perpetual diff (``timestamp()`` in ``triggers``): the plan after apply is not empty.

A secret planted in a sensitive variable must appear nowhere in the session's output.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from plancheck.acceptance import TerraformBinary

pytestmark = pytest.mark.e2e

SECRET = "planted-Secret-7f3a9"

INNER = textwrap.dedent(
    '''
    import os

    from plancheck import CheckFailure, StateCheckError, knownvalue as kv, statecheck
    from plancheck.acceptance import AcceptanceRunner, Sensitive, TestCase, TestStep
    from tfjsonpath import New

    PROVIDERS = """
    terraform {
      required_providers {
        null = { source = "hashicorp/null", version = "2.1.2" }
      }
    }
    """

    GUARDED = PROVIDERS + """
    variable "secret" {
      type      = string
      sensitive = true
    }
    resource "null_resource" "a" {
      triggers = { s = var.secret }
      lifecycle { prevent_destroy = true }
    }
    """

    DRIFTING = PROVIDERS + """
    resource "null_resource" "p" {
      triggers = { t = timestamp() }
    }
    """


    class LeakyCheck:
        """A project's own check that carelessly puts the raw value into its message."""

        def CheckState(self, state):
            value = state.resource("null_resource.a").values["triggers"]["s"]
            raise StateCheckError([CheckFailure("LeakyCheck", "null_resource.a", None, f"did not expect {value}")])


    def runner(tmp_path):
        return AcceptanceRunner(os.environ["E2E_TF"], tmp_path, cli_config=os.environ["E2E_CLI"])


    def test_leaky_check_and_failed_destroy(tmp_path):
        runner(tmp_path).run(TestCase(steps=[TestStep(
            config=GUARDED,
            variables={"secret": Sensitive(os.environ["E2E_SECRET"])},
            config_state_checks=[
                statecheck.ExpectKnownValue("null_resource.a", New("triggers").AtMapKey("s"), kv.StringExact("guess")),
                LeakyCheck(),
            ],
        )]))


    def test_perpetual_diff(tmp_path):
        runner(tmp_path).run(TestCase(steps=[TestStep(config=DRIFTING)]))
    '''
)


def test_failure_report_is_pinned_and_secret_free(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    tf_acceptance_binary: TerraformBinary | None,
    tf_acceptance_cli_config: Path,
) -> None:
    if tf_acceptance_binary is None:
        pytest.fail("no terraform binary for the e2e suite")
    monkeypatch.setenv("E2E_TF", tf_acceptance_binary.path)
    monkeypatch.setenv("E2E_CLI", str(tf_acceptance_cli_config))
    monkeypatch.setenv("E2E_SECRET", SECRET)
    pytester.makepyfile(test_inner_acceptance=INNER)
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*_ test_leaky_check_and_failed_destroy _*",
        # The step's failure is the error raised; the failed destroy after it is appended ("also: ...").
        "E       plancheck.acceptance.AcceptanceError: step 1/1, state_checks: Post-apply state check(s) failed:",
        'E         ExpectKnownValue: null_resource.a: triggers[[]"s"[]]: expected value (sensitive) for StringExact check, '
        "got: (sensitive)",
        "E         LeakyCheck: null_resource.a: did not expect (sensitive)",
        "E       also: post-test destroy (after step 1/1): terraform destroy failed; "
        "its state and configuration are kept in */*-case1-*; destroy them later with: tfplancheck destroy-leftovers *",
        "E         command: terraform destroy -auto-approve -input=false -no-color -refresh=false (exit code 1)",
        "E           stderr:",
        "*Error: Instance cannot be destroyed*",
        "*- Captured stdout call -*",
        "[[]step 1/1 destroy[]] $ terraform destroy -auto-approve -input=false -no-color -refresh=false  "
        "(exit code 1, * s)",
        "*_ test_perpetual_diff _*",
        "E       plancheck.acceptance.AcceptanceError: step 1/1, post_apply_pre_refresh: "
        "After applying this test step, the non-refresh plan was not empty; planned changes:",
        "E         null_resource.p: delete, create",
        "E       command: terraform plan -input=false -no-color -detailed-exitcode -refresh=false -out=tfplan "
        "(exit code 2)",
        "E         stdout:",
        "*null_resource.p must be replaced*",
    ])
    output = result.stdout.str() + result.stderr.str()
    assert SECRET not in output
    assert "(sensitive)" in output
