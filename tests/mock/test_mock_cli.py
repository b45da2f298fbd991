"""``tfplancheck mock-plan``: plan a module directory with mocked providers, no credentials, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import automation, cli
from mock_support import CLOUD_SCHEMA, EXAMPLE, NULL_SCHEMA, SECRET, leak_check, write_tree

from plancheck.acceptance import AcceptanceRunner

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

MOCK = f"acme/cloud={CLOUD_SCHEMA}"
CHECKS = """
[[check]]
type = "ExpectResourceAction"
address = "cloud_bucket.logs"
action = "create"

[[check]]
type = "ExpectUnknownValue"
address = "cloud_bucket.logs"
path = 'website["endpoint"]'

[[check]]
type = "ExpectSensitiveValue"
address = "cloud_bucket.logs"
path = "encryption_key"
"""


@pytest.fixture
def terraform(tf_acceptance: AcceptanceRunner) -> str:
    return tf_acceptance.terraform.path


def test_checks_pass_and_nothing_is_left(terraform: str, tmp_path: Path, private_tmp: Path) -> None:
    checks = tmp_path / "checks.toml"
    checks.write_text(CHECKS, encoding="utf-8")
    out_file = tmp_path / "plan.json"
    before = sorted(p.name for p in EXAMPLE.iterdir())
    with leak_check(private_tmp) as leaks:
        status, out, err = cli("mock-plan", str(EXAMPLE), "--mock", MOCK, "--checks", str(checks), "--out", str(out_file),
                               "--var", f"encryption_key={SECRET}", "--terraform", terraform,
                               environ=automation())
    assert (status, err) == (0, ""), err
    assert out.splitlines()[-1] == f"3 checks in {EXAMPLE}: 3 passed, 0 failed"
    assert not leaks[0], leaks[0]
    assert sorted(p.name for p in EXAMPLE.iterdir()) == before  # the module directory is untouched
    plan = json.loads(out_file.read_text(encoding="utf-8"))
    assert {c["address"] for c in plan["resource_changes"]} == {"cloud_bucket.logs", "cloud_access_key.reader"}
    assert SECRET not in out + err


def test_a_failing_check_exits_1_and_json_output_redacts(terraform: str, tmp_path: Path) -> None:
    checks = tmp_path / "checks.toml"
    checks.write_text(
        '[[check]]\ntype = "ExpectKnownValue"\naddress = "cloud_bucket.logs"\npath = "encryption_key"\n'
        'matcher = { type = "StringExact", value = "other" }\n', encoding="utf-8",
    )
    status, out, err = cli("mock-plan", str(EXAMPLE), "--mock", MOCK, "--checks", str(checks), "--format", "json",
                           "--var", f"encryption_key={SECRET}", "--terraform", terraform, environ=automation())
    assert status == 1, err
    assert json.loads(out)["results"][0]["status"] == "fail"
    assert SECRET not in out + err


def test_without_checks_the_addresses_and_actions_are_listed(terraform: str) -> None:
    status, out, err = cli("mock-plan", str(EXAMPLE), "--mock", MOCK, "--var", f"encryption_key={SECRET}",
                           "--terraform", terraform, environ=automation())
    assert (status, err) == (0, "")
    assert out.split() == ["cloud_access_key.reader", "create", "cloud_bucket.logs", "create",
                           "output.access_key", "create", "output.bucket_arn", "create"]


def errors(tmp: Path) -> list[tuple[list[str], str]]:
    bad_schema = tmp / "bad.json"
    bad_schema.write_text("[]", encoding="utf-8")
    empty = tmp / "empty"
    empty.mkdir()
    unknown_type = tmp / "unknown_type"
    unknown_type.mkdir()
    (unknown_type / "main.tf").write_text(
        'terraform {\n  required_providers {\n    cloud = { source = "acme/cloud" }\n  }\n}\n'
        'resource "cloud_buckets" "b" {\n  name = "x"\n}\n', encoding="utf-8",
    )
    d = str(EXAMPLE)
    v = f"encryption_key={SECRET}"
    checks = tmp / "checks.toml"
    checks.write_text(CHECKS, encoding="utf-8")
    schema = tmp / "cloud.schema.json"
    schema.write_text(CLOUD_SCHEMA.read_text(encoding="utf-8"), encoding="utf-8")
    clobbered = "the file is an input of the run (it would be overwritten)"
    return [
        # --out wrote the plan (its sensitive values in clear) over the checks file, the schema or the snapshot it read.
        ([d, "--mock", MOCK, "--var", v, "-c", str(checks), "--out", str(checks)],
         f"tfplancheck: error: --out {checks}: {clobbered}"),
        ([d, "--mock", f"acme/cloud={schema}", "--var", v, "--out", str(schema)],
         f"tfplancheck: error: --out {schema}: {clobbered}"),
        ([d, "--mock", MOCK, "--var", v, "--snapshot", str(tmp / "s.snap"), "--update", "--out", str(tmp / "s.snap")],
         f"tfplancheck: error: --out {tmp / 's.snap'}: {clobbered}"),
        ([d], "tfplancheck: error: the following arguments are required: --mock"),
        ([d, "--mock", "acme/cloud", "--var", v], "tfplancheck: error: --mock acme/cloud: expected ADDRESS=SCHEMA.json, "
         "e.g. hashicorp/aws=aws.schema.json"),
        ([d, "--mock", f"acme/cloud={tmp}/missing.json", "--var", v],
         f"tfplancheck: error: --mock acme/cloud: {tmp}/missing.json: cannot read the schema: No such file or directory"),
        ([d, "--mock", f"acme/cloud={bad_schema}", "--var", v], "tfplancheck: error: --mock acme/cloud: MockProvider schema: "
         "expected the JSON object 'terraform providers schema -json' prints, got an array"),
        ([d, "--mock", f"acme/clod={CLOUD_SCHEMA}", "--var", v], "tfplancheck: error: --mock acme/clod: MockProvider schema: "
         "no provider registry.terraform.io/acme/clod in the document; did you mean registry.terraform.io/acme/cloud?"),
        ([d, "--mock", MOCK, "--mock", MOCK], "tfplancheck: error: --mock registry.terraform.io/acme/cloud is given twice"),
        ([str(tmp / "nowhere"), "--mock", MOCK], f"tfplancheck: error: {tmp}/nowhere: not a directory"),
        ([str(empty), "--mock", MOCK], f"tfplancheck: error: {empty}: no .tf or .tf.json files: not a Terraform module directory"),
        ([d, "--mock", MOCK, "--var", f"1bad={SECRET}"],
         "tfplancheck: error: --var 1bad=...: expected NAME=VALUE with a variable name"),
        ([d, "--mock", MOCK, f"--var=-bad={SECRET}"],  # argparse takes "-bad=..." for an option of its own
         "tfplancheck: error: --var -bad=...: expected NAME=VALUE with a variable name"),
        ([d, "--mock", MOCK, "--var", f"count={SECRET}"], "tfplancheck: error: --var count=...: count is reserved: "
         "Terraform gives it a meaning inside module blocks, so no module declares it\n"),
        ([d, "--mock", MOCK, "--var", v, "--terraform", str(tmp / "no-terraform")],
         f"tfplancheck: error: cannot use Terraform binary {tmp}/no-terraform: no such file"),
        ([str(unknown_type), "--mock", MOCK], "tfplancheck: error: terraform "),
    ]


def test_errors_are_one_clear_message_never_a_traceback(terraform: str, tmp_path: Path, private_tmp: Path) -> None:
    with leak_check(private_tmp) as leaks:
        for argv, start in errors(tmp_path):
            if "--terraform" not in argv:
                argv = [*argv, "--terraform", terraform]
            status, out, err = cli("mock-plan", *argv, environ=automation())
            assert status == 2, (argv, err)
            assert err.startswith(start), (argv, err)
            assert "Traceback" not in err
            assert SECRET not in out + err
    assert not leaks[0], leaks[0]
    assert (tmp_path / "checks.toml").read_text(encoding="utf-8") == CHECKS
    assert (tmp_path / "cloud.schema.json").read_text(encoding="utf-8") == CLOUD_SCHEMA.read_text(encoding="utf-8")
    assert not (tmp_path / "s.snap").exists()


def test_terraform_s_own_error_names_the_unknown_type(terraform: str, tmp_path: Path) -> None:
    [*_, (argv, _)] = errors(tmp_path)
    status, _, err = cli("mock-plan", *argv, "--terraform", terraform, environ=automation())
    assert status == 2
    assert ("cloud_buckets" in err and "terraform plan failed" in err) or "terraform init failed" in err, err


def test_a_variable_without_a_value_is_given_with_our_flag_not_terraform_s(terraform: str) -> None:
    # Terraform's own words ("Use a -var or -var-file command line argument") name flags mock-plan does not take.
    status, out, err = cli("mock-plan", str(EXAMPLE), "--mock", MOCK, "--terraform", terraform, environ=automation())
    assert (status, out) == (2, "")
    assert "Use a -var or -var-file command line argument" in err  # Terraform's message is kept whole
    assert err.splitlines()[-1] == (
        "hint: encryption_key has no value: give it with --var encryption_key=VALUE or --var-file FILE "
        "(mock_plan: variables= or var_files=), or TF_VAR_encryption_key"
    )


def test_a_variable_named_with_a_dash_is_given_with_var(terraform: str, tmp_path: Path) -> None:
    # Terraform takes "my-var" (HCL identifiers may hold dashes); --var gives it as TF_VAR_my-var.
    module = write_tree(tmp_path / "m", {"main.tf": (
        'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\n'
        'variable "my-var" {\n  type = string\n}\nresource "null_resource" "a" {\n  triggers = { v = var.my-var }\n}\n')})
    out_file = tmp_path / "plan.json"
    status, out, err = cli("mock-plan", str(module), "--mock", f"hashicorp/null={NULL_SCHEMA}", "--var", "my-var=given",
                           "--out", str(out_file), "--terraform", terraform, environ=automation())
    assert (status, out, err) == (0, "null_resource.a  create\n", ""), err
    planned = json.loads(out_file.read_text(encoding="utf-8"))
    assert (planned["variables"]["my-var"], planned["resource_changes"][0]["change"]["after"]["triggers"]) == (
        {"value": "given"}, {"v": "given"})
