"""``--tf-plan`` takes a binary plan (``terraform plan -out``) as the command line does: shown as JSON by
terraform in the plan's directory (the one detection and conversion of ``plancheck._terraform.planfile``),
then read by the plan loader. A binary plan that cannot be shown is a fixture error naming the file and
the reason, never an aborted session or a traceback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from plugin_support import run

from plancheck._plugin.acceptance import REQUIRE_E2E_ENV
from plancheck._terraform.binary import terraform_environment
from tools.pinned import find_pinned_terraform

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "null"
EXAMPLE_SECRET = "correct-horse-battery-staple"  # the example's sensitive default, in the plan as a trigger

CHECK_TEST = textwrap.dedent(
    """
    import pytest
    from tfjsonpath import New
    from plancheck import ExpectSensitiveValue, ExpectUnknownValue, ExpectKnownValue
    from plancheck import knownvalue as kv

    def test_binary_plan_is_read(tf_plan, assert_plan):
        assert tf_plan.terraform_version == "1.0.3"
        assert_plan(
            tf_plan,
            ExpectSensitiveValue("null_resource.app", New("triggers").AtMapKey("password")),
            ExpectUnknownValue("null_resource.app", New("id")),
            ExpectKnownValue("null_resource.app", New("triggers").AtMapKey("greeting"), kv.StringExact("hello")),
        )

    def test_a_failure_is_scrubbed(tf_plan, assert_plan):
        assert_plan(tf_plan, ExpectUnknownValue("null_resource.app", New("triggers").AtMapKey("password")))
    """
)

BROKEN_TEST = textwrap.dedent(
    """
    def test_reads(tf_plan):
        pass
    """
)


def _pinned_terraform() -> Path:
    terraform = find_pinned_terraform()
    if terraform is None:
        message = "pinned Terraform 1.0.3 not installed (run `make test`)"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(message)
        pytest.skip(message)
    return terraform


@pytest.fixture(scope="module")
def binary_plan(tmp_path_factory: pytest.TempPathFactory, tf_acceptance_cli_config: Path) -> tuple[Path, Path]:
    """examples/null planned with the pinned Terraform into ``tfplan``: (the plan file, terraform)."""
    terraform = _pinned_terraform()
    work = tmp_path_factory.mktemp("binary-plan") / "null"
    shutil.copytree(EXAMPLE, work)
    env = terraform_environment(os.environ, data_dir=work / ".terraform", cli_config=tf_acceptance_cli_config)
    for step in (["init", "-input=false", "-no-color"], ["plan", "-input=false", "-no-color", "-out=tfplan"]):
        done = subprocess.run([str(terraform), *step], cwd=work, env=env, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    assert (work / "tfplan").read_bytes().startswith(b"PK\x03\x04")
    return work / "tfplan", terraform


@pytest.mark.e2e
@pytest.mark.parametrize("how", ["--terraform", "TF_ACC_TERRAFORM_PATH"])
def test_a_binary_plan_given_with_tf_plan_is_shown_and_checked(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, binary_plan: tuple[Path, Path], how: str
) -> None:
    plan, terraform = binary_plan
    # The user's CLI configuration may name a file that is gone: the conversion needs none.
    monkeypatch.setenv("TF_CLI_CONFIG_FILE", str(pytester.path / "missing.tfrc"))
    monkeypatch.setenv("TF_CLI_ARGS_show", "-no-such-flag")  # would break the JSON: not passed on
    monkeypatch.delenv("TF_DATA_DIR", raising=False)
    if how == "--terraform":
        extra = ["--terraform", str(terraform)]
        monkeypatch.delenv("TF_ACC_TERRAFORM_PATH", raising=False)
    else:
        extra = []
        monkeypatch.setenv("TF_ACC_TERRAFORM_PATH", str(terraform))
    pytester.makepyfile(test_binary=CHECK_TEST)
    result = run(pytester, "--tf-plan", str(plan), *extra)
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str() + result.stderr.str()
    assert "expected an unknown value, but it is known: (sensitive)" in out
    assert EXAMPLE_SECRET not in out


@pytest.mark.e2e
def test_a_broken_binary_plan_is_a_fixture_error_naming_the_file_and_terraform_s_reason(
    pytester: pytest.Pytester, binary_plan: tuple[Path, Path]
) -> None:
    _, terraform = binary_plan
    broken = pytester.path / "broken.tfplan"
    broken.write_bytes(b"PK\x03\x04 not really a plan")
    pytester.makepyfile(test_broken=BROKEN_TEST)
    result = run(pytester, "--tf-plan", "broken.tfplan", "--terraform", str(terraform))
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    head = f"tf_plan (from --tf-plan): {broken} is a binary plan; terraform show -no-color -json {broken} failed:"
    assert head in out
    assert "Plan read error: zip: not a valid zip file" in out
    assert "Traceback" not in out + result.stderr.str()


@pytest.mark.parametrize(
    ("terraform", "reason"),
    [
        pytest.param(None, "reading it needs terraform or tofu on PATH (or --terraform PATH, or $TF_ACC_TERRAFORM_PATH)",
                     id="no-terraform"),
        pytest.param("/nonexistent/terraform", "cannot use Terraform binary /nonexistent/terraform: no such file",
                     id="unusable-terraform"),
    ],
)
def test_a_binary_plan_without_a_usable_terraform_is_a_fixture_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, terraform: str | None, reason: str
) -> None:
    monkeypatch.setenv("PATH", str(pytester.path / "empty-bin"))
    monkeypatch.delenv("TF_ACC_TERRAFORM_PATH", raising=False)
    plan = pytester.path / "tfplan"
    plan.write_bytes(b"PK\x03\x04binary plan")
    pytester.makepyfile(test_broken=BROKEN_TEST)
    result = run(pytester, "--tf-plan", "tfplan", *(["--terraform", terraform] if terraform else []))
    result.assert_outcomes(errors=1)
    assert f"tf_plan (from --tf-plan): {plan} is a binary plan; {reason}" in result.stdout.str()
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


# -- --tf-chdir: where terraform show runs, as the command line's --chdir ------------------------------

_FAKE_TERRAFORM = """\
import json, os, sys
if sys.argv[1:2] == ["version"]:
    print(json.dumps({"terraform_version": "1.5.7", "platform": "linux_amd64"}))
    sys.exit(0)
# show: the providers are only where the configuration was initialised (a directory holding .terraform).
if not os.path.isdir(".terraform"):
    print("Error: Failed to load plugin schemas", file=sys.stderr)
    sys.exit(1)
print(json.dumps({"format_version": "1.2", "terraform_version": "1.5.7", "resource_changes": []}))
"""

_READS = """
def test_reads(tf_plan):
    assert tf_plan.terraform_version == "1.5.7"
"""


@pytest.mark.parametrize(
    ("args", "ini", "outcome"),
    [
        pytest.param([], "", "error", id="the-plan-file-s-directory"),
        pytest.param(["--tf-chdir", "infra/app"], "", "passed", id="option-from-the-invocation-directory"),
        pytest.param([], "tf_chdir = infra/app", "passed", id="ini-from-the-ini-file-s-directory"),
        pytest.param(["--tf-chdir", "elsewhere"], "tf_chdir = infra/app", "error", id="the-option-wins"),
    ],
)
def test_tf_chdir_names_where_a_binary_plan_is_shown(pytester: pytest.Pytester, args: list[str], ini: str,
                                                     outcome: str) -> None:
    fake = pytester.path / "bin" / "terraform"
    fake.parent.mkdir()
    fake.write_text(f"#!{__import__('sys').executable}\n{_FAKE_TERRAFORM}", "utf-8")
    fake.chmod(0o755)
    (pytester.path / "infra" / "app" / ".terraform").mkdir(parents=True)
    (pytester.path / "elsewhere").mkdir()
    (pytester.path / "plans").mkdir()
    (pytester.path / "plans" / "tfplan").write_bytes(b"PK\x03\x04 a saved plan")
    pytester.makeini(f"[pytest]\n{ini}\n")
    pytester.makepyfile(test_reads=_READS)
    result = run(pytester, "--tf-plan", "plans/tfplan", "--terraform", str(fake), *args)
    if outcome == "passed":
        result.assert_outcomes(passed=1)
        return
    result.assert_outcomes(errors=1)
    tried = pytester.path / ("elsewhere" if args else "plans")
    assert (f"terraform show could not load the plan's providers in {tried}: run `terraform init` there, or pass "
            "--tf-chdir DIR naming the directory of the configuration that made the plan") in result.stdout.str()
