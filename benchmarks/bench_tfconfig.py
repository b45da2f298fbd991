"""Benchmark: reading a generated ~1 MB Terraform JSON configuration with plancheck.tfconfig.

Prints the median wall and CPU time of ``parse_config`` over a few runs. Run it with
``.venv/bin/python benchmarks/bench_tfconfig.py [--resources N] [--reps R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from plancheck.tfconfig import parse_config


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
    walls, cpus = [], []
    for _ in range(args.reps):
        w0, c0 = time.perf_counter(), time.process_time()
        parse_config(text)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    print(f"tfconfig read: {len(text) / 1e6:.2f} MB, {args.resources} resources, {args.reps} runs")
    print(f"median wall {statistics.median(walls):.3f} s, median CPU {statistics.median(cpus):.3f} s")


if __name__ == "__main__":
    main()
