#!/usr/bin/env python3
"""Benchmark: what ``pytest --tf-cov`` adds to a session: a 200-resource module planned by 50 tests.

A temporary project holds a module directory (``main.tf``: 200 ``terraform_data`` resources, 20 variables
with a validation each, 20 outputs, a check block) and 50 tests. Each test makes its own plan of the
module (a JSON document built in code, as ``terraform show -json`` of Terraform 1.11 prints it: resource
changes, planned values, configuration, checks), says the directory it came from (what the acceptance
runner says), and runs 6 plan checks on it (by address, by output, through a selector). The session runs
in a fresh ``python -m pytest`` process, with and without ``--tf-cov --tf-cov-report=json:PATH``; each
figure is the best of ``--reps`` runs of the process's CPU time (user + system: on a shared machine wall
time measures the neighbours as much as the code).

The sessions run as an install's do: bytecode written (``PYTHONDONTWRITEBYTECODE`` is dropped from their
environment, as ``bench_import.py`` does) and warmed by a session of each kind before any is timed, so no timed
session compiles a module.

Goal: the session with ``--tf-cov`` at most 1.05x the session without.

    python benchmarks/bench_coverage.py
    python benchmarks/bench_coverage.py --resources 2000 --tests 50 --reps 5
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = 1.05

CONFTEST = '''
import pytest
from plancheck import Plan
from plancheck._documents.met import planned_in

RESOURCES = {resources}


def plan_document(n):
    changes = [{{"address": f"terraform_data.r{{i}}", "mode": "managed", "type": "terraform_data", "name": f"r{{i}}",
                "provider_name": "terraform.io/builtin/terraform",
                "change": {{"actions": ["create"], "before": None, "after": {{"input": f"value-{{i}}-{{n}}"}},
                           "after_unknown": {{"id": True, "output": True}}, "before_sensitive": False,
                           "after_sensitive": {{}}}}}} for i in range(RESOURCES)]
    return {{
        "format_version": "1.2", "terraform_version": "1.11.4",
        "variables": {{f"v{{i}}": {{"value": "x"}} for i in range(20)}},
        "planned_values": {{"root_module": {{"resources": [
            {{"address": c["address"], "mode": "managed", "type": "terraform_data", "name": c["name"],
             "values": c["change"]["after"], "sensitive_values": {{}}}} for c in changes]}}}},
        "resource_changes": changes,
        "output_changes": {{f"o{{i}}": {{"actions": ["create"], "before": None, "after_unknown": True,
                                       "before_sensitive": False, "after_sensitive": False}} for i in range(20)}},
        "configuration": {{"root_module": {{
            "resources": [{{"address": c["address"], "mode": "managed", "type": "terraform_data", "name": c["name"]}}
                          for c in changes],
            "outputs": {{f"o{{i}}": {{}} for i in range(20)}},
            "variables": {{f"v{{i}}": {{}} for i in range(20)}},
        }}}},
        "checks": [{{"address": {{"kind": "var", "name": f"v{{i}}", "to_display": f"var.v{{i}}"}}, "status": "pass",
                    "instances": [{{"address": {{"to_display": f"var.v{{i}}"}}, "status": "pass"}}]}} for i in range(20)],
    }}


@pytest.fixture
def module_plan(request, pytestconfig):
    plan = Plan.from_dict(plan_document(request.node.callspec.params["n"]))
    planned_in(plan, pytestconfig.rootpath / "module")
    return plan
'''

TESTS = '''
import pytest
from plancheck import (ExpectEachKnownValue, ExpectKnownValue, ExpectResourceAction, ExpectUnknownOutputValue,
                       ExpectUnknownValue, ResourceAction, Resources)
from plancheck import knownvalue as kv
from tfjsonpath import New


@pytest.mark.parametrize("n", range({tests}))
def test_module(module_plan, assert_plan, n):
    assert_plan(module_plan,
                ExpectResourceAction(f"terraform_data.r{{n}}", ResourceAction.Create),
                ExpectKnownValue(f"terraform_data.r{{n}}", New("input"), kv.StringExact(f"value-{{n}}-{{n}}")),
                ExpectUnknownValue(f"terraform_data.r{{n + 1}}", New("id")),
                ExpectUnknownOutputValue(f"o{{n % 20}}"),
                ExpectEachKnownValue(Resources(address="terraform_data.r1*"), New("input"), kv.NotNull()),
                ExpectResourceAction(f"terraform_data.r{{n + 2}}", ResourceAction.Create))
'''


def module_text(resources: int) -> str:
    parts = [f'variable "v{i}" {{\n  type = string\n  validation {{\n    condition     = length(var.v{i}) > 0\n'
             f'    error_message = "v{i} is empty"\n  }}\n}}\n' for i in range(20)]
    parts += [f'resource "terraform_data" "r{i}" {{\n  input = "value-{i}"\n}}\n' for i in range(resources)]
    parts += [f'output "o{i}" {{\n  value = terraform_data.r{i}.id\n}}\n' for i in range(20)]
    parts.append('check "all" {\n  assert {\n    condition     = true\n    error_message = "never"\n  }\n}\n')
    return "\n".join(parts)


def _environ() -> dict[str, str]:
    # Without PYTHONDONTWRITEBYTECODE: a session that compiles every module measures the compiler, not the plugin.
    environ = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


def session_cpu(project: Path, extra: list[str]) -> float:
    env = _environ()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:randomly", *extra],
        cwd=project, env=env, capture_output=True, text=True, check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"the session failed:\n{result.stdout}\n{result.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--resources", type=int, default=200)
    parser.add_argument("--tests", type=int, default=50)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-coverage-") as tmp:
        project = Path(tmp)
        (project / "module").mkdir()
        (project / "module" / "main.tf").write_text(module_text(args.resources), encoding="utf-8")
        (project / "conftest.py").write_text(CONFTEST.format(resources=args.resources), encoding="utf-8")
        (project / "test_module.py").write_text(TESTS.format(tests=args.tests), encoding="utf-8")
        (project / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
        runs: dict[str, list[float]] = {"without": [], "with": []}
        session_cpu(project, [])  # writes the bytecode of what either session imports
        session_cpu(project, ["--tf-cov", "--tf-cov-report=json:tf.json"])
        for _ in range(args.reps):  # interleaved: a neighbour's burst hits both alike
            runs["without"].append(session_cpu(project, []))
            runs["with"].append(session_cpu(project, ["--tf-cov", "--tf-cov-report=json:tf.json"]))
        without, with_ = min(runs["without"]), min(runs["with"])
    ratio = with_ / without
    print(f"{args.resources} resources, {args.tests} tests, best of {args.reps} (CPU s of the session's process)")
    print(f"  without --tf-cov: {without:7.3f} s")
    print(f"  with --tf-cov:    {with_:7.3f} s")
    print(f"  ratio: {ratio:.3f} (goal <= {GOAL}) {'OK' if ratio <= GOAL else 'OVER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
