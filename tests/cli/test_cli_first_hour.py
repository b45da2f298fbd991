"""What newcomers typed in their first hour, and what the command line now answers.

A state given where a plan is expected gets the command line's words (what to give it), not the Python
API's "use load_state"; ``mock-plan`` takes Terraform's own spellings of variables (``-var``,
``-var-file``, also with ``=``) besides ``--var`` and ``--var-file``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from clirun import automation, cli

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "examples" / "mock_module"
MOCK = f"acme/cloud={MODULE / 'cloud.schema.json'}"
SECRET = "first-hour-secret-Zq81"
STATE_WORDS = (
    "this is a state (the JSON of `terraform show -json` with no plan file), not a plan: tfplancheck checks "
    "plans; give it a plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`)"
)


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["STATE", "--empty"], id="check"),
        pytest.param(["query", "STATE"], id="query"),
        pytest.param(["query", "STATE", "null_resource.a"], id="query-address"),
        pytest.param(["-", "--empty"], id="check-stdin"),
    ],
)
def test_a_state_given_for_a_plan_gets_the_command_lines_words(tmp_path: Path, argv: list[str]) -> None:
    state = {"format_version": "1.0", "terraform_version": "1.11.4", "values": {"root_module": {}}}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    shown = "<stdin>" if "-" in argv else str(path)
    status, out, err = cli(*[str(path) if a == "STATE" else a for a in argv], stdin=json.dumps(state).encode(),
                           environ=automation())
    assert (status, out, err) == (2, "", f"tfplancheck: error: {shown}: {STATE_WORDS}\n")


EMPTY_STATE_WORDS = (
    "expected a plan, found a document of none of a plan's keys (no \"planned_values\", which every plan Terraform "
    "and OpenTofu write holds): the JSON of `terraform show -json` with no plan file, where there is no state yet; "
    "give it a plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`)"
)
#: What Terraform 1.11.4 prints for `terraform show -json` where there is no state (the corpus's
#: show-json-state/empty fixture, indented): every check passed on it, ExpectNoDestroys and ExpectEmptyPlan included.
EMPTY_STATE = b'{"format_version":"1.0"}\n'


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["STATE", "--empty", "--no-deferred"], id="check"),
        pytest.param(["STATE", "-c", "CHECKS"], id="check-checks-file"),
        pytest.param(["-", "--empty"], id="check-stdin"),
        pytest.param(["STATE", "PLAN", "--empty", "--jobs", "1"], id="check-among-plans"),
        pytest.param(["query", "STATE"], id="query"),
        pytest.param(["snapshot", "STATE", "SNAP", "--update"], id="snapshot"),
    ],
)
def test_an_empty_state_given_for_a_plan_is_refused_not_passed(tmp_path: Path, argv: list[str]) -> None:
    path = tmp_path / "plan.json"
    path.write_bytes(EMPTY_STATE)
    (tmp_path / "checks.toml").write_text('[[check]]\ntype = "ExpectNoDestroys"\n', encoding="utf-8")
    (tmp_path / "real.json").write_text(json.dumps({"format_version": "1.2", "planned_values": {"root_module": {}}}),
                                        encoding="utf-8")
    named = {"STATE": str(path), "CHECKS": str(tmp_path / "checks.toml"), "PLAN": str(tmp_path / "real.json"),
             "SNAP": str(tmp_path / "plan.snap")}
    shown = "<stdin>" if "-" in argv else str(path)
    status, out, err = cli(*[named.get(a, a) for a in argv], stdin=EMPTY_STATE, environ=automation())
    assert (status, err.partition("\n")[0]) == (2, f"tfplancheck: error: {shown}: {EMPTY_STATE_WORDS}")
    assert "PASS" not in out.split("\n\n")[0]
    assert not (tmp_path / "plan.snap").exists()


@pytest.mark.parametrize(
    "document",
    [
        pytest.param({"format_version": "1.2", "planned_values": {"root_module": {}}}, id="planned-values-alone"),
        pytest.param({"format_version": "1.2", "resource_changes": []}, id="resource-changes-alone"),
        pytest.param({"format_version": "0.1", "terraform_version": "0.12.0", "variables": {}}, id="variables-alone"),
    ],
)
def test_a_plan_of_no_change_with_any_of_a_plans_keys_is_still_a_plan(tmp_path: Path, document: dict[str, object]) -> None:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert cli(str(path), "--empty", environ=automation()) == (0, f"PASS  ExpectEmptyPlan\n1 check in {path}: 1 passed, "
                                                                   "0 failed\n", "")


def test_the_empty_state_terraform_shows_is_refused(tmp_path: Path) -> None:
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("terraform is not on PATH")
    shown = subprocess.run([terraform, "show", "-json"], cwd=tmp_path, capture_output=True, check=True,
                           env={**automation(), "TF_CLI_CONFIG_FILE": str(tmp_path / "none.rc")}).stdout
    (tmp_path / "plan.json").write_bytes(shown)
    assert cli(str(tmp_path / "plan.json"), "--empty", environ=automation()) == (
        2, "", f"tfplancheck: error: {tmp_path / 'plan.json'}: {EMPTY_STATE_WORDS}\n")


#: (file name, document, what the loader's words say it found and where to get the JSON instead).
NOT_JSON_PLAN_FILES = [
    # terraform.tfstate itself, not the JSON terraform show -json makes of it: the loader's words name both.
    pytest.param("terraform.tfstate", {"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "x",
                                       "outputs": {}, "resources": []},
                 "a Terraform state file (terraform.tfstate's own format, with \"serial\" and \"lineage\"), which "
                 "plancheck's loaders do not read: write its JSON with terraform show -json STATEFILE > state.json in the "
                 "configuration's directory, after terraform init (a plan's: terraform show -json PLANFILE > plan.json)",
                 id="raw-state-file"),
    # terraform plan -out under a cloud backend writes this bookmark (internal/cloud/cloudplan), not a zip of the plan.
    pytest.param("tfplan", {"remote_plan_format": 1, "run_id": "run-GXfuHMkbyHccAGUg", "hostname": "app.terraform.io"},
                 'an HCP Terraform saved plan ("remote_plan_format": a bookmark of a remote run, not the plan), which '
                 "is a different format; get the plan's JSON from terraform show -json PLANFILE where the cloud "
                 "backend is configured", id="saved-cloud-plan"),
]


@pytest.mark.parametrize(("name", "document", "found"), NOT_JSON_PLAN_FILES)
def test_a_file_of_another_format_says_where_to_get_the_json(
    tmp_path: Path, name: str, document: dict[str, object], found: str
) -> None:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    status, out, err = cli(str(path), "--empty", environ=automation())
    assert (status, out, err) == (2, "", (
        f'tfplancheck: error: {path}: $.format_version: expected a "format_version" key (a terraform show -json plan '
        f"or state), found {found}\n"
    ))


_NOT_JSON_WORDS = (
    "tfplancheck reads a plan file (`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`), "
    "not Terraform's text output or a configuration"
)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        pytest.param("\nTerraform used the selected providers to generate the following execution\n",
                     "Expecting value at line 2 column 1 (character 1)", id="terraform-show-without-json"),
        pytest.param('resource "null_resource" "a" {}\n', "Expecting value at line 1 column 1 (character 0)",
                     id="a-configuration"),
    ],
)
def test_an_input_that_is_not_json_at_all_says_what_the_command_reads(tmp_path: Path, text: str, found: str) -> None:
    path = tmp_path / "plan.txt"
    path.write_text(text, encoding="utf-8")
    status, out, err = cli(str(path), "--empty", environ=automation())
    assert (status, out, err) == (
        2, "", f"tfplancheck: error: {path}: $: expected valid JSON, found invalid JSON: {found}; {_NOT_JSON_WORDS}\n"
    )


def test_the_log_of_terraform_plan_json_says_how_to_get_the_plan(tmp_path: Path) -> None:
    path = tmp_path / "plan.json"  # `terraform plan -json > plan.json`, for `terraform show -json`
    path.write_text(
        '{"@level":"info","@message":"Terraform 1.11.4","terraform":"1.11.4","type":"version","ui":"1.2"}\n'
        '{"@level":"info","@message":"Plan: 1 to add","type":"change_summary"}\n', encoding="utf-8")
    status, out, err = cli(str(path), "--empty", environ=automation())
    assert (status, out, err) == (2, "", (
        f"tfplancheck: error: {path}: $: expected one JSON document, found the machine-readable log `terraform plan "
        "-json` writes (one JSON message a line), which is a different format; get a plan's JSON from terraform plan "
        "-out=PLANFILE, then terraform show -json PLANFILE\n"
    ))


def test_a_configurations_directory_says_what_the_command_reads(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('resource "null_resource" "a" {}\n', encoding="utf-8")
    status, out, err = cli(str(tmp_path), "--empty", environ=automation())
    assert (status, out, err) == (2, "", (
        f"tfplancheck: error: {tmp_path}: cannot read the plan: Is a directory; tfplancheck reads a plan file "
        "(`terraform plan -out=tfplan`) or its JSON (`terraform show -json tfplan`), not a configuration's directory "
        "(`tfplancheck mock-plan DIR` plans one, with mocked providers)\n"
    ))


def test_broken_json_keeps_the_loaders_words_alone(tmp_path: Path) -> None:
    # JSON cut short is a JSON problem, not the wrong kind of file: no hint.
    path = tmp_path / "plan.json"
    path.write_text('{"format_version": "1.2"\n', encoding="utf-8")
    status, out, err = cli(str(path), "--empty", environ=automation())
    assert (status, out, err) == (
        2, "", f"tfplancheck: error: {path}: $: expected valid JSON, found invalid JSON: Expecting ',' delimiter at "
               "line 2 column 1 (character 25)\n"
    )


@pytest.mark.parametrize(
    ("given", "error"),
    [
        pytest.param(["-var", "=x"], "--var ?=...: expected NAME=VALUE with a variable name", id="-var"),
        pytest.param(["-var==x"], "--var ?=...: expected NAME=VALUE with a variable name", id="-var=NAME=VALUE"),
        pytest.param(["-var-file", "/nonexistent/a.tfvars"], "--var-file /nonexistent/a.tfvars: no such file",
                     id="-var-file"),
        pytest.param(["-var-file=/nonexistent/a.tfvars"], "--var-file /nonexistent/a.tfvars: no such file",
                     id="-var-file=FILE"),
        # It said "no such file" of a directory that is there.
        pytest.param(["--var-file", "/"], "--var-file /: is a directory", id="--var-file-a-directory"),
        pytest.param(["--var", "=x"], "--var ?=...: expected NAME=VALUE with a variable name", id="--var"),
    ],
)
def test_mock_plan_takes_terraforms_variable_spellings(given: list[str], error: str) -> None:
    # Refused for what the value is, not for how the option is spelled: the spelling was taken.
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("no terraform on PATH (mock-plan looks for it first)")
    status, out, err = cli("mock-plan", str(MODULE), "--mock", MOCK, *given, "--terraform", terraform, environ=automation())
    assert (status, out, err) == (2, "", f"tfplancheck: error: {error}\n")


@pytest.mark.e2e
@pytest.mark.parametrize("spelling", [
    pytest.param(["-var", f"encryption_key={SECRET}"], id="-var-NAME=VALUE"),
    pytest.param([f"-var=encryption_key={SECRET}"], id="-var=NAME=VALUE"),
    pytest.param(["-var-file", "VARFILE"], id="-var-file"),
])
def test_mock_plan_plans_with_terraforms_spellings(tmp_path: Path, spelling: list[str]) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    terraform = shutil.which("terraform")
    if terraform is None:
        pytest.skip("no terraform on PATH")
    var_file = tmp_path / "secret.tfvars"
    var_file.write_text(f'encryption_key = "{SECRET}"\n', encoding="utf-8")
    argv = [str(var_file) if a == "VARFILE" else a for a in spelling]
    status, out, err = cli("mock-plan", str(MODULE), "--mock", MOCK, *argv, "--checks", str(MODULE / "checks.toml"),
                           "--terraform", terraform, environ=automation())
    assert (status, err) == (0, ""), err
    assert out.splitlines()[-1] == f"5 checks in {MODULE}: 5 passed, 0 failed"
    assert SECRET not in out + err


def test_query_of_a_missing_key_says_which_keys_are_near(tmp_path: Path) -> None:
    plan = {"format_version": "1.2", "resource_changes": [{
        "address": "aws_s3_bucket.b", "mode": "managed", "type": "aws_s3_bucket", "name": "b",
        "change": {"actions": ["create"], "before": None, "after": {"bucket": "logs", "tags": {"env": "x"}},
                   "after_unknown": {"arn": True, "id": True}}}]}
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan), encoding="utf-8")
    status, out, err = cli("query", str(path), "aws_s3_bucket.b", "tgas", environ=automation())
    assert (status, err) == (0, "")
    assert out.splitlines()[1] == (
        '  status:    absent (no key "tgas" in an object with 4 keys, 2 unknown until apply: "arn", "id"; '
        'did you mean "tags"?)'
    )
