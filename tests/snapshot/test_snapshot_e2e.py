"""Snapshots of real plans, on the pinned Terraform 1.0.3 and the newer one on PATH: examples/null planned for
real (through the function, syrupy and the command line), and the mocked example module through
``tfplancheck mock-plan --snapshot`` (no cloud; the mock's seed keeps generated values stable)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from functools import partial
from pathlib import Path

import clirun
import pytest

from plancheck import Plan, snapshot
from plancheck._terraform.binary import run_command, terraform_environment
from plancheck.acceptance import AcceptanceRunner
from plancheck.snapshot import SnapshotMismatchError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mock"))
from mock_support import CLOUD_SCHEMA, EXAMPLE, SECRET, leak_check

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NULL_EXAMPLE = ROOT / "examples" / "null"
NULL_SECRET = "correct-horse-battery-staple"  # the example's sensitive default
KEY = "e2e-ci-secret-0123456789abcdef"

#: The snapshot of examples/null: the same from Terraform 1.0.3 (plan format 0.2) and 1.11 (1.2).
NULL_SNAPSHOT = """\
# tfplancheck plan snapshot 1
# One planned value per line: (known after apply) is unknown, (sensitive) hidden, no line absent.

resource null_resource.app
  action: create
  id = (known after apply)
  triggers["greeting"] = "{greeting}"
  triggers["password"] = (sensitive)
  triggers["replicas"] = "3"

resource null_resource.worker[0]
  action: create
  id = (known after apply)
  triggers = (known after apply)

resource null_resource.worker[1]
  action: create
  id = (known after apply)
  triggers = (known after apply)

output app_id
  action: create
  value = (known after apply)

output greeting
  action: create
  value = "{greeting}"

output password
  action: create
  value = (sensitive)
"""

INNER = """
from plancheck import load_plan
from plancheck.snapshot import PlanSnapshotExtension


def test_null_example(snapshot):
    assert snapshot(extension_class=PlanSnapshotExtension) == load_plan("plan.json")
"""


#: Every run is given its environment and no stdin stream, and shows neither planted secret.
cli = partial(clirun.cli, stdin=None, never=(NULL_SECRET, SECRET))


@pytest.fixture
def null_plans(tf_acceptance: AcceptanceRunner, tf_acceptance_cli_config: Path, tmp_path: Path
               ) -> tuple[Path, dict[str, str], str]:
    """examples/null planned twice with this Terraform: plan.bin (greeting hello) and plan2.bin (greeting hi)."""
    work = tmp_path / "null"
    shutil.copytree(NULL_EXAMPLE, work, ignore=shutil.ignore_patterns(".terraform*", "*.tfstate*", "plan.*"))
    env = terraform_environment(os.environ, data_dir=work / ".terraform", cli_config=tf_acceptance_cli_config)
    binary = tf_acceptance.terraform.path
    for step in (["init", "-input=false", "-no-color"], ["plan", "-input=false", "-no-color", "-out=plan.bin"],
                 ["plan", "-input=false", "-no-color", "-var", "greeting=hi", "-out=plan2.bin"]):
        result = run_command([binary, *step], cwd=work, env=env, timeout=300)
        assert result.ok, result.stdout + result.stderr
    for name in ("plan", "plan2"):
        shown = run_command([binary, "show", "-json", f"{name}.bin"], cwd=work, env=env, timeout=300)
        assert shown.ok, shown.stderr
        (work / f"{name}.json").write_text(shown.stdout, encoding="utf-8")
    return work, env, binary


def test_null_example_through_the_function(null_plans: tuple[Path, dict[str, str], str], tmp_path: Path) -> None:
    work, _, _ = null_plans
    plan = Plan.from_json((work / "plan.json").read_bytes())
    changed = Plan.from_json((work / "plan2.json").read_bytes())
    file = tmp_path / "null.snap"
    snapshot.assert_matches(plan, file, update=True)
    assert file.read_text(encoding="utf-8") == NULL_SNAPSHOT.format(greeting="hello")
    snapshot.assert_matches(plan, file)
    with pytest.raises(SnapshotMismatchError) as info:
        snapshot.assert_matches(changed, file)
    assert info.value.lines == ('null_resource.app: triggers["greeting"]: "hello" -> "hi"',
                                'output.greeting: value: "hello" -> "hi"')
    snapshot.assert_matches(changed, file, update=True)
    assert file.read_text(encoding="utf-8") == NULL_SNAPSHOT.format(greeting="hi")
    assert snapshot.diff(plan, changed) == list(info.value.lines)
    keyed = tmp_path / "keyed.snap"
    snapshot.assert_matches(plan, keyed, update=True, key=KEY)
    assert NULL_SECRET not in keyed.read_text(encoding="utf-8")
    assert "(sensitive #" in keyed.read_text(encoding="utf-8")


def test_null_example_through_the_command_line(null_plans: tuple[Path, dict[str, str], str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    work, env, binary = null_plans
    monkeypatch.chdir(work)  # a binary plan is shown by terraform where it was made
    file = tmp_path / "cli.snap"
    tf = ["--terraform", binary]
    assert cli("snapshot", "plan.bin", str(file), "--update", *tf, environ=env) == (0, f"{file}: wrote the snapshot\n", "")
    assert file.read_text(encoding="utf-8") == NULL_SNAPSHOT.format(greeting="hello")
    assert cli("snapshot", "plan.bin", str(file), *tf, environ=env)[0] == 0
    assert cli("snapshot", "plan.json", str(file), environ=env)[0] == 0
    status, out, _ = cli("snapshot", "plan2.bin", str(file), *tf, environ=env)
    assert status == 1
    assert out.splitlines()[:2] == ['null_resource.app: triggers["greeting"]: "hello" -> "hi"',
                                    'output.greeting: value: "hello" -> "hi"']
    assert cli("snapshot", "plan2.bin", str(file), "--update", *tf, environ=env)[0] == 0
    assert cli("snapshot", "plan2.bin", str(file), *tf, environ=env)[0] == 0


def test_null_example_through_syrupy(null_plans: tuple[Path, dict[str, str], str], pytester: pytest.Pytester) -> None:
    pytest.importorskip("syrupy", reason="the snapshot extra (syrupy) is not installed")
    work, _, _ = null_plans
    pytester.makepyfile(test_inner=INNER)
    shutil.copy(work / "plan.json", pytester.path / "plan.json")
    quiet = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider")
    pytester.runpytest(*quiet, "--snapshot-update").assert_outcomes(passed=1)
    stored = pytester.path / "__snapshots__" / "test_inner" / "test_null_example.tfplan.snap"
    assert stored.read_text(encoding="utf-8") == NULL_SNAPSHOT.format(greeting="hello")
    pytester.runpytest(*quiet).assert_outcomes(passed=1)
    shutil.copy(work / "plan2.json", pytester.path / "plan.json")
    failed = pytester.runpytest(*quiet, "-vv")
    failed.assert_outcomes(failed=1)
    text = "\n".join(failed.outlines)
    assert 'null_resource.app: triggers["greeting"]: "hello" -> "hi"' in text
    assert NULL_SECRET not in text
    pytester.runpytest(*quiet, "--snapshot-update").assert_outcomes(passed=1)
    assert stored.read_text(encoding="utf-8") == NULL_SNAPSHOT.format(greeting="hi")


def test_mocked_module_through_mock_plan_snapshot(tf_acceptance: AcceptanceRunner, tmp_path: Path,
                                                  private_tmp: Path) -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    environ = {**os.environ, "TF_IN_AUTOMATION": "1", "TFPLANCHECK_SNAPSHOT_KEY": KEY}
    file = tmp_path / "module.snap"
    base = ["mock-plan", str(EXAMPLE), "--mock", f"acme/cloud={CLOUD_SCHEMA}", "--terraform",
            tf_acceptance.terraform.path, "--snapshot", str(file)]
    secret = ["--var", f"encryption_key={SECRET}"]
    with leak_check(private_tmp) as leaks:
        assert cli(*base, *secret, "--update", environ=environ) == (0, f"{file}: wrote the snapshot\n", "")
        first = file.read_text(encoding="utf-8")
        # A second plan, in new temporary directories with new provider servers: the same snapshot.
        assert cli(*base, *secret, environ=environ) == (0, f"{file}: the plan matches its snapshot\n", "")
        status, out, _ = cli(*base, "--var", "encryption_key=another-key-value", "--var", "name=logs2", environ=environ)
    assert not leaks[0], leaks[0]
    assert status == 1
    assert out.splitlines() == [
        "cloud_bucket.logs: encryption_key: (sensitive) -> (sensitive, changed)",
        'cloud_bucket.logs: name: "logs" -> "logs2"',
        f"{file}: the plan differs from its snapshot (2 differences; accept them with --update)",
    ]
    assert file.read_text(encoding="utf-8") == first
    assert SECRET not in first
    lines = first.split("\n")
    assert "resource data.cloud_region.here" in lines
    assert "  action: read (during plan)" in lines
    assert "  encryption_key = (sensitive #" in "\n".join(lines)
    assert "  arn = (known after apply)" in lines
    assert '  name = "logs"' in lines
    assert json.dumps(SECRET)[1:-1] not in first
