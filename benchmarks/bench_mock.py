"""Seconds per terraform command with the null provider mocked (``MockProvider``, served in this process) beside the real one.

The same configuration (ten ``null_resource`` with triggers, one ``null_data_source``) goes
through ``init``, ``plan``, ``apply``, a refreshing ``plan`` and ``destroy``, once with the real
null provider 2.1.2 (installed from a local filesystem mirror) and once with a ``MockProvider``
built from that provider's own schema (``tests/mock/null_2.1.2.schema.json``) and reattached.
Median of ``--reps`` runs, interleaved.

The second table does the same for a module of 200 resources (``null_resource`` with ``count = 100``
and ``for_each`` over 100 keys, three ``null_data_source`` with ``count``), called from a root
module, with the plan saved, read back (``show -json``) and applied as the acceptance runner does.
A third column serves the mock with a per-address ``mock_data`` key for one of the data sources:
its plan is made in passes until every read has its address's defaults (``plancheck/_terraform/providers/planning.py``),
so ``plan`` there is every pass and ``show -json`` every read-back; the difference from the mock
column is what the second plan costs.

    .venv/bin/python benchmarks/bench_mock.py               # terraform on PATH, and the pinned 1.0.3
    .venv/bin/python benchmarks/bench_mock.py --reps 5 --terraform /usr/local/bin/terraform
    .venv/bin/python benchmarks/bench_mock.py --only module  # the 200-resource table only
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools.pinned: the pinned binaries of the source checkout

from plancheck._terraform.binary import (  # noqa: E402
    TerraformBinary,
    build_provider_mirror,
    discover_terraform,
    inspect_binary,
    run_command,
    terraform_environment,
    write_cli_config,
)
from plancheck._terraform.mock.provider import MockProvider  # noqa: E402
from plancheck._terraform.providers.planning import settled_plan  # noqa: E402
from plancheck.acceptance import ProviderServer  # noqa: E402
from tools.pinned import NULL_PROVIDER_SOURCE, find_null_provider, find_pinned_terraform  # noqa: E402

NULL_SCHEMA = ROOT / "tests" / "mock" / "null_2.1.2.schema.json"
COMMANDS = [
    ("init", ["init", "-input=false", "-no-color"]),
    ("plan", ["plan", "-input=false", "-no-color", "-refresh=false"]),
    ("apply", ["apply", "-input=false", "-no-color", "-auto-approve"]),
    ("plan (refresh)", ["plan", "-input=false", "-no-color"]),
    ("destroy", ["destroy", "-input=false", "-no-color", "-auto-approve"]),
]
CONFIG = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

resource "null_resource" "r" {
  count    = 10
  triggers = { index = count.index }
}

data "null_data_source" "d" {
  inputs = { a = "b" }
}
"""


MODULE_ROOT = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

module "fleet" {
  source = "./fleet"
}
"""
MODULE_FLEET = """
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "2.1.2" }
  }
}

resource "null_resource" "counted" {
  count    = 100
  triggers = { index = count.index }
}

resource "null_resource" "each" {
  for_each = toset([for i in range(100) : "k${i}"])
  triggers = { key = each.key }
}

data "null_data_source" "d" {
  count  = 3
  inputs = { index = count.index }
}
"""
MODULE_COMMANDS = ["init", "plan", "show -json", "apply", "plan (refresh)", "destroy"]
#: One data source gets its own defaults: the plan is made twice (the second pass reads it with them).
PER_ADDRESS = {"null_data_source": {"random": "by-type"}, "module.fleet.data.null_data_source.d[1]": {"random": "one"}}


def module_run(
    terraform: TerraformBinary, env: dict[str, str], directory: Path, served: list[object]
) -> tuple[dict[str, float], dict[str, int]]:
    """Seconds per command of the 200-resource module (the plan saved, read back and applied, as the runner does),
    and how many times each ran."""
    (directory / "fleet").mkdir(parents=True)
    (directory / "main.tf").write_text(MODULE_ROOT, encoding="utf-8")
    (directory / "fleet" / "main.tf").write_text(MODULE_FLEET, encoding="utf-8")
    times: dict[str, float] = dict.fromkeys(MODULE_COMMANDS, 0.0)
    counts: dict[str, int] = {}

    def tf(name: str, *argv: str) -> str:
        result = run_command([terraform.path, *argv], cwd=directory, env=env, timeout=600)
        if not result.ok:
            raise SystemExit(f"terraform {argv[0]} failed:\n{result.stderr or result.stdout}")
        times[name] += result.duration
        counts[name] = counts.get(name, 0) + 1
        return result.stdout

    import json

    tf("init", "init", "-input=false", "-no-color")
    settled_plan(served, lambda: tf("plan", "plan", "-input=false", "-no-color", "-out=tfplan"),
                 lambda: json.loads(tf("show -json", "show", "-json", "tfplan")), always_show=True)
    tf("apply", "apply", "-input=false", "-no-color", "tfplan")
    tf("plan (refresh)", "plan", "-input=false", "-no-color")
    tf("destroy", "destroy", "-input=false", "-no-color", "-auto-approve")
    return times, counts


def bench_module(terraform: TerraformBinary, reps: int, work: Path, cli_config: Path) -> dict[str, dict[str, list[float]]]:
    found: dict[str, dict[str, list[float]]] = {k: defaultdict(list) for k in ("real", "mock", "per-address")}
    for rep in range(reps):
        real_dir = work / f"module-real-{terraform.version}-{rep}"
        env = terraform_environment(os.environ, data_dir=real_dir / ".tfdata", cli_config=cli_config)
        for name, seconds in module_run(terraform, env, real_dir, [])[0].items():
            found["real"][name].append(seconds)
        for kind, mock_data in (("mock", None), ("per-address", PER_ADDRESS)):
            mock_dir = work / f"module-{kind}-{terraform.version}-{rep}"
            mock = MockProvider.from_schema_file(NULL_SCHEMA, NULL_PROVIDER_SOURCE, mock_data=mock_data)
            instance = mock()
            with ProviderServer(NULL_PROVIDER_SOURCE, instance) as server:
                env = terraform_environment(os.environ, data_dir=mock_dir / ".tfdata", cli_config=cli_config)
                env.update(server.environment())
                times, counts = module_run(terraform, env, mock_dir, [instance])
                for name, seconds in times.items():
                    found[kind][name].append(seconds)
                found[kind]["plans made"].append(counts["plan"])
    return found


def one_run(terraform: TerraformBinary, env: dict[str, str], directory: Path) -> dict[str, float]:
    directory.mkdir()
    (directory / "main.tf").write_text(CONFIG, encoding="utf-8")
    times: dict[str, float] = {}
    for name, argv in COMMANDS:
        result = run_command([terraform.path, *argv], cwd=directory, env=env, timeout=300)
        if not result.ok:
            raise SystemExit(f"terraform {argv[0]} failed:\n{result.stderr or result.stdout}")
        times[name] = result.duration
    return times


def bench(terraform: TerraformBinary, reps: int, work: Path, cli_config: Path) -> dict[str, dict[str, list[float]]]:
    found: dict[str, dict[str, list[float]]] = {"real": defaultdict(list), "mock": defaultdict(list)}
    for rep in range(reps):
        real_dir = work / f"real-{terraform.version}-{rep}"
        env = terraform_environment(os.environ, data_dir=real_dir / ".tfdata", cli_config=cli_config)
        for name, seconds in one_run(terraform, env, real_dir).items():
            found["real"][name].append(seconds)
        mock_dir = work / f"mock-{terraform.version}-{rep}"
        mock = MockProvider.from_schema_file(NULL_SCHEMA, NULL_PROVIDER_SOURCE)
        with ProviderServer(NULL_PROVIDER_SOURCE, mock) as server:
            env = terraform_environment(os.environ, data_dir=mock_dir / ".tfdata", cli_config=cli_config)
            env.update(server.environment())
            for name, seconds in one_run(terraform, env, mock_dir).items():
                found["mock"][name].append(seconds)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--terraform", help="a terraform binary (default: PATH's and the pinned 1.0.3)")
    parser.add_argument("--only", choices=("small", "module"), help="one table only")
    args = parser.parse_args()
    binaries: list[TerraformBinary] = []
    if args.terraform:
        binaries.append(inspect_binary(args.terraform))
    else:
        for candidate in (discover_terraform(), find_pinned_terraform()):
            if candidate is not None:
                binary = candidate if isinstance(candidate, TerraformBinary) else inspect_binary(candidate)
                if all(b.version != binary.version for b in binaries):
                    binaries.append(binary)
    null = find_null_provider()
    if not binaries or null is None:
        raise SystemExit("needs terraform and the pinned null provider (make test installs it)")
    work = Path(tempfile.mkdtemp(prefix="tfpc-bench-mock-"))
    try:
        mirror = build_provider_mirror(work / "mirror", [null])
        cli_config = write_cli_config(work / "terraform.rc", mirror, [NULL_PROVIDER_SOURCE])
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        if args.only != "module":
            print(f"median of {args.reps} runs; seconds per command; 10 null_resource + 1 null_data_source; load {load}")
            print()
            print("| terraform | command | real null 2.1.2 s | MockProvider s | mock / real |")
            print("|---|---|---:|---:|---:|")
            for binary in binaries:
                found = bench(binary, args.reps, work, cli_config)
                for name, _ in COMMANDS:
                    real = statistics.median(found["real"][name])
                    mock = statistics.median(found["mock"][name])
                    print(f"| {binary.version} | {name} | {real:.3f} | {mock:.3f} | {mock / real:.2f} |")
            print()
        if args.only != "small":
            print(f"median of {args.reps} runs; seconds per command; a module of 200 null_resource (count 100, "
                  f"for_each 100) + 3 null_data_source; load {load}")
            print()
            print("| terraform | command | real null 2.1.2 s | MockProvider s | mock / real "
                  "| mock, per-address mock_data s |")
            print("|---|---|---:|---:|---:|---:|")
            for binary in binaries:
                found = bench_module(binary, args.reps, work, cli_config)
                for name in MODULE_COMMANDS:
                    real, mock, passes = (statistics.median(found[k][name]) for k in ("real", "mock", "per-address"))
                    print(f"| {binary.version} | {name} | {real:.3f} | {mock:.3f} | {mock / real:.2f} | {passes:.3f} |")
                made = [statistics.median(found[k]["plans made"]) for k in ("mock", "per-address")]
                print(f"| {binary.version} | plans made before apply | 1 | {made[0]:.0f} | | {made[1]:.0f} |")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
