"""The installed programs (``tfplancheck`` console script, ``python -m plancheck``) as a user runs them.

Few and grouped: every Python start costs ~0.3 s. The e2e tests make a real binary plan with the pinned
Terraform 1.0.3 and null provider 2.1.2 (installed into the venv by ``make``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "null"
SCHEMA = json.loads((ROOT / "plancheck" / "schemas" / "cli-output.schema.json").read_text("utf-8"))
SCRIPT = Path(sys.executable).parent / "tfplancheck"
SECRET = "Planted-Secret-9f2c"
EXAMPLE_SECRET = "correct-horse-battery-staple"  # the example's sensitive default

VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

PLAN = {
    "format_version": "1.2",
    "variables": {"pw": {"value": SECRET}},
    "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
    "resource_changes": [{
        "address": "null_resource.a", "type": "null_resource", "name": "a", "mode": "managed",
        "change": {"actions": ["create"], "before": None,
                   "after": {"triggers": {"plain": "p", "secret": SECRET}},
                   "after_unknown": {"id": True, "triggers": {}},
                   "before_sensitive": False, "after_sensitive": {"triggers": {"secret": True}}},
    }],
}


def _run(argv: Sequence[str], *, stdin: bytes = b"", cwd: Path | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        list(argv), input=stdin.decode(), capture_output=True, text=True, cwd=cwd, timeout=300, check=False,
        env={**os.environ, "NO_COLOR": "", **(env or {})},
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert SECRET not in done.stdout + done.stderr
    assert EXAMPLE_SECRET not in done.stdout + done.stderr
    return done


def test_console_script_and_module_exit_codes_stdin_and_json(tmp_path: Path) -> None:
    assert SCRIPT.is_file(), f"console script not installed at {SCRIPT}"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(PLAN), "utf-8")
    checks = tmp_path / "checks.toml"
    checks.write_text('[[check]]\ntype = "ExpectSensitiveValue"\naddress = "null_resource.a"\n'
                      'path = \'triggers["secret"]\'\n', "utf-8")

    passed = _run([str(SCRIPT), str(plan), "--checks", str(checks), "--unknown", "null_resource.a", "id"])
    assert passed.returncode == 0, passed.stderr
    assert passed.stdout.splitlines()[-1] == f"2 checks in {plan}: 2 passed, 0 failed"

    # python -m plancheck, the plan on stdin, a failing check whose message would show the secret.
    failed = _run([sys.executable, "-m", "plancheck", "-", "--unknown", "null_resource.a", 'triggers["secret"]',
                   "--format", "json"], stdin=json.dumps(PLAN).encode())
    assert failed.returncode == 1
    doc = json.loads(failed.stdout)
    VALIDATOR.validate(doc)
    assert doc["results"][0]["failures"][0]["message"] == "expected an unknown value, but it is known: (sensitive)"

    usage = _run([str(SCRIPT), str(plan)])
    assert (usage.returncode, usage.stdout) == (2, "")
    assert usage.stderr.startswith("tfplancheck: error: no checks given")


def _pinned() -> tuple[Path, object] | None:
    from tools.pinned import find_null_provider, find_pinned_terraform

    terraform, provider = find_pinned_terraform(), find_null_provider()
    if terraform is None or provider is None:
        return None
    return terraform, provider


def _require_pinned() -> tuple[Path, object]:
    found = _pinned()
    if found is None:
        message = "pinned Terraform 1.0.3 / null provider 2.1.2 not installed (run `make test`)"
        if os.environ.get("TFPLANCHECK_REQUIRE_E2E") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def binary_plan(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    """examples/null planned with the pinned Terraform: (work dir, environment, terraform binary)."""
    terraform, provider = _require_pinned()
    from plancheck._terraform.binary import (
        ProviderBinary,
        build_provider_mirror,
        terraform_environment,
        write_cli_config,
    )

    assert isinstance(provider, ProviderBinary)
    base = tmp_path_factory.mktemp("e2e")
    work = base / "null"
    shutil.copytree(EXAMPLE, work)
    mirror = build_provider_mirror(base / "mirror", [provider])
    rc = write_cli_config(base / "tf.rc", mirror, [provider.source])
    env = terraform_environment(os.environ, data_dir=work / ".terraform", cli_config=rc)
    for step in (["init", "-input=false", "-no-color"], ["plan", "-input=false", "-no-color", "-out=plan.bin"]):
        done = subprocess.run([str(terraform), *step], cwd=work, env=env, capture_output=True, text=True,
                              timeout=300, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    return work, env, terraform


@pytest.mark.e2e
def test_e2e_binary_plan_is_read_through_terraform_show(binary_plan: tuple[Path, dict[str, str], Path]) -> None:
    work, env, terraform = binary_plan
    tf = ["--terraform", str(terraform)]
    passed = _run([str(SCRIPT), "plan.bin", *tf, "--checks", str(EXAMPLE / "checks.toml")], cwd=work, env=env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert 'PASS  ExpectSensitiveValue: null_resource.app: triggers["password"]' in passed.stdout.splitlines()
    assert "FAIL" not in passed.stdout

    # A binary plan on stdin; the JSON checks file; JSON output; then one failing check.
    with open(work / "plan.bin", "rb") as f:
        data = f.read()
    # text-mode stdin cannot carry a zip archive, so this one runs with bytes.
    done = subprocess.run(
        [sys.executable, "-m", "plancheck", "-", *tf, "--checks", str(EXAMPLE / "checks.json"),
         "--unknown", "null_resource.app", 'triggers["password"]', "--format", "json"],
        input=data, capture_output=True, cwd=work, env=env, timeout=300, check=False,
    )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert EXAMPLE_SECRET not in out + err
    assert "Traceback" not in err
    assert done.returncode == 1, err
    doc = json.loads(out)
    VALIDATOR.validate(doc)
    assert doc["plan"]["terraform_version"] == "1.0.3"
    assert [r["status"] for r in doc["results"]].count("fail") == 1

    query = _run([str(SCRIPT), "query", "plan.bin", *tf, "null_resource.app", "triggers"], cwd=work, env=env)
    assert query.returncode == 0, query.stderr
    assert query.stdout.splitlines()[-1] == (
        '  value:     {"greeting": "hello", "password": (sensitive), "replicas": "3"}')


@pytest.mark.e2e
def test_e2e_demo_plans_the_example_and_every_check_passes() -> None:
    _require_pinned()
    done = _run([sys.executable, "-m", "tools.demo"], cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    # The commands as a user types them (the demo runs the same entry point as python -m plancheck).
    assert "$ tfplancheck plan.bin --checks checks.toml" in lines
    assert "$ tfplancheck query plan.bin null_resource.app triggers" in lines
    assert not any("python" in line for line in lines if line.startswith("$ "))
    assert "PASS  ExpectUnknownValue: null_resource.app: id" in lines
    assert "9 checks in plan.bin: 9 passed, 0 failed" in lines
    # The one deliberate failure shows the redacted value, and the demo still exits 0.
    assert ('FAIL  ExpectUnknownValue: null_resource.app: triggers["password"]: '
            "expected an unknown value, but it is known: (sensitive)") in lines
    assert "(exit status 1)" in lines
    # The provider written in Python, served in the demo's process: three steps, and its secret never printed.
    assert "PASS  step 3: a new name forces replacement: a new id" in lines
    assert "widget-demo-passphrase" not in done.stdout + done.stderr
    # The acceptance tests, seconds each, say what they are doing as they go: each command as it starts.
    first = lines.index("  [step 1/2 init] terraform init -input=false -no-color ...")
    assert lines[first + 1] == "  [step 1/2 pre_apply] terraform plan -input=false -no-color -out=tfplan ..."
    assert first < lines.index("PASS  step 1 pre-apply plan: ExpectResourceAction: null_resource.app")
    assert "  [step 3/3 destroy] terraform destroy -auto-approve -input=false -no-color -refresh=false ..." in lines
    assert lines[-1] == "demo: all checks passed"


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_says_what_its_first_install_does_before_it_starts(tmp_path: Path) -> None:
    # The first `make demo` installs for a minute or two, quietly: it says so first. (-n: nothing runs.)
    done = subprocess.run(["make", "-n", "demo", f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    install = next(i for i, line in enumerate(lines) if "pip install" in line)
    said = [line for line in lines[:install] if line.startswith("echo ")]
    assert said == [
        f'echo "make: installing tfplancheck, its extras and the pinned Terraform 1.0.3 with its providers (null, lxd, '
        f'vSphere) '
        f'into {tmp_path / "venv"} (the first time only: a minute or two, quietly)"'
    ]
