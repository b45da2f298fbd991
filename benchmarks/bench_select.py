#!/usr/bin/env python3
"""Benchmark: a whole-plan check over every resource of a large plan, against loading that plan.

The plan is the 20,000-resource reference plan ``shared/bench/gen_plan.py`` makes (the one
``bench_plan.py`` uses). Each configuration runs in a fresh process: load the plan (the standard
library route, ``json``, or the ``fast`` extra's, ``msgspec``), then run

* ``tags NotNull``: ``ExpectEachKnownValue(Resources(), New("tags"), kv.NotNull())``: every resource
  with a planned value is checked, and every one passes (the check's own cost);
* ``id regexp, unknown=pass``: ``ExpectEachKnownValue(Resources(mode="managed"), New("id"),
  kv.StringRegexp("^.+$"), unknown="pass")``: a third of the ids are unknown until apply;
* ``id regexp, unknown=warn``: the same with ``unknown="warn"``: the warning names ~7,000 resources,
  so this one also pays for what any failure message on this plan pays for: collecting the plan's
  secrets (a walk of all of it) and scrubbing them from the text (shown apart: ``secrets s``).

Target: each check under 1.5x the time of loading the plan (``check / load``). With ``msgspec``,
``load_plan`` parses the resource changes on first use, so loading is shown in two parts: ``load``
(``load_plan`` itself) and ``parse`` (the resource changes, parsed and validated when first asked for,
timed apart before the checks run); the ratio is against both, the time to have the plan's resource
changes in memory, whichever route. Both wall-clock and CPU seconds are shown (CPU: this process,
plus the standard library route's helper process while loading); on a shared machine, the CPU figures
are the steadier ones.

    python benchmarks/bench_select.py                    # 20000 resources, both parsers
    python benchmarks/bench_select.py --sizes 1000,20000 --reps 3
    python benchmarks/bench_select.py --plan my-plan.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
GEN_PLAN = REPO.parent / "shared" / "bench" / "gen_plan.py"
PARSERS = {"json": "stdlib", "msgspec": "fast"}
TARGET = 1.5


def _checks() -> list[tuple[str, Any]]:
    from plancheck import ExpectEachKnownValue, Resources
    from plancheck import knownvalue as kv
    from tfjsonpath import New

    return [
        ("tags NotNull", ExpectEachKnownValue(Resources(), New("tags"), kv.NotNull())),
        ("id regexp, unknown=pass",
         ExpectEachKnownValue(Resources(mode="managed"), New("id"), kv.StringRegexp("^.+$"), unknown="pass")),
        ("id regexp, unknown=warn",
         ExpectEachKnownValue(Resources(mode="managed"), New("id"), kv.StringRegexp("^.+$"), unknown="warn")),
    ]


def worker(route: str, plan_path: Path) -> dict[str, Any]:
    from plancheck import load_plan
    from plancheck._loading import parallel

    checks = _checks()
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    plan = load_plan(plan_path, parser=PARSERS[route])
    load_s, load_cpu = time.perf_counter() - t0, time.process_time() - c0
    load_cpu += float(parallel.last_helper_usage.get("cpu_s") or 0.0) if route == "json" else 0.0
    t0, c0 = time.perf_counter(), time.process_time()
    plan.resource_changes  # noqa: B018 - what every check over every resource reads first
    parse_s, parse_cpu = time.perf_counter() - t0, time.process_time() - c0
    rows = []
    for name, check in checks:
        t0, c0 = time.perf_counter(), time.process_time()
        found, warned = check.outcome(plan)
        check_s, check_cpu = time.perf_counter() - t0, time.process_time() - c0
        rows.append({"check": name, "check_s": check_s, "check_cpu": check_cpu, "failures": len(found),
                     "warnings": len(warned)})
    # The warning's cost, apart: collecting the secrets (done by then, so timed on a fresh plan).
    fresh = load_plan(plan_path, parser=PARSERS[route])
    fresh.resource_changes  # noqa: B018 - parsed, as the checks above had it
    t0, c0 = time.perf_counter(), time.process_time()
    len(fresh.secrets)
    secrets_s, secrets_cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"route": route, "load_s": load_s, "load_cpu": load_cpu, "parse_s": parse_s, "parse_cpu": parse_cpu,
            "checks": rows, "secrets_s": secrets_s,
            "secrets_cpu": secrets_cpu, "resources": len(plan.resource_changes)}


def _generate(resources: int, seed: int, workdir: Path) -> Path:
    out = workdir / f"plan-{resources}-seed{seed}.json"
    if out.is_file():
        return out
    if not GEN_PLAN.is_file():
        sys.exit(f"no plan given and {GEN_PLAN} is missing: pass --plan")
    print(f"generating {out} ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, str(GEN_PLAN), "--resources", str(resources), "--seed", str(seed), "-o", str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    return out


def _run(route: str, plan: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", route, "--plan", str(plan)],
                          check=True, capture_output=True, text=True, cwd=REPO)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out = dict(runs[0])
    for key in ("load_s", "load_cpu", "parse_s", "parse_cpu", "secrets_s", "secrets_cpu"):
        out[key] = statistics.median(r[key] for r in runs)
    out["checks"] = [
        {**row, **{key: statistics.median(r["checks"][i][key] for r in runs) for key in ("check_s", "check_cpu")}}
        for i, row in enumerate(runs[0]["checks"])
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plan", type=Path, help="a plan file; default: generate the reference plan")
    parser.add_argument("--sizes", default="20000", help="resources per generated plan")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reps", type=int, default=1, help="runs per configuration (the median is shown)")
    parser.add_argument("--routes", default="json,msgspec")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "plancheck-bench")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        sys.path.insert(0, str(REPO))
        print(json.dumps(worker(args.worker, args.plan)))
        return 0
    args.workdir.mkdir(parents=True, exist_ok=True)
    plans = [args.plan] if args.plan else [_generate(int(n), args.seed, args.workdir) for n in args.sizes.split(",")]
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average "
          f"{os.getloadavg()[0]:.1f}; target: check / load < {TARGET}; median of {args.reps}")
    header = (f"{'resources':>9} {'route':<8} {'load s':>7} {'cpu':>5} {'parse s':>7} {'cpu':>5}  {'check':<24} "
              f"{'check s':>8} {'cpu':>5} {'check/load':>10} {'cpu':>5}  result")
    print(header)
    print("-" * len(header))
    over = 0
    for plan in plans:
        for route in args.routes.split(","):
            r = _median([_run(route, plan) for _ in range(args.reps)])
            full_s, full_cpu = r["load_s"] + r["parse_s"], r["load_cpu"] + r["parse_cpu"]
            for row in r["checks"]:
                ratio, cpu_ratio = row["check_s"] / full_s, row["check_cpu"] / full_cpu
                result = f"{row['failures']} failures, {row['warnings']} warnings"
                print(f"{r['resources']:>9} {route:<8} {r['load_s']:7.2f} {r['load_cpu']:5.2f} {r['parse_s']:7.2f} "
                      f"{r['parse_cpu']:5.2f}  {row['check']:<24} "
                      f"{row['check_s']:8.2f} {row['check_cpu']:5.2f} {ratio:10.2f} {cpu_ratio:5.2f}  {result}", flush=True)
                if min(ratio, cpu_ratio) >= TARGET and not row["warnings"]:
                    over += 1
            print(f"{'':>9} {route:<8} {'':>7} {'':>5} {'':>7} {'':>5}  {'(collecting secrets)':<24} "
                  f"{r['secrets_s']:8.2f} {r['secrets_cpu']:5.2f} {r['secrets_s'] / full_s:10.2f} "
                  f"{r['secrets_cpu'] / full_cpu:5.2f}"
                  "  what any failure message on this plan pays first")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
