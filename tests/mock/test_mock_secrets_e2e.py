"""Secrets end to end: a Sensitive variable in a plain attribute of a mocked resource never shows in
``repr(mock.calls)`` or the runner's log (the runner hands the case's secrets to the mock it serves), and
``tfplancheck mock-plan`` scrubs the values of the module's sensitive variables from all it prints, Terraform's
errors included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import automation, cli
from mock_support import CLOUD, CLOUD_SCHEMA, EXAMPLE, leak_check
from secret_shapes import SHAPES, leaks

from plancheck._terraform.mock.provider import MockProvider
from plancheck.acceptance import AcceptanceRunner, Sensitive, TestCase, TestStep

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

PLAIN = SHAPES["plain"]
KEY = SHAPES["non-ascii"]
PLANTED = {"plain": PLAIN, "non-ascii": KEY}


def test_a_sensitive_variable_in_a_plain_attribute_never_shows(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD)
    runner = AcceptanceRunner(tf_acceptance.terraform, tf_acceptance.work_dir, timeout=120, echo=True)
    config = (EXAMPLE / "main.tf").read_text(encoding="utf-8")
    with leak_check(private_tmp) as found:
        # "name" is not sensitive in the module: only the test says its value is a secret.
        runner.run(TestCase(providers={CLOUD: mock}, steps=[
            TestStep(config=config, variables={"name": Sensitive(PLAIN), "encryption_key": Sensitive(KEY)}),
        ]))
    assert not found[0], found[0]
    names = [c.config.get("name") for c in mock.calls if c.type_name == "cloud_bucket" and isinstance(c.config, dict)]
    assert PLAIN in names  # the value did reach the mock's plain attribute
    shown = repr(mock.calls) + "\n".join(map(repr, mock.calls)) + capsys.readouterr().out
    shown += "\n".join(f"{r.stdout}\n{r.stderr}" for r in runner._commands)
    assert leaks(shown, PLANTED) == []


REQUIRED = '''
terraform {
  required_providers {
    cloud = { source = "acme/cloud" }
  }
}
'''
MODULE = REQUIRED + '''
variable "pw" {
  type      = string
  sensitive = true
}
resource "cloud_bucket" "b" {
  for_each = toset([nonsensitive(var.pw)])
  name     = each.key
  website  = { index_document = "index.html" }
  cors_rules = [{ origins = ["https://example.com"] }]
}
'''
FAILING = REQUIRED + '''
variable "pw" {
  type      = string
  sensitive = true
}
locals {
  n = tonumber(nonsensitive(var.pw))
}
resource "cloud_bucket" "b" {
  name       = "x${local.n}"
  website    = { index_document = "index.html" }
  cors_rules = [{ origins = ["https://example.com"] }]
}
'''


def _mock_plan_hiding_plain(tf_acceptance: AcceptanceRunner, module: Path, status: int, *args: str) -> tuple[str, str]:
    """``tfplancheck mock-plan MODULE`` (with ``args``) exiting ``status``, its output showing no byte of ``PLAIN``."""
    code, out, err = cli("mock-plan", str(module), "--mock", f"acme/cloud={CLOUD_SCHEMA}", *args,
                         "--terraform", tf_acceptance.terraform.path, environ=automation())
    assert code == status, err
    assert leaks(out + err, {"plain": PLAIN}) == []
    return out, err


@pytest.mark.parametrize("given", ["var", "var-file", "var-file-heredoc", "terraform-tfvars"])
@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize(("source", "status"), [pytest.param(MODULE, 0, id="for-each-key"),
                                                pytest.param(FAILING, 2, id="terraform-error")])
def test_mock_plan_never_prints_a_sensitive_variable(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, source: str, status: int, output: str, given: str
) -> None:
    module = tmp_path / "module"
    module.mkdir()
    (module / "main.tf").write_text(source, encoding="utf-8")
    if given == "var":
        value = ["--var", f"pw={PLAIN}"]
    elif given == "terraform-tfvars":  # loaded by Terraform itself, named nowhere on the command line
        (module / "terraform.tfvars").write_text(f'pw = "{PLAIN}"\n', encoding="utf-8")
        value = []
    else:
        written = f'pw = <<EOT\n{PLAIN}\nEOT\n' if given == "var-file-heredoc" else f'pw = "{PLAIN}"\n'
        (tmp_path / "s.tfvars").write_text(written, encoding="utf-8")
        value = ["--var-file", str(tmp_path / "s.tfvars")]
    out, err = _mock_plan_hiding_plain(tf_acceptance, module, status, *value, "--format", output)
    if status == 0:
        assert 'cloud_bucket.b["(sensitive)"]' in (json.loads(out)["resource_changes"][0]["address"] if output == "json" else out)
    else:
        assert "(sensitive)" in err


CHILD = '''
variable "pw" {
  type      = string
  sensitive = true
  default   = "%s"
}
output "n" {
  value = %s
}
'''
CALLER = REQUIRED + '''
module "c" {
  source = "./child"
}
resource "cloud_bucket" "b" {
  for_each   = toset([module.c.n])
  name       = each.key
  website    = { index_document = "index.html" }
  cors_rules = [{ origins = ["https://example.com"] }]
}
'''


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize(("value", "status"), [pytest.param("nonsensitive(var.pw)", 0, id="for-each-key"),
                                               pytest.param("tonumber(nonsensitive(var.pw))", 2, id="terraform-error")])
def test_mock_plan_never_prints_a_child_modules_sensitive_default(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, value: str, status: int, output: str
) -> None:
    # A child module's variable is in no `variables` of the plan: its default showed in the address, and in
    # Terraform's error before any plan.
    module = tmp_path / "module"
    (module / "child").mkdir(parents=True)
    (module / "main.tf").write_text(CALLER, encoding="utf-8")
    (module / "child" / "main.tf").write_text(CHILD % (PLAIN, value), encoding="utf-8")
    out, err = _mock_plan_hiding_plain(tf_acceptance, module, status, "--format", output)
    assert "(sensitive)" in (out if status == 0 else err)


def test_mock_plan_never_prints_a_child_modules_sensitive_output(tf_acceptance: AcceptanceRunner, tmp_path: Path) -> None:
    # Nor its sensitive output's constant, which the root need not output: only the configuration shows it.
    module = tmp_path / "module"
    (module / "child").mkdir(parents=True)
    (module / "main.tf").write_text(CALLER.replace("toset([module.c.n])", "toset([nonsensitive(module.c.n)])"),
                                    encoding="utf-8")
    (module / "child" / "main.tf").write_text(f'output "n" {{\n  value     = "{PLAIN}"\n  sensitive = true\n}}\n',
                                              encoding="utf-8")
    out, _ = _mock_plan_hiding_plain(tf_acceptance, module, 0)
    assert 'cloud_bucket.b["(sensitive)"]' in out


BY_REFERENCE = REQUIRED + '''
variable "given" {
  type    = string
  default = "%s"
}
module "c" {
  source   = "./child"
  for_each = %s
  pw       = %s
}
resource "cloud_bucket" "b" {
  for_each   = toset([for c in module.c : c.n])
  name       = each.key
  website    = { index_document = "index.html" }
  cors_rules = [{ origins = ["https://example.com"] }]
}
'''


@pytest.mark.parametrize(("for_each", "given"), [
    pytest.param(f'{{ a = "{PLAIN}" }}', "each.value", id="each-value"),
    pytest.param("toset([var.given])", "each.key", id="each-key-of-the-roots-variable"),
    pytest.param('{ a = "x" }', "var.given", id="the-roots-variable"),
])
def test_mock_plan_never_prints_what_a_call_gives_a_child_modules_sensitive_variable(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, for_each: str, given: str
) -> None:
    # Given by reference (found red-teaming #34): the plan's configuration has no constant for it, only the
    # call's for_each and the root's variables show the value.
    module = tmp_path / "module"
    (module / "child").mkdir(parents=True)
    (module / "main.tf").write_text(BY_REFERENCE % (PLAIN, for_each, given), encoding="utf-8")
    (module / "child" / "main.tf").write_text(
        'variable "pw" {\n  type      = string\n  sensitive = true\n}\noutput "n" {\n  value = nonsensitive(var.pw)\n}\n',
        encoding="utf-8")
    out, _ = _mock_plan_hiding_plain(tf_acceptance, module, 0)
    assert 'cloud_bucket.b["(sensitive)"]' in out


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize("call", [
    pytest.param(f'module "c" {{\n  source = "./child"\n  pw     = "{PLAIN}" + 1\n}}\n', id="an-invalid-operand"),
])
def test_mock_plan_never_prints_a_constant_a_call_gives_a_child_modules_sensitive_variable(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, call: str, output: str
) -> None:
    # Terraform's error before any plan quotes the call's lines (`3:   pw = "<value>" + 1`): only the call has the value.
    module = tmp_path / "module"
    (module / "child").mkdir(parents=True)
    (module / "main.tf").write_text(call, encoding="utf-8")
    (module / "child" / "main.tf").write_text('variable "pw" {\n  type      = string\n  sensitive = true\n}\n',
                                              encoding="utf-8")
    _, err = _mock_plan_hiding_plain(tf_acceptance, module, 2, "--format", output)
    assert "(sensitive)" in err


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize("text", [
    pytest.param(f'{{"variable": {{"pw": {{"sensitive": true, "type": "string", "default": "{PLAIN}" "x"}}}}}}\n',
                 id="a-sensitive-default"),
    pytest.param(f'{{"variable": {{"pw": {{"\\u0073ensitive": true, "default": "{PLAIN}" "x"}}}}}}\n',
                 id="a-sensitive-default-its-flag-escaped"),
    pytest.param(f'{{"module": {{"c": {{"source": "./child", "pw": "{PLAIN}" "x"}}}}}}\n',
                 id="a-value-a-call-gives-a-childs-sensitive-variable"),
])
def test_mock_plan_never_prints_a_line_of_a_configuration_file_that_is_no_json(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, text: str, output: str
) -> None:
    # Terraform's syntax error quotes the file's line (`1: {"variable": ...}`): which block a value there is in, or
    # whether a flag makes it sensitive, cannot be read from a file that is no JSON, so each of its lines is a secret.
    module = tmp_path / "module"
    (module / "child").mkdir(parents=True)
    (module / "main.tf.json").write_text(text, encoding="utf-8")
    (module / "child" / "main.tf").write_text('variable "pw" {\n  type      = string\n  sensitive = true\n}\n',
                                              encoding="utf-8")
    out, err = _mock_plan_hiding_plain(tf_acceptance, module, 2, "--format", output)
    assert "\n   1: (sensitive)\n" in (json.loads(out)["error"]["message"] if output == "json" else err), err


@pytest.mark.parametrize("output", ["text", "json"])
@pytest.mark.parametrize("name", ["override.tf", "main_override.tf"])
def test_mock_plan_never_prints_a_constant_an_override_file_gives_a_child_modules_sensitive_variable(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, name: str, output: str
) -> None:
    # The override file's block of the call has no source (the call's file has it): its argument was read by none.
    module = tmp_path / "module"
    (module / "child").mkdir(parents=True)
    (module / "main.tf").write_text('module "c" {\n  source = "./child"\n  pw     = "x"\n}\n', encoding="utf-8")
    (module / name).write_text(f'module "c" {{\n  pw = "{PLAIN}" + 1\n}}\n', encoding="utf-8")
    (module / "child" / "main.tf").write_text('variable "pw" {\n  type      = string\n  sensitive = true\n}\n',
                                              encoding="utf-8")
    out, err = _mock_plan_hiding_plain(tf_acceptance, module, 2, "--format", output)
    assert "\n   2:   pw = (sensitive)\n" in (json.loads(out)["error"]["message"] if output == "json" else err), err


@pytest.mark.parametrize("output", ["text", "json"])
def test_mock_plan_never_prints_a_literal_of_a_template_a_json_call_gives_a_childs_sensitive_variable(
    tf_acceptance: AcceptanceRunner, tmp_path: Path, output: str
) -> None:
    # A .tf.json call's template was skipped whole (a reference names where a value comes from): its quoted strings
    # are the value, and Terraform's error quotes the call's line.
    module = tmp_path / "module"
    (module / "child").mkdir(parents=True)
    (module / "main.tf.json").write_text(
        f'{{"module": {{"c": {{"source": "./child", "pw": "${{\\"{PLAIN}\\" + 1}}"}}}}}}\n', encoding="utf-8")
    (module / "child" / "main.tf").write_text('variable "pw" {\n  type      = string\n  sensitive = true\n}\n',
                                              encoding="utf-8")
    out, err = _mock_plan_hiding_plain(tf_acceptance, module, 2, "--format", output)
    shown = json.loads(out)["error"]["message"] if output == "json" else err
    assert '\n   1: {"module": {"c": {"source": "./child", "pw": "${\\"(sensitive)\\" + 1}"}}}\n' in shown, shown
