"""Benchmark: writing a run's results in each report format (``tfplancheck --format F``).

Makes a plan of N resources, each with a sensitive trigger, and N failing ExpectKnownValue checks, runs
them once, then prints the median wall time of :func:`plancheck.cli._output.render` per format and the
time per check, which stays flat when a writer is linear in the number of results (a writer that made
the run's secrets once per result was quadratic). Run it with
``PYTHONPATH=. .venv/bin/python benchmarks/bench_formats.py [--checks 2000 10000] [--reps R]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from plancheck import Plan
from plancheck.cli._checksfile import parse_checks, run_checks
from plancheck.cli._output import FORMATS, render
from plancheck.cli._registry import default_registry
from plancheck.cli._runs import PlanRun


def make_run(n: int) -> PlanRun:
    """A plan of ``n`` resources with a sensitive trigger each, and a failing check on every one."""
    changes = [
        {"address": f"null_resource.r{i}", "mode": "managed", "type": "null_resource", "name": f"r{i}",
         "change": {"actions": ["create"], "before": None, "after": {"triggers": {"k": "v", "pw": f"sek-{i}"}},
                    "after_unknown": {"id": True}, "after_sensitive": {"triggers": {"pw": True}}}}
        for i in range(n)
    ]
    plan = Plan.from_dict({"format_version": "1.2", "resource_changes": changes}, source="plan.json")
    checks = "".join(
        f'[[check]]\ntype = "ExpectKnownValue"\naddress = "null_resource.r{i}"\npath = \'triggers["k"]\'\n'
        'matcher = { type = "StringExact", value = "x" }\n'
        for i in range(n)
    )
    return PlanRun(plan, tuple(run_checks(parse_checks(checks, "checks.toml", default_registry()), plan)))


def main() -> None:
    """Print one line per format and size: median seconds and microseconds per check."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checks", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    print(f"{'format':<10} {'checks':>7} {'median s':>9} {'us/check':>9}")
    for n in args.checks:
        run = make_run(n)
        for fmt in FORMATS:
            walls = []
            for _ in range(args.reps):
                start = time.perf_counter()
                render(fmt, [run], tool_version="0")
                walls.append(time.perf_counter() - start)
            wall = statistics.median(walls)
            print(f"{fmt:<10} {n:>7} {wall:>9.3f} {wall / n * 1e6:>9.1f}")


if __name__ == "__main__":
    main()
