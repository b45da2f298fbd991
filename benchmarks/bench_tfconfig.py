"""Benchmark: reading a generated ~1 MB Terraform JSON configuration with plancheck.tfconfig.

Prints the median wall and CPU time of ``parse_config`` over a few runs, then of ``load_config`` on a
module directory holding the same configuration and an ``override.tf.json`` that overrides one
argument of every resource (the cost of merging override files). Run it with
``.venv/bin/python benchmarks/bench_tfconfig.py [--resources N] [--reps R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from plancheck.tfconfig import load_config, parse_config


def make_config(n: int) -> str:
    """A configuration of ``n`` aws_instance resources with the usual special arguments."""
    resources = {
        f"web_{i}": {
            "ami": "${data.aws_ami.ubuntu.id}",
            "instance_type": "t3.micro",
            "tags": {"Name": f"web ${{var.env}} {i}", "Cost": 1.5},
            "depends_on": ["aws_vpc.main"],
            "lifecycle": {"ignore_changes": ["tags"]},
            "provisioner": [{"local-exec": {"command": "echo hi"}}],
        }
        for i in range(n)
    }
    return json.dumps({"resource": {"aws_instance": resources}}, indent=2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--resources", type=int, default=2200)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    text = make_config(args.resources)
    walls, cpus = _time(lambda: parse_config(text), args.reps)
    print(f"tfconfig read: {len(text) / 1e6:.2f} MB, {args.resources} resources, {args.reps} runs")
    print(f"median wall {statistics.median(walls):.3f} s, median CPU {statistics.median(cpus):.3f} s")
    override = {"resource": {"aws_instance": {f"web_{i}": {"instance_type": "t3.large"} for i in range(args.resources)}}}
    with tempfile.TemporaryDirectory() as directory:
        Path(directory, "main.tf.json").write_text(text, encoding="utf-8")
        Path(directory, "override.tf.json").write_text(json.dumps(override), encoding="utf-8")
        walls, cpus = _time(lambda: load_config(directory), args.reps)
    print(f"with override.tf.json merged (load_config of the directory), {args.reps} runs")
    print(f"median wall {statistics.median(walls):.3f} s, median CPU {statistics.median(cpus):.3f} s")


def _time(work: Callable[[], object], reps: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(reps):
        w0, c0 = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return walls, cpus

if __name__ == "__main__":
    main()
