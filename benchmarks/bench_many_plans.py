"""Benchmark: many plans, one run (``tfplancheck PLAN [PLAN ...] --jobs N``).

Writes P plans of about 1 MB each (``../shared/bench/gen_plan.py`` with 100 resources and seeds 1..P, else a
generator of its own), then prints, as the median of R runs:

* the bare cost: ``load_plan`` of every plan one after the other in this process (and the checks on each);
* the command line on all of them with ``--jobs 1`` (in its own process, no pool) and ``--jobs 2`` (two forked
  workers), wall time, the ratio of the two, and the per-plan overhead of ``--jobs 1`` over the bare load and
  checks (what reading a plan as the command line does costs besides: its secrets collected for the scrub,
  the results rendered, the process started once).

Run it with ``PYTHONPATH=. .venv/bin/python benchmarks/bench_many_plans.py [--plans 200] [--reps 3]
[--format json]``; ``--keep DIR`` writes the plans there (and reuses them).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from plancheck import load_plan
from plancheck.cli._checksfile import parse_checks, run_checks
from plancheck.cli._registry import default_registry

GENERATOR = Path(__file__).resolve().parents[2] / "shared" / "bench" / "gen_plan.py"
CHECKS = """\
[[check]]
type = "ExpectNoDestroys"

[[check]]
type = "ExpectNonEmptyPlan"

[[check]]
type = "ExpectNoDeferredChanges"
"""


def _own_plan(seed: int, resources: int) -> dict[str, object]:
    """A plan of ``resources`` resources with nested values, unknowns and sensitive values (about 10 kB each)."""
    changes = []
    for i in range(resources):
        after = {"name": f"r{seed}-{i}", "tags": {f"k{j}": f"v{seed}-{i}-{j}" * 3 for j in range(40)},
                 "rules": [{"port": p, "cidr": f"10.{seed % 250}.{i % 250}.{p}/32"} for p in range(60)],
                 "password": f"pw-{seed}-{i}-secret"}
        changes.append({"address": f"aws_thing.r{i}", "mode": "managed", "type": "aws_thing", "name": f"r{i}",
                        "provider_name": "registry.terraform.io/hashicorp/aws",
                        "change": {"actions": ["create"], "before": None, "after": after,
                                   "after_unknown": {"id": True, "arn": True},
                                   "after_sensitive": {"password": True}}})
    return {"format_version": "1.2", "terraform_version": "1.7.5", "resource_changes": changes}


def make_plans(directory: Path, count: int) -> list[Path]:
    """``count`` plans of about 1 MB in ``directory`` (reused when already there)."""
    plans = [directory / f"plan{seed:03d}.json" for seed in range(1, count + 1)]
    make_plans.reused = all(path.exists() for path in plans)  # type: ignore[attr-defined]
    for seed, path in enumerate(plans, start=1):
        if path.exists():
            continue
        if GENERATOR.exists():
            subprocess.run([sys.executable, str(GENERATOR), "-n", "100", "-s", str(seed), "-o", str(path)],
                           check=True, stdout=subprocess.DEVNULL)
        else:
            path.write_text(json.dumps(_own_plan(seed, 100)), "utf-8")
    return plans


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


def bare(plans: list[Path], reps: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(wall, CPU) seconds to load every plan, and to load it and run the checks, one after the other in this process."""
    specs = parse_checks(CHECKS, "checks.toml", default_registry())
    today = datetime.date(2026, 1, 1)
    loads, totals = [], []
    for _ in range(reps):
        start, cpu = time.perf_counter(), time.process_time()
        loaded = [load_plan(path) for path in plans]
        loads.append((time.perf_counter() - start, time.process_time() - cpu))
        start, cpu = time.perf_counter(), time.process_time()
        for path in plans:
            run_checks(specs, load_plan(path), today=today)
        totals.append((time.perf_counter() - start, time.process_time() - cpu))
        del loaded
    return ((_median([w for w, _ in loads]), _median([c for _, c in loads])),
            (_median([w for w, _ in totals]), _median([c for _, c in totals])))


#: Runs the command line in a process that then reports its own CPU time and its workers' (on stderr's last line).
_TIMED = """\
import resource, sys
from plancheck.cli import main
status = main(sys.argv[1:])
me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(me.ru_utime + me.ru_stime, workers.ru_utime + workers.ru_stime, file=sys.stderr)
sys.exit(status)
"""


def command(argv: list[str], reps: int, cwd: Path) -> tuple[float, float, float]:
    """Median wall seconds of the command line on ARGV (output thrown away), its own CPU seconds and its workers'
    (user and system: what a shared machine's load does not change)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    walls, mine, theirs = [], [], []
    for _ in range(reps):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _TIMED, *argv], cwd=cwd, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        walls.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"tfplancheck {' '.join(argv[:3])} ... exited {done.returncode}: {done.stderr.decode()[-500:]}")
        own, workers = map(float, done.stderr.decode().split()[-2:])
        mine.append(own)
        theirs.append(workers)
    return _median(walls), _median(mine), _median(theirs)


def main() -> None:
    """Print the figures (see the module's doc)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plans", type=int, default=200)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--format", default="json")
    parser.add_argument("--keep", type=Path, help="write the plans here (and reuse them)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-many-plans-") as tmp:
        directory = args.keep or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        plans = make_plans(directory, args.plans)
        (directory / "checks.toml").write_text(CHECKS, "utf-8")
        size = statistics.mean(p.stat().st_size for p in plans) / 1e6
        source = ("reused from --keep" if getattr(make_plans, "reused", False) else
                  "gen_plan.py" if GENERATOR.exists() else "its own generator")
        print(f"{len(plans)} plans of {size:.2f} MB on average (from {source}), {os.cpu_count()} CPUs, "
              f"Python {sys.version.split()[0]}, median of {args.reps}")
        (load_s, load_cpu), (checked_s, checked_cpu) = bare(plans, args.reps)
        start_s, start_cpu, _ = command(["--version"], args.reps, directory)
        names = [p.name for p in plans]
        walls = {jobs: command([*names, "-c", "checks.toml", "--format", args.format, "--jobs", str(jobs)], args.reps,
                               directory) for jobs in (1, 2)}
        n = len(plans)
        print(f"{'what':<44} {'total s':>8} {'ms/plan':>8} {'CPU s':>7} {'workers CPU s':>14}")
        print(f"{'load_plan, one after the other (in-process)':<44} {load_s:>8.2f} {load_s / n * 1e3:>8.1f} {load_cpu:>7.2f}")
        print(f"{'load_plan + 3 checks (in-process)':<44} {checked_s:>8.2f} {checked_s / n * 1e3:>8.1f} {checked_cpu:>7.2f}")
        print(f"{'tfplancheck --version (process start)':<44} {start_s:>8.2f} {'':>8} {start_cpu:>7.2f}")
        for jobs, (wall, cpu, workers) in walls.items():
            print(f"{f'tfplancheck {n} plans --jobs {jobs} --format {args.format}':<44} {wall:>8.2f} {wall / n * 1e3:>8.1f} "
                  f"{cpu:>7.2f} {workers:>14.2f}")
        overhead = (walls[1][0] - start_s - checked_s) / n * 1e3
        overhead_cpu = (walls[1][1] - start_cpu - checked_cpu) / n * 1e3
        # On two idle cores the wall time is at least the command's own CPU time plus half its workers' (each worker
        # on a core of its own): what the ratio would be without other work on the machine.
        ideal = (walls[2][1] + walls[2][2] / 2) / walls[1][1]
        print(f"CPU critical path, --jobs 2 / --jobs 1 (own + workers / 2, over --jobs 1's own): {ideal:.2f}")
        print(f"--jobs 2 / --jobs 1: {walls[2][0] / walls[1][0]:.2f} (goal <= 0.6 on 2 cores); "
              f"--jobs 1 over the bare load and checks: {overhead:.1f} ms/plan wall, {overhead_cpu:.1f} ms/plan CPU")


if __name__ == "__main__":
    main()
