"""``plancheck.acceptance.mock_plan`` and the ``tf_mock_plan`` fixture: ``tfplancheck mock-plan`` in Python.

One engine with the command line (``plancheck/_terraform/mock/plan.py``); bad arguments are typed errors that
name the argument, a failing Terraform is one with Terraform's message, no secret in either, nothing left.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from mock_support import CLOUD_SCHEMA, EXAMPLE, NULL_SCHEMA, SECRET, leak_check, write_tree

from plancheck import (
    ExpectKnownOutputValue,
    ExpectKnownValue,
    ExpectResourceAction,
    ExpectSensitiveValue,
    ExpectUnknownValue,
    PlanCheckError,
    ResourceAction,
    assert_plan,
)
from plancheck import knownvalue as kv
from plancheck.acceptance import (
    MockPlanArgumentError,
    MockPlanError,
    MockPlanFailedError,
    MockProvider,
    Sensitive,
    TerraformBinary,
    mock_plan,
)
from tfjsonpath import New

pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")


def cloud(**options: Any) -> MockProvider:
    return MockProvider.from_schema_file(CLOUD_SCHEMA, "acme/cloud", **options)


#: Terraform's refusal of such a variable name ("reserved due to its special meaning inside module blocks"), in our words.
RESERVED = "is reserved: Terraform gives it a meaning inside module blocks, so no module declares it"


def bad_arguments(tmp: Path) -> list[Any]:
    missing = tmp / "missing.tfvars"
    return [
        pytest.param({"module_dir": 3}, "module_dir", "module_dir: expected a path (str or os.PathLike), got int",
                     id="module-dir-int"),
        pytest.param({"module_dir": ""}, "module_dir", "module_dir: expected a path (str or os.PathLike), got an empty string",
                     id="module-dir-empty"),
        pytest.param({"mocks": "acme/cloud"}, "mocks", "mocks: expected a list, got str", id="mocks-str"),
        pytest.param({"mocks": [cloud(), "acme/cloud"]}, "mocks", "mocks[1]: expected a MockProvider, got str",
                     id="mocks-item"),
        pytest.param({"mocks": [cloud(), cloud(seed=1)]}, "mocks",
                     "mocks: registry.terraform.io/acme/cloud is given twice", id="mocks-twice"),
        pytest.param({"variables": ["name=x"]}, "variables",
                     "variables: expected a dict of variable name -> value, got list", id="variables-list"),
        pytest.param({"variables": {"1x": "v"}}, "variables", "variables: '1x' is not a variable name",
                     id="variables-bad-name"),
        pytest.param({"variables": {2: "v"}}, "variables", "variables: int is not a variable name", id="variables-int-key"),
        pytest.param({"variables": {"-x": "v"}}, "variables", "variables: '-x' is not a variable name",
                     id="variables-name-starting-with-a-dash"),
        pytest.param({"variables": {"count": "v"}}, "variables", f"variables: 'count' {RESERVED}",
                     id="variables-reserved-name"),
        pytest.param({"variables": {"_": "v"}}, "variables", f"variables: '_' {RESERVED}", id="variables-reserved-underscore"),
        pytest.param({"variables": {"pw": Sensitive("providers"), "providers": "v"}}, "variables",
                     f"variables: '(sensitive)' {RESERVED}", id="variables-reserved-name-spelling-a-secret"),
        # The secret has dashes, a variable name Terraform takes: with a leading digit it is none.
        pytest.param({"variables": {"pw": Sensitive(f"1{SECRET}"), f"1{SECRET}": "v"}}, "variables",
                     "variables: '(sensitive)' is not a variable name", id="variables-name-spelling-a-secret"),
        pytest.param({"variables": {"pw": Sensitive({SECRET, "x"})}}, "variables",
                     'variables["pw"]: expected a JSON value (str, number, bool, None, list, dict), got set',
                     id="variables-not-json"),
        pytest.param({"variables": {"pw": Sensitive({SECRET: float("nan")})}}, "variables",
                     'variables["pw"]["(sensitive)"]: numbers must be finite, got (sensitive)', id="variables-secret-key-hidden"),
        pytest.param({"variables": {"pw": "x\ud800"}}, "variables",
                     'variables["pw"]: expected UTF-8 text, found a lone surrogate at character 1',
                     id="variables-not-utf8"),
        pytest.param({"var_files": "a.tfvars"}, "var_files", "var_files: expected a list, got str", id="var-files-str"),
        pytest.param({"var_files": [missing]}, "var_files", f"var_files[0]: {missing}: no such file",
                     id="var-files-missing"),
        # It said "no such file" of a directory that is there, as mock-plan --var-file did.
        pytest.param({"var_files": [EXAMPLE]}, "var_files", f"var_files[0]: {EXAMPLE}: is a directory",
                     id="var-files-a-directory"),
        pytest.param({"timeout": 0}, "timeout",
                     "timeout 0: expected a number of seconds greater than 0 and at most 604800 (a week)", id="timeout"),
        pytest.param({"out": 5}, "out", "out: expected a path (str or os.PathLike), got int", id="out-int"),
        # The module's next plan would read it as configuration: refused before anything runs.
        pytest.param({"out": EXAMPLE / "plan.tf.json"}, "out",
                     f"out: {EXAMPLE / 'plan.tf.json'}: Terraform would read the plan JSON as configuration of the module "
                     f"{EXAMPLE} the next time it is planned (it reads every .tf, .tf.json and automatic .tfvars file in "
                     "the module's directory); write it outside the module or under another name, such as plan.json",
                     id="out-as-the-module-s-configuration"),
        pytest.param({"terraform": 5}, "terraform", "terraform: expected a path (str or os.PathLike), got int",
                     id="terraform-int"),
        # Each was a bare ValueError ('embedded null byte') or UnicodeEncodeError from os.path or open.
        pytest.param({"module_dir": "mod\0ule"}, "module_dir",
                     "module_dir: 'mod\\x00ule': a name the system cannot take (a NUL byte or a lone surrogate)",
                     id="module-dir-nul"),
        pytest.param({"out": "\ud800.json"}, "out",
                     "out: '\\ud800.json': a name the system cannot take (a NUL byte or a lone surrogate)",
                     id="out-lone-surrogate"),
    ]


@pytest.mark.parametrize("case", range(len(bad_arguments(Path("/t")))), ids=[p.id for p in bad_arguments(Path("/t"))])
def test_a_bad_argument_is_a_typed_error_naming_it(case: int, tmp_path: Path) -> None:
    param = bad_arguments(tmp_path)[case]
    given, argument, message = param.values
    arguments = {"module_dir": EXAMPLE, "mocks": [cloud()], **given}
    with pytest.raises(MockPlanArgumentError) as info:
        mock_plan(arguments.pop("module_dir"), **arguments)
    assert (info.value.argument, str(info.value)) == (argument, message)
    assert isinstance(info.value, (TypeError, ValueError, MockPlanError))
    assert SECRET not in str(info.value)


#: Names Terraform 1.0.3 and 1.11.4 both declare (``terraform validate`` of ``variable "NAME" {}``), HCL's identifiers:
#: a dash after the first character, Unicode letters and joiners, names close to the reserved ones.
TAKEN_NAMES = [
    pytest.param("my-var", id="a-dash"),
    pytest.param("_-x", id="underscore-then-dash"),
    pytest.param("a-", id="a-trailing-dash"),
    pytest.param("größe", id="unicode-letters"),
    pytest.param("x·y", id="a-middle-dot-id-continue"),
    pytest.param("counts", id="close-to-a-reserved-name"),
    pytest.param("ignore_nested_deprecations", id="reserved-only-after-terraform-1-11"),
]


@pytest.mark.parametrize("name", TAKEN_NAMES)
def test_a_variable_name_terraform_takes_is_given_to_it(name: str, tmp_path: Path) -> None:
    # Past the variables' check: what stops the call is the variables file, checked after it.
    missing = tmp_path / "missing.tfvars"
    with pytest.raises(MockPlanArgumentError) as info:
        mock_plan(EXAMPLE, mocks=[cloud()], variables={name: "v"}, var_files=[missing])
    assert (info.value.argument, str(info.value)) == ("var_files", f"var_files[0]: {missing}: no such file")


def test_an_unusable_terraform_is_a_failure_of_the_terraform_step(tmp_path: Path) -> None:
    with pytest.raises(MockPlanFailedError) as info:
        mock_plan(EXAMPLE, mocks=cloud(), terraform=tmp_path / "no-terraform")
    assert (info.value.step, str(info.value)) == ("terraform", f"cannot use Terraform binary {tmp_path}/no-terraform: no such file")


# -- with a scripted terraform: what show -json printed is no plan ---------------------------------------

_FAKES = Path(__file__).resolve().parents[1] / "acceptance"
#: What Terraform printed to stdout in place of the JSON: withheld, as its secrets cannot be known.
_PRINTED = f"Terraform will perform the following actions:\n  + token = {SECRET}-printed\n"
_NOT_JSON_TEXT = "{module}: $: expected valid JSON, found invalid JSON: Expecting value at line 1 column 1 (character 0)"

UNREADABLE: list[Any] = [
    pytest.param(
        {"stdout": _PRINTED, "stderr": f"Warning: Value for undeclared variable\n\nThe value {SECRET} is not used.\n"},
        f"terraform show -json printed invalid JSON ({_NOT_JSON_TEXT}):\n"
        "Warning: Value for undeclared variable\n\nThe value (sensitive) is not used.",
        f"terraform show -json gave an unreadable plan: {_NOT_JSON_TEXT}",
        id="text-and-a-warning-with-a-secret",
    ),
    pytest.param({"stdout": _PRINTED}, f"terraform show -json printed invalid JSON ({_NOT_JSON_TEXT})",
                 f"terraform show -json gave an unreadable plan: {_NOT_JSON_TEXT}", id="text-alone"),
    pytest.param({"stdout": f'["{SECRET}"]'}, "terraform show -json printed JSON that is not an object",
                 "terraform show -json gave an unreadable plan: {module}: $: expected a JSON object (a terraform show "
                 "-json plan), found an array of 1 element", id="json-that-is-no-object"),
]


@pytest.fixture
def scripted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A terraform whose init and plan succeed and whose ``show -json`` prints what a row says (in mock_plan's
    environment: it reads os.environ)."""
    monkeypatch.syspath_prepend(str(_FAKES))
    from acceptance_fakes import make_fake_terraform

    fake = make_fake_terraform(tmp_path / "bin")
    for name, value in fake.env().items():
        monkeypatch.setenv(name, value)
    return fake


@pytest.mark.parametrize(("show", "message", "cli_message"), UNREADABLE)
def test_show_json_printing_no_plan_says_what_terraform_did_not_the_hint_for_a_person_s_file(
    scripted: Any, tmp_path: Path, show: dict[str, str], message: str, cli_message: str
) -> None:
    from acceptance_fakes import rule

    scripted.script(rule("show", "-json", responses=[show]))
    module = write_tree(tmp_path / "m", {"main.tf": 'variable "pw" {\n  type = string\n}\n'})
    with pytest.raises(MockPlanFailedError) as info:
        mock_plan(module, mocks=[cloud()], variables={"pw": Sensitive(SECRET)}, terraform=scripted.path)
    assert (type(info.value), info.value.step, str(info.value)) == (MockPlanFailedError, "show", message.format(module=module))
    # Nor does a traceback show the loader's error, hint and all, as the cause.
    assert (info.value.__cause__, info.value.__suppress_context__) == (None, True)
    assert [call.split()[0] for call in scripted.argv()] == ["init", "plan", "show"]
    # The command line says it in its own words, as before.
    from plancheck.cli import run

    err = io.StringIO()
    status = run(["mock-plan", str(module), "--mock", f"acme/cloud={CLOUD_SCHEMA}", "--var", f"pw={SECRET}",
                  "--terraform", str(scripted.path)], stdout=io.StringIO(), stderr=err, environ={**os.environ})
    assert (status, err.getvalue()) == (2, f"tfplancheck: error: {cli_message.format(module=module)}\n")


# -- with Terraform --------------------------------------------------------------------------------------


@pytest.mark.e2e
def test_a_mocked_module_s_plan_takes_plan_checks_and_nothing_is_left(
    tf_mock_plan: Any, tmp_path: Path, private_tmp: Path
) -> None:
    before = sorted(p.name for p in EXAMPLE.iterdir())
    out = tmp_path / "plan.json"
    with leak_check(private_tmp) as leaks:
        plan = tf_mock_plan(EXAMPLE, mocks=[cloud()], variables={"encryption_key": Sensitive(SECRET)}, out=out)
    assert not leaks[0], leaks[0]
    assert sorted(p.name for p in EXAMPLE.iterdir()) == before  # the module directory is untouched
    assert_plan(plan,
                ExpectResourceAction("cloud_bucket.logs", ResourceAction.Create),
                ExpectUnknownValue("cloud_bucket.logs", New("website").AtMapKey("endpoint")),
                ExpectSensitiveValue("cloud_bucket.logs", New("encryption_key")))
    assert SECRET in out.read_text(encoding="utf-8")  # as Terraform printed it (the CLI's --out)


@pytest.mark.e2e
def test_the_plan_is_the_one_the_command_line_makes(tf_acceptance: Any, tf_mock_plan: Any, tmp_path: Path) -> None:
    from plancheck.cli import run

    out = tmp_path / "cli.json"
    status = run(["mock-plan", str(EXAMPLE), "--mock", f"acme/cloud={CLOUD_SCHEMA}", "--var", "encryption_key=k",
                  "--out", str(out), "--terraform", tf_acceptance.terraform.path], stdout=io.StringIO(), stderr=io.StringIO(), environ={**os.environ})
    assert status == 0

    planned = tf_mock_plan(EXAMPLE, mocks=cloud(), variables={"encryption_key": "k"})
    cli_plan = json.loads(out.read_text(encoding="utf-8"))
    assert planned.raw["planned_values"] == cli_plan["planned_values"]
    assert planned.raw["resource_changes"] == cli_plan["resource_changes"]


@pytest.mark.e2e
def test_terraform_s_failure_is_typed_says_terraform_s_message_and_never_a_secret(
    tf_acceptance_binary: Any, tf_mock_plan: Any, tmp_path: Path, private_tmp: Path
) -> None:
    module = write_tree(tmp_path / "bad", {"main.tf": (
        'terraform {\n  required_providers {\n    cloud = { source = "acme/cloud" }\n  }\n}\n'
        'variable "pw" {\n  type = string\n  sensitive = true\n'
        '  validation {\n    condition = length(var.pw) < 3\n    error_message = "too long"\n  }\n}\n'
        'resource "cloud_bucket" "b" {\n  name = "x"\n}\n')})
    with leak_check(private_tmp) as leaks, pytest.raises(MockPlanFailedError) as info:
        tf_mock_plan(module, mocks=[cloud()], variables={"pw": SECRET})
    assert not leaks[0], leaks[0]
    # Terraform 1.0 checks the validation already at init, later ones at plan.
    assert str(info.value).startswith(f"terraform {info.value.step} failed:\n"), str(info.value)
    assert info.value.step in ("init", "plan")
    assert "too long" in str(info.value)
    assert SECRET not in str(info.value)


@pytest.mark.e2e
@pytest.mark.parametrize("value", [
    pytest.param(["a", "list"], id="plain"),
    pytest.param(Sensitive(["a", SECRET]), id="sensitive"),
])
def test_a_variable_terraform_refuses_is_named_as_given_not_by_a_removed_file(
    tf_acceptance_binary: Any, tf_mock_plan: Any, tmp_path: Path, value: Any
) -> None:
    # Terraform names where the value was defined: the private variables file, removed when mock_plan returns.
    module = write_tree(tmp_path / "m", {"main.tf": 'variable "pw" {\n  type      = string\n  sensitive = true\n}\n'})
    with pytest.raises(MockPlanFailedError) as info:
        tf_mock_plan(module, mocks=[cloud()], variables={"pw": value})
    shown = " ".join(str(info.value).split())
    said = ("Invalid value defined at the variables given (mock_plan's variables=, or --var)."
            if tf_acceptance_binary.version_tuple[:2] != (1, 0) else  # 1.0 names the file and shows its lines
            "on the variables given (mock_plan's variables=, or --var) line 2:")
    assert said in shown, shown
    assert "tfpc-mock-" not in shown
    assert "zz_tfplancheck" not in shown
    assert SECRET not in shown


@pytest.mark.e2e
@pytest.mark.parametrize(("value", "b"), [
    pytest.param(Sensitive({"a": SECRET, "b": "plain"}), "(sensitive)", id="the-whole-value"),
    pytest.param({"a": Sensitive(SECRET), "b": "plain"}, '"plain"', id="a-part-of-it"),
])
def test_a_sensitive_value_is_a_secret_of_the_plan_whatever_the_module_declares(
    tf_acceptance_binary: Any, tf_mock_plan: Any, tmp_path: Path, value: Any, b: str
) -> None:
    # The module's variable is not sensitive: the plan marks nothing, yet the caller said the value is secret. (The
    # session's scrub hides it in pytest's reports; the message itself is what a script without pytest shows.)
    module = write_tree(tmp_path / "m", {"main.tf": (
        'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\n'
        'variable "m" {\n  type = map(string)\n}\nresource "null_resource" "a" {\n  triggers = var.m\n}\n'
        'output "o" {\n  value = var.m\n}\n')})
    null = MockProvider.from_schema_file(NULL_SCHEMA, "hashicorp/null")
    plan = tf_mock_plan(module, mocks=[null], variables={"m": value})
    with pytest.raises(PlanCheckError) as info:
        assert_plan(plan, ExpectKnownValue("null_resource.a", New("triggers"), kv.MapExact({"a": kv.StringExact("x")})),
                    ExpectKnownOutputValue("o", kv.Null()))
    shown = str(info.value)
    assert SECRET not in shown
    assert shown == (
        "2 plan checks failed:\n"
        "  1. ExpectKnownValue: null_resource.a: triggers: expected 1 element for MapExact check, got 2 elements: actual "
        f'value has extra key(s): "b"; expected {{"a": (sensitive)}}, got {{"a": (sensitive), "b": {b}}}\n'
        "  2. ExpectKnownOutputValue: output.o: expected null value for Null check, got: object; expected (sensitive), "
        f'got {{"a": (sensitive), "b": {b}}}')


#: A module whose variable has a dash in its name, as Terraform allows (``var.my-var`` is a traversal in HCL).
DASHED_MODULE = (
    'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\n'
    'variable "my-var" {\n  type = string\n}\nresource "null_resource" "a" {\n  triggers = { v = var.my-var }\n}\n'
)


@pytest.mark.e2e
def test_a_variable_named_with_a_dash_is_given_to_the_module(tf_mock_plan: Any, tmp_path: Path) -> None:
    module = write_tree(tmp_path / "m", {"main.tf": DASHED_MODULE})
    plan = tf_mock_plan(module, mocks=[MockProvider.from_schema_file(NULL_SCHEMA, "hashicorp/null")],
                        variables={"my-var": "given"})
    assert_plan(plan, ExpectKnownValue("null_resource.a", New("triggers").AtMapKey("v"), kv.StringExact("given")))


@pytest.mark.e2e
def test_a_module_dir_that_is_no_module_is_an_argument_error(tf_mock_plan: Any, tmp_path: Path) -> None:
    with pytest.raises(MockPlanArgumentError) as info:
        tf_mock_plan(tmp_path, mocks=[cloud()])
    assert (info.value.argument, str(info.value)) == (
        "module_dir", f"{tmp_path}: no .tf or .tf.json files: not a Terraform module directory")


def test_the_fixture_takes_a_relative_module_dir_from_the_test_file_s_directory(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from plancheck._plugin.acceptance import make_mock_plan

    request = SimpleNamespace(path=str(tmp_path / "test_x.py"), node=SimpleNamespace(user_properties=[]))
    planned = make_mock_plan(request, TerraformBinary("/usr/bin/terraform", "1.11.4"))
    with pytest.raises(MockPlanArgumentError) as info:
        planned("modules/none", mocks=[cloud()], var_files=[tmp_path / "x.tfvars"])
    assert str(info.value) == f"var_files[0]: {tmp_path}/x.tfvars: no such file"
    assert request.node.user_properties == [("terraform", "Terraform 1.11.4")]


# -- with a syrupy snapshot, in a pytest session of its own ---------------------------------------------

INNER = """
from plancheck.acceptance import MockProvider
from plancheck.snapshot import PlanSnapshotExtension


def test_module(tf_mock_plan, snapshot):
    mock = MockProvider.from_schema_file(r"{schema}", "acme/cloud")
    plan = tf_mock_plan(r"{module}", mocks=[mock], variables={{"encryption_key": "k"}})
    assert snapshot(extension_class=PlanSnapshotExtension) == plan
"""


@pytest.mark.e2e
def test_a_syrupy_snapshot_of_a_mocked_module_is_written_then_held(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("syrupy", reason="the snapshot extra (syrupy) is not installed")
    import shutil

    if shutil.which("terraform") is None:
        pytest.skip("no terraform on PATH")
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)  # the inner session is a session of its own
    pytester.makepyfile(test_inner=INNER.format(schema=CLOUD_SCHEMA, module=EXAMPLE))
    plugins = ("-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist")
    missing = pytester.runpytest_subprocess(*plugins)
    missing.assert_outcomes(failed=1)
    assert "does not exist! (write it with --snapshot-update)" in missing.stdout.str()
    pytester.runpytest_subprocess(*plugins, "--snapshot-update").assert_outcomes(passed=1)
    [written] = (pytester.path / "__snapshots__" / "test_inner").iterdir()
    text = written.read_text(encoding="utf-8")
    assert "resource cloud_bucket.logs" in text
    assert "encryption_key = (sensitive)" in text
    pytester.runpytest_subprocess(*plugins).assert_outcomes(passed=1)


def test_a_missing_snapshot_inside_the_acceptance_runner_says_how_to_write_it(tmp_path: Path) -> None:
    from plancheck import Plan, snapshot
    from plancheck.acceptance._checks import plan_check_failures

    class Snapshot:
        def CheckPlan(self, plan: Plan) -> None:
            snapshot.assert_matches(plan, tmp_path / "plan.snap")

    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": []})
    assert [str(f) for f in plan_check_failures(plan, [Snapshot()])] == [
        f"PlanSnapshot: no snapshot at {tmp_path}/plan.snap: write it with update=True "
        "(pytest: --snapshot-update; command line: --update)"
    ]


@pytest.mark.e2e
def test_a_module_without_a_provider_block_plans_whatever_the_provider_requires(tf_mock_plan: Any, tmp_path: Path) -> None:
    """terraform test's mock_provider needs no provider configuration; neither does a mock (it used to stop at
    'Missing required argument'). The real vSphere schema: test_mock_parity_e2e.py."""
    from mock_support import cloud_document

    document = cloud_document()
    provider = document["provider_schemas"]["registry.terraform.io/acme/cloud"]["provider"]["block"]
    provider["attributes"]["region"] = {"type": "string", "required": True}
    provider["block_types"] = {"assume_role": {"nesting_mode": "list", "min_items": 1, "block": {"attributes": {
        "arn": {"type": "string", "required": True}}}}}
    module = write_tree(tmp_path / "m", {"main.tf": (
        'terraform {\n  required_providers {\n    cloud = { source = "acme/cloud" }\n  }\n}\n'
        'resource "cloud_access_key" "k" {\n  bucket_id = "b"\n}\n')})
    plan = tf_mock_plan(module, mocks=[MockProvider(document, "acme/cloud")])
    assert [c.address for c in plan.resource_changes] == ["cloud_access_key.k"]


SECRETS_INNER = """
import pytest
from plancheck import ExpectKnownValue, assert_plan, knownvalue as kv
from plancheck.acceptance import MockProvider, Sensitive
from tfjsonpath import New

SHAPES = {shapes!r}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_module(tf_mock_plan, shape):
    mock = MockProvider.from_schema_file(r"{schema}", "acme/cloud")
    # name is not a sensitive variable: only the Sensitive wrapper says the value is secret.
    plan = tf_mock_plan(r"{module}", mocks=[mock],
                        variables={{"name": Sensitive(SHAPES[shape]), "encryption_key": "k"}})
    assert_plan(plan, ExpectKnownValue("cloud_bucket.logs", New("name"), kv.StringExact("other")))
"""


@pytest.mark.e2e
def test_a_sensitive_value_given_to_mock_plan_is_in_no_report(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing check quotes the planned value; the session's report scrubs every Sensitive (and every value of a
    variable the module declares sensitive), of every shape, under -vv and in the JUnit XML."""
    import shutil
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from secret_shapes import SHAPES, leaks

    if shutil.which("terraform") is None:
        pytest.skip("no terraform on PATH")
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    # Terraform refuses a variable value with control characters in a tfvars.json? It takes JSON strings: all shapes.
    pytester.makepyfile(test_inner=SECRETS_INNER.format(shapes=SHAPES, schema=CLOUD_SCHEMA, module=EXAMPLE))
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist", "-vv",
                                           f"--junitxml={junit}")
    result.assert_outcomes(failed=len(SHAPES))
    output = "\n".join(result.outlines + result.errlines) + junit.read_text(encoding="utf-8")
    assert "expected" in output  # the failures are reported
    assert leaks(output) == []
