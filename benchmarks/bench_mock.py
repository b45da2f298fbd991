"""Seconds per terraform command with the null provider mocked (``MockProvider``, served in this process) beside the real one.

The same configuration (ten ``null_resource`` with triggers, one ``null_data_source``) goes
through ``init``, ``plan``, ``apply``, a refreshing ``plan`` and ``destroy``, once with the real
null provider 2.1.2 (installed from a local filesystem mirror) and once with a ``MockProvider``
built from that provider's own schema (``tests/mock/null_2.1.2.schema.json``) and reattached.
Median of ``--reps`` runs, interleaved.

    .venv/bin/python benchmarks/bench_mock.py               # terraform on PATH, and the pinned 1.0.3
    .venv/bin/python benchmarks/bench_mock.py --reps 5 --terraform /usr/local/bin/terraform
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

from plancheck._terraform import (  # noqa: E402
    TerraformBinary,
    build_provider_mirror,
    discover_terraform,
    inspect_binary,
    run_command,
    terraform_environment,
    write_cli_config,
)
from plancheck.acceptance import ProviderServer  # noqa: E402
from plancheck.acceptance._mock import MockProvider  # noqa: E402
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
        print(f"median of {args.reps} runs; seconds per command; 10 null_resource + 1 null_data_source")
        print()
        print("| terraform | command | real null 2.1.2 s | MockProvider s | mock / real |")
        print("|---|---|---:|---:|---:|")
        for binary in binaries:
            found = bench(binary, args.reps, work, cli_config)
            for name, _ in COMMANDS:
                real = statistics.median(found["real"][name])
                mock = statistics.median(found["mock"][name])
                print(f"| {binary.version} | {name} | {real:.3f} | {mock:.3f} | {mock / real:.2f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
