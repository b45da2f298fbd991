"""Binary plans from anywhere (#35 point 6): ``terraform show -json`` runs where the plan's providers are.

Before, the command line ran ``terraform show`` in the current directory, so a binary plan given from
another directory failed with Terraform's raw provider-schema error (the pytest plugin used the plan's
directory and worked). Now one rule (``plancheck._terraform.planfile.show_directory``) serves the command
line, the plugin's ``--tf-plan`` and ``plancheck.load_plan_file``: the plan file's directory, or the one
named (``--chdir DIR``, ``chdir=``); when Terraform cannot load the providers there, the error names the
directory tried and says to run ``terraform init`` there (or name another).

Each cell runs with real binaries, the pinned Terraform 1.0.3 and the ``terraform`` on PATH (1.11 here),
from a directory that is not the plan's, with ``TF_CLI_CONFIG_FILE`` naming a missing file (a user's
leftover setting: the conversion needs no CLI configuration).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import NamedTuple

import pytest

import plancheck
from plancheck import PlanFormatError
from plancheck._plugin.acceptance import REQUIRE_E2E_ENV
from plancheck._terraform.binary import inspect_binary, terraform_environment
from tools.pinned import find_pinned_terraform

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "null"
SCRIPT = Path(sys.executable).parent / "tfplancheck"
EXAMPLE_SECRET = "correct-horse-battery-staple"  # the example's sensitive default, in the plan as a trigger


class Planned(NamedTuple):
    """examples/null planned into ``work/tfplan`` by ``terraform``; ``elsewhere`` is a directory without it."""

    terraform: Path
    version: str
    work: Path
    elsewhere: Path


def _terraform(which: str) -> Path:
    found = find_pinned_terraform() if which == "pinned" else shutil.which("terraform")
    if found is None:
        message = f"no {which} terraform ({'run `make test`' if which == 'pinned' else 'none on PATH'})"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(message)
        pytest.skip(message)
    return Path(found)


@pytest.fixture(scope="module", params=["pinned", "path"], ids=["tf1.0.3", "tf-on-path"])
def planned(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
            tf_acceptance_cli_config: Path) -> Planned:
    terraform = _terraform(request.param)
    base = tmp_path_factory.mktemp(f"anywhere-{request.param}")
    work = base / "infra" / "null"
    shutil.copytree(EXAMPLE, work)
    env = terraform_environment(os.environ, data_dir=work / ".terraform", cli_config=tf_acceptance_cli_config)
    for step in (["init", "-input=false", "-no-color"], ["plan", "-input=false", "-no-color", "-out=tfplan"]):
        done = subprocess.run([str(terraform), *step], cwd=work, env=env, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    assert (work / "tfplan").read_bytes().startswith(b"PK\x03\x04")
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    return Planned(terraform, inspect_binary(str(terraform)).version, work, elsewhere)


@pytest.fixture
def user_env(planned: Planned, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of a user in ``elsewhere``: no TF_DATA_DIR, a CLI configuration that is gone, and the
    ``TF_CLI_ARGS=-input=false`` a CI sets for its own plans (which ``version -json`` refuses as a flag)."""
    monkeypatch.delenv("TF_DATA_DIR", raising=False)
    monkeypatch.setenv("TF_CLI_ARGS", "-input=false")
    monkeypatch.delenv("TF_ACC_TERRAFORM_PATH", raising=False)
    monkeypatch.setenv("TF_CLI_CONFIG_FILE", str(planned.elsewhere / "missing.tfrc"))
    monkeypatch.chdir(planned.elsewhere)
    return dict(os.environ)


def _copied(planned: Planned) -> Path:
    """The plan file copied beside nothing: its providers are not where it is."""
    copy = planned.elsewhere / "copied" / "tfplan"
    copy.parent.mkdir(exist_ok=True)
    shutil.copyfile(planned.work / "tfplan", copy)
    return copy


def _no_providers(where: Path, hint: str) -> str:
    """The first line of the error for a binary plan whose providers are not in ``where``."""
    tail = "" if hint == "" else f", or pass {hint} naming the directory of the configuration that made the plan"
    return f"terraform show could not load the plan's providers in {where}: run `terraform init` there{tail}"


# --- the function ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["absolute", "relative", "chdir"])
def test_load_plan_file_shows_a_binary_plan_where_its_providers_are(
    planned: Planned, user_env: dict[str, str], how: str
) -> None:
    if how == "absolute":
        plan = plancheck.load_plan_file(planned.work / "tfplan", terraform=planned.terraform)
    elif how == "relative":
        plan = plancheck.load_plan_file(os.path.relpath(planned.work / "tfplan"), terraform=str(planned.terraform))
    else:
        plan = plancheck.load_plan_file(_copied(planned), planned.terraform, chdir=planned.work)
    assert plan.terraform_version == planned.version
    assert plan.resource_change("null_resource.app").actions == ("create",)


def test_load_plan_file_names_the_directory_it_tried(planned: Planned, user_env: dict[str, str]) -> None:
    copy = _copied(planned)
    with pytest.raises(PlanFormatError) as caught:
        plancheck.load_plan_file(copy, terraform=planned.terraform)
    head, command, *_ = str(caught.value).splitlines()
    assert (head, command) == (
        f"{copy} is a binary plan; {_no_providers(copy.parent, 'chdir=')}",
        f"terraform show -no-color -json {copy} failed:",
    )


def test_load_plan_says_a_binary_plan_is_one_and_names_load_plan_file(planned: Planned) -> None:
    with pytest.raises(PlanFormatError) as caught:
        plancheck.load_plan(planned.work / "tfplan")
    assert str(caught.value) == (
        f"{planned.work / 'tfplan'}: $: expected the JSON of `terraform show -json PLANFILE`, found a binary plan "
        "(terraform plan -out): load it with plancheck.load_plan_file, which runs terraform show -json for it"
    )


# --- the command line -----------------------------------------------------------------------------------------


def _cli(planned: Planned, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args, "--terraform", str(planned.terraform)], cwd=planned.elsewhere,
                          env=env, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("how", ["relative", "chdir"])
def test_the_cli_checks_a_binary_plan_from_another_directory(
    planned: Planned, user_env: dict[str, str], how: str
) -> None:
    if how == "relative":
        plan = [os.path.relpath(planned.work / "tfplan", planned.elsewhere)]
    else:
        plan = [os.path.relpath(_copied(planned), planned.elsewhere), "--chdir", str(planned.work)]
    done = _cli(planned, user_env, *plan, "--checks", str(EXAMPLE / "checks.toml"), "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert (doc["ok"], doc["plan"]["terraform_version"], doc["summary"]["failed"]) == (True, planned.version, 0)
    assert EXAMPLE_SECRET not in done.stdout + done.stderr

    query = _cli(planned, user_env, "query", *plan, "null_resource.app", "triggers")
    assert query.returncode == 0, query.stderr
    assert query.stdout.splitlines()[-1] == (
        '  value:     {"greeting": "hello", "password": (sensitive), "replicas": "3"}')


@pytest.mark.parametrize("output", ["text", "json"])
def test_the_cli_names_the_directory_it_tried(planned: Planned, user_env: dict[str, str], output: str) -> None:
    copy = _copied(planned)
    done = _cli(planned, user_env, "copied/tfplan", "--non-empty", "--format", output)
    assert done.returncode == 2, done.stdout + done.stderr
    first = f"{_no_providers(copy.parent, '--chdir DIR')}\nterraform show -no-color -json {copy} failed:\n"
    if output == "json":
        (doc,) = [json.loads(done.stdout)]  # one JSON document
        assert (doc["kind"], doc["error"]["kind"]) == ("error", "terraform")
        assert doc["error"]["message"].startswith(first)
    assert done.stderr.startswith(f"tfplancheck: error: {first}")
    assert "Traceback" not in done.stderr


# --- the pytest plugin ----------------------------------------------------------------------------------------

PLUGIN_TEST = textwrap.dedent(
    """
    from tfjsonpath import New
    from plancheck import ExpectSensitiveValue

    def test_binary_plan_is_read(tf_plan, assert_plan):
        assert tf_plan.terraform_version == {version!r}
        assert_plan(tf_plan, ExpectSensitiveValue("null_resource.app", New("triggers").AtMapKey("password")))
    """
)


def _pytest(planned: Planned, env: dict[str, str], plan: str) -> subprocess.CompletedProcess[str]:
    (planned.elsewhere / "test_binary.py").write_text(PLUGIN_TEST.format(version=planned.version), "utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q", "-n", "0",
         "test_binary.py", "--tf-plan", plan, "--terraform", str(planned.terraform)],
        cwd=planned.elsewhere, env=env, capture_output=True, text=True, timeout=300, check=False,
    )


def test_the_plugin_checks_a_binary_plan_from_another_directory(planned: Planned, user_env: dict[str, str]) -> None:
    done = _pytest(planned, user_env, os.path.relpath(planned.work / "tfplan", planned.elsewhere))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_the_plugin_names_the_directory_it_tried(planned: Planned, user_env: dict[str, str]) -> None:
    copy = _copied(planned)
    done = _pytest(planned, user_env, "copied/tfplan")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"tf_plan (from --tf-plan): {copy} is a binary plan; {_no_providers(copy.parent, '')}" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
