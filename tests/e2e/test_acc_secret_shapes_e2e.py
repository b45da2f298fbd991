"""Secrets that Terraform itself re-wraps never leave an acceptance test, against real binaries.

Terraform prints a ``Sensitive(...)`` value in pieces the runner never saw whole: a multi-line value
echoed line by line by a ``local-exec`` provisioner (each line behind a resource prefix), and a
passphrase word-wrapped inside a validation error's box (Terraform 1.9+ lets ``error_message``
name the variable). A nested pytest session runs both through the ``tf_acceptance`` fixture, failing,
with ``-rA`` and ``--showlocals`` (the test's own locals hold the secrets); no identifying piece of
either secret may appear in its output.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from secret_shapes import SHAPES, leaks

from plancheck.acceptance import TerraformBinary

pytestmark = pytest.mark.e2e

PLANTED = {"multiline-pem": SHAPES["multiline-pem"], "passphrase": SHAPES["passphrase"] + " zzfill" * 12}

INNER = textwrap.dedent(
    '''
    import os

    import pytest
    from plancheck.acceptance import Sensitive, TestCase, TestStep

    PROVIDERS = """
    terraform {
      required_providers {
        null = { source = "hashicorp/null", version = "2.1.2" }
      }
    }
    """

    ECHO = PROVIDERS + """
    variable "pem" {
      type      = string
      sensitive = true
    }
    resource "null_resource" "a" {
      provisioner "local-exec" {
        command = "printf '%s\\\\n' '${nonsensitive(var.pem)}'"
      }
    }
    """

    VALIDATED = PROVIDERS + """
    variable "pass" {
      type      = string
      sensitive = true
      validation {
        condition     = length(var.pass) < 5
        error_message = "The value ${nonsensitive(var.pass)} is far too long to be accepted as a passphrase here."
      }
    }
    resource "null_resource" "b" {}
    """


    @pytest.fixture
    def tf_acceptance_cli_config():
        return os.environ["E2E_CLI"]


    def test_echoed_line_by_line(tf_acceptance):
        pem = os.environ["E2E_PEM"]
        tf_acceptance.run(TestCase(steps=[TestStep(
            config=ECHO, variables={"pem": Sensitive(pem)}, expect_error="this error never comes",
        )]))


    @pytest.mark.skipif(os.environ["E2E_WRAPS"] != "1", reason="error_message names a variable from Terraform 1.9")
    def test_word_wrapped_in_a_diagnostic(tf_acceptance):
        passphrase = os.environ["E2E_PASS"]
        tf_acceptance.run(TestCase(steps=[TestStep(config=VALIDATED, variables={"pass": Sensitive(passphrase)})]))
    '''
)


def test_rewrapped_secrets_never_leave(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    tf_acceptance_binary: TerraformBinary | None,
    tf_acceptance_cli_config: Path,
) -> None:
    if tf_acceptance_binary is None:
        pytest.fail("no terraform binary for the e2e suite")
    wraps = tf_acceptance_binary.version_tuple >= (1, 9)
    monkeypatch.setenv("E2E_TF", tf_acceptance_binary.path)
    monkeypatch.setenv("E2E_CLI", str(tf_acceptance_cli_config))
    monkeypatch.setenv("E2E_PEM", PLANTED["multiline-pem"])
    monkeypatch.setenv("E2E_PASS", PLANTED["passphrase"])
    monkeypatch.setenv("E2E_WRAPS", "1" if wraps else "0")
    pytester.makepyfile(test_inner_acceptance=INNER)
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "-rA", "-l", "--tb=long", f"--terraform={tf_acceptance_binary.path}"
    )
    output = result.stdout.str() + result.stderr.str()
    result.assert_outcomes(failed=2 if wraps else 1, skipped=0 if wraps else 1)
    # The failures are the ones planted: Terraform really printed the values (behind the scrubbing).
    result.stdout.fnmatch_lines(["*null_resource.a (local-exec): (sensitive)*"])
    if wraps:
        result.stdout.fnmatch_lines(["*Invalid value for variable*", "*The value (sensitive)*"])
    assert leaks(output, PLANTED) == []


#: A sensitive variable whose value the case never gives: Terraform finds it in the configuration itself.
_FOUND = "zz-acc-found-Kq7w"
_FAILS = '''
variable "pw" {{
  type      = string
  sensitive = true{default}
}}
locals {{
  n = tonumber(nonsensitive(var.pw))
}}
output "o" {{
  value = local.n
}}
'''


@pytest.mark.parametrize("where", ["default", "default-heredoc", "terraform-tfvars", "auto-tfvars-json", "tf-var-env"])
def test_a_value_the_configuration_gives_itself_never_shows_in_a_failure(
    tf_acceptance: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    from plancheck.acceptance import AcceptanceError, TestCase, TestStep

    module = tmp_path / "module"
    module.mkdir()
    default = {"default": f'\n  default   = "{_FOUND}"', "default-heredoc": f"\n  default   = <<EOT\n{_FOUND}\nEOT"}
    (module / "main.tf").write_text(_FAILS.format(default=default.get(where, "")), encoding="utf-8")
    if where == "terraform-tfvars":
        (module / "terraform.tfvars").write_text(f'pw = "{_FOUND}"\n', encoding="utf-8")
    elif where == "auto-tfvars-json":
        (module / "x.auto.tfvars.json").write_text(f'{{"pw": "{_FOUND}"}}', encoding="utf-8")
    elif where == "tf-var-env":
        monkeypatch.setenv("TF_VAR_pw", _FOUND)
    with pytest.raises(AcceptanceError) as failed:
        tf_acceptance.run(TestCase(steps=[TestStep(config_directory=str(module))]))
    shown = str(failed.value) + repr(failed.value) + capsys.readouterr().out
    assert "cannot convert" in shown  # Terraform did print the value, behind the scrub
    assert leaks(shown, {"found": _FOUND}) == []
