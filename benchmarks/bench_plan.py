#!/usr/bin/env python3
"""Benchmark: load, validate and index a large plan, then run checks on it.

The workload is the one the Go reference was measured with (``shared/bench``): load a
``terraform show -json`` plan made by ``gen_plan.py`` and run 1000 ExpectUnknownValue,
1000 ExpectSensitiveValue and 1000 ExpectKnownValue + StringExact checks on the targets
its sidecar file lists. Each configuration runs in a fresh process, so its peak RSS
(``ru_maxrss``) is its own:

* ``naive``: a baseline measured in the same run: ``json.load`` with the collector on,
  then, per check, a linear scan of ``resource_changes`` and the Go traversal (a port
  of terraform-plugin-testing's logic, written here);
* ``stdlib``: plancheck with the standard library parser (plus its helper process,
  whose peak memory is shown apart);
* ``fast``: plancheck with the ``fast`` extra (msgspec).

It also times 100,000 more checks on every plan ("100k checks s": the sidecar's targets
cycled over the three kinds, after the first 3000; the cost of a check must not grow
with the plan) and loading a 10 KB plan. Ratios are to the naive baseline of the
same run and to the Go figures in ``shared/bench/results/baseline_2core_seed1.jsonl``.

    python benchmarks/bench_plan.py                      # 1000, 5000 and 20000 resources
    python benchmarks/bench_plan.py --sizes 20000 --reps 3
    python benchmarks/bench_plan.py --plan my-plan.json  # checks from my-plan.json.checks.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SHARED_BENCH = REPO.parent / "shared" / "bench"
GEN_PLAN = SHARED_BENCH / "gen_plan.py"
GO_RESULTS = SHARED_BENCH / "results" / "baseline_2core_seed1.jsonl"
IMPLS = ("naive", "stdlib", "fast")
MANY_CHECKS = 100_000

# Targets on the largest plan, as fractions of the Go reference (time: load + checks).
TARGETS = {"stdlib": (0.25, 0.60), "fast": (0.10, 0.35)}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# -- the naive baseline: Go's logic, ported ------------------------------------------------------


class _PathError(Exception):
    pass


def _traverse(value: Any, steps: Sequence[str | int]) -> Any:
    for step in steps:
        if isinstance(step, str):
            if not isinstance(value, dict) or step not in value:
                raise _PathError(step)
        elif not isinstance(value, list) or step >= len(value):
            raise _PathError(step)
        value = value[step]
    return value


def _naive_find(plan: dict[str, Any], address: str) -> dict[str, Any] | None:
    for rc in plan.get("resource_changes") or ():
        if rc["address"] == address:
            return rc  # type: ignore[no-any-return]
    return None


def _naive_unknown(plan: dict[str, Any], address: str, steps: Sequence[str | int]) -> bool:
    rc = _naive_find(plan, address)
    if rc is None:
        return False
    try:
        return _traverse(rc["change"].get("after_unknown"), steps) is True
    except _PathError:
        return False


def _naive_sensitive(plan: dict[str, Any], address: str, steps: Sequence[str | int]) -> bool:
    rc = _naive_find(plan, address)
    if rc is None:
        return False
    try:
        return _traverse(rc["change"].get("after_sensitive"), steps) is True
    except _PathError:
        return False


def _naive_known(plan: dict[str, Any], address: str, steps: Sequence[str | int], value: str) -> bool:
    rc = _naive_find(plan, address)
    if rc is None:
        return False
    try:
        return _traverse(rc["change"].get("after"), steps) == value
    except _PathError:
        return False


# -- plancheck's checks -----------------------------------------------------------------------------


def _plancheck_checks(
    targets: dict[str, list[dict[str, Any]]], k: int
) -> tuple[str, list[Callable[[Any], bool]]]:
    """The checks, built with plancheck's public API (or resolve_value where the checks are missing)."""
    from tfjsonpath import Path as JsonPath

    def path(steps: Sequence[str | int]) -> JsonPath:
        return JsonPath().join(*steps)

    try:
        from plancheck import ExpectKnownValue, ExpectSensitiveValue, ExpectUnknownValue
        from plancheck.knownvalue import StringExact
    except ImportError:
        from plancheck import resolve_value

        def resolved(plan: Any, address: str, steps: Sequence[str | int]) -> Any:
            change = plan.resource_change(address).change
            return resolve_value(change.after, change.after_unknown, change.after_sensitive, path(steps))

        checks: list[Callable[[Any], bool]] = []
        for t in targets["unknown"][:k]:
            checks.append(lambda p, t=t: resolved(p, t["address"], t["path"]).unknown)
        for t in targets["sensitive"][:k]:
            checks.append(lambda p, t=t: resolved(p, t["address"], t["path"]).sensitive)
        for t in targets["known"][:k]:
            checks.append(lambda p, t=t: resolved(p, t["address"], t["path"]).value == t["value"])
        return "resolve_value", checks
    built: list[Any] = [ExpectUnknownValue(t["address"], path(t["path"])) for t in targets["unknown"][:k]]
    built += [ExpectSensitiveValue(t["address"], path(t["path"])) for t in targets["sensitive"][:k]]
    built += [
        ExpectKnownValue(t["address"], path(t["path"]), StringExact(t["value"])) for t in targets["known"][:k]
    ]
    return "plancheck checks", [lambda p, c=c: not c.failures(p) for c in built]


# -- one configuration, in its own process --------------------------------------------------------


def worker(impl: str, plan_path: Path, checks_path: Path, k: int, many: int) -> dict[str, Any]:
    with open(checks_path, "rb") as f:
        targets = json.load(f)
    unknown = [(t["address"], t["path"]) for t in targets["unknown"][:k]]
    sensitive = [(t["address"], t["path"]) for t in targets["sensitive"][:k]]
    known = [(t["address"], t["path"], t["value"]) for t in targets["known"][:k]]
    api = "Go logic, linear scan"
    if impl != "naive":
        import plancheck  # noqa: F401 - imported before the clock starts, as the checks are built

        api, checks = _plancheck_checks(targets, k)
        if many:
            _, all_checks = _plancheck_checks(targets, len(targets["unknown"]))
            extra = [all_checks[i % len(all_checks)] for i in range(many)]
    del targets
    gc.collect()
    rss_before = _peak_mb()
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    if impl == "naive":
        with open(plan_path, "rb") as f:
            plan: Any = json.load(f)
    else:
        from plancheck import load_plan

        plan = load_plan(plan_path, parser="stdlib" if impl == "stdlib" else "fast")
    load_s = time.perf_counter() - t0
    load_cpu_s = time.process_time() - cpu0
    t0 = time.perf_counter()
    if impl == "naive":
        passed = [_naive_unknown(plan, a, s) for a, s in unknown]
        passed += [_naive_sensitive(plan, a, s) for a, s in sensitive]
        passed += [_naive_known(plan, a, s, v) for a, s, v in known]
    else:
        passed = [check(plan) for check in checks]
    checks_s = time.perf_counter() - t0
    result: dict[str, Any] = {
        "impl": impl,
        "api": api,
        "load_s": load_s,
        # CPU seconds tell more than wall time on a shared machine (the helper's are added below).
        "load_cpu_s": load_cpu_s,
        "checks_s": checks_s,
        "checks": len(passed),
        "failed": passed.count(False),
        "rss_before_mb": rss_before,
        "peak_mb": _peak_mb(),
    }
    if impl != "naive" and many:
        t0 = time.perf_counter()
        failed = sum(1 for check in extra if not check(plan))
        result.update(many=many, many_s=time.perf_counter() - t0, many_failed=failed)
        # Again, now that every resource those checks read has been parsed: the check alone.
        t0 = time.perf_counter()
        sum(1 for check in extra if not check(plan))
        result.update(many_warm_s=time.perf_counter() - t0)
    if impl == "stdlib":
        from plancheck._loading import parallel as _parallel

        usage = dict(_parallel.last_helper_usage)
        if usage.get("peak_kb"):
            result.update(helper_peak_mb=usage["peak_kb"] / 1024.0, helper_cpu_s=usage.get("cpu_s"))
            result["load_cpu_s"] += usage.get("cpu_s") or 0.0
    return result


def small_worker(impl: str, plan_path: Path, reps: int) -> dict[str, Any]:
    from plancheck import load_plan

    parser = "stdlib" if impl == "stdlib" else "fast"
    data = plan_path.read_bytes()
    load_plan(data, parser=parser)  # the first load compiles the schema
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        load_plan(data, parser=parser)
        times.append(time.perf_counter() - t0)
    return {"impl": impl, "bytes": len(data), "load_us": statistics.median(times) * 1e6}


def repeats_worker(plan_path: Path, entries: int) -> dict[str, Any]:
    """What refusing repeated keys costs on each route, CPU seconds, best of 3 (see ``jsontext``).

    * ``fast``: the walk of the top level against msgspec's members, at load; the colon count
      after msgspec parses each of the first ``entries`` resource changes, on their first read
      (the parse alone beside it);
    * ``stdlib``: the C scanner parsing ``resource_changes`` with the ``object_pairs_hook`` that
      sees every key, beside the same scanner without it (the helper process pays the same share
      on what it checks).
    """
    import json as _json
    from decimal import Decimal

    from plancheck._loading.jsontext import fast_decoder, repeats_ruled_out, stdlib_scan
    from plancheck._loading.split import members_proven_unique

    data = plan_path.read_bytes()

    def best(run: Callable[[], Any]) -> float:
        times = []
        for _ in range(3):
            t0 = time.process_time()
            run()
            times.append(time.process_time() - t0)
        return min(times)

    gc.disable()
    result: dict[str, Any] = {"impl": "repeats", "bytes": len(data), "entries": entries}
    if _fast_available():
        import msgspec

        top = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
        result["top_walk_s"] = best(lambda: members_proven_unique(data, top))
        raws = msgspec.json.decode(top["resource_changes"], type=list[msgspec.Raw])[:entries]
        decode = fast_decoder().decode
        result["fast_parse_s"] = best(lambda: [decode(raw) for raw in raws])
        result["fast_parse_proof_s"] = best(lambda: [repeats_ruled_out(raw, decode(raw)) for raw in raws])
        del top, raws
    text = data.decode("utf-8")
    start = text.index("[", text.index('"resource_changes"'))
    plain = _json.JSONDecoder(parse_float=Decimal).scan_once  # type: ignore[attr-defined]
    hooked = stdlib_scan()
    result["stdlib_parse_s"] = best(lambda: plain(text, start))
    result["stdlib_parse_hook_s"] = best(lambda: hooked(text, start))
    return result


# -- the driver ----------------------------------------------------------------------------------


def _small_plan() -> bytes:
    """A plan of about 10 KB: sixteen resources with a dozen attributes each, and an output."""
    changes = []
    for i in range(16):
        after = {f"attr_{j}": f"value-{i}-{j}" for j in range(10)}
        after.update(count=i, ratio=i / 4, tags={"env": "prod", "team": "core"}, ports=[80, 443])
        changes.append({
            "address": f"aws_instance.web[{i}]", "mode": "managed", "type": "aws_instance", "name": "web",
            "index": i, "provider_name": "registry.terraform.io/hashicorp/aws",
            "change": {"actions": ["create"], "before": None, "after": after,
                       "after_unknown": {"id": True, "arn": True, "tags": {}, "ports": [False, False]},
                       "before_sensitive": False, "after_sensitive": {"tags": {}, "ports": [False, False]}},
        })  # fmt: skip
    document = {
        "format_version": "1.2", "terraform_version": "1.7.5", "resource_changes": changes,
        "output_changes": {"ip": {"actions": ["create"], "before": None, "after": None, "after_unknown": True,
                                  "before_sensitive": False, "after_sensitive": False}},
        "applyable": True, "complete": True, "errored": False,
    }  # fmt: skip
    return json.dumps(document, separators=(",", ":")).encode()


def _fast_available() -> bool:
    try:
        import msgspec  # noqa: F401
    except ImportError:
        return False
    return True


def _generate(resources: int, seed: int, workdir: Path) -> Path:
    out = workdir / f"plan-{resources}-seed{seed}.json"
    if out.is_file() and Path(f"{out}.checks.json").is_file():
        return out
    if not GEN_PLAN.is_file():
        sys.exit(f"no plan given and {GEN_PLAN} is missing: pass --plan")
    print(f"generating {out} ...", file=sys.stderr, flush=True)
    subprocess.run(
        [sys.executable, str(GEN_PLAN), "--resources", str(resources), "--seed", str(seed), "-o", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return out


def _run(args: list[str]) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _go_figures(resources: int, k: int) -> dict[str, float] | None:
    if not GO_RESULTS.is_file():
        return None
    rows = [json.loads(line) for line in GO_RESULTS.read_text().splitlines() if line.strip()]
    rows = [
        r
        for r in rows
        if r.get("impl") == "go-tfexec" and r.get("resources") == resources and r.get("k") == k
    ]
    if not rows:
        return None
    return {key: statistics.median(r[key] for r in rows) for key in ("load_s", "checks_s", "peak_rss_mb")}


def _median_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    out = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, float):
            out[key] = statistics.median(r[key] for r in runs)
    return out


def _machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return f"{os.cpu_count()} CPUs, {model}, Python {sys.version.split()[0]}{load}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--plan", type=Path, help="a plan file (its checks: PLAN.checks.json); default: generate"
    )
    parser.add_argument("--sizes", default="1000,5000,20000", help="resources per generated plan")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--k", type=int, default=1000, help="checks per kind")
    parser.add_argument("--reps", type=int, default=1, help="runs per configuration (the median is shown)")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "plancheck-bench")
    parser.add_argument("--impls", default=",".join(IMPLS))
    parser.add_argument("--json", type=Path, help="also write the results here, one JSON object per line")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--checks", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--many", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--small", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        if args.worker == "repeats":
            result = repeats_worker(args.plan, args.k * 3)
        elif args.small:
            result = small_worker(args.worker, args.plan, args.small)
        else:
            result = worker(args.worker, args.plan, args.checks, args.k, args.many)
        print(json.dumps(result))
        return 0

    impls = [i for i in args.impls.split(",") if i != "fast" or _fast_available()]
    args.workdir.mkdir(parents=True, exist_ok=True)
    if args.plan:
        plans = [(None, args.plan)]
    else:
        plans = [(n, _generate(n, args.seed, args.workdir)) for n in (int(s) for s in args.sizes.split(","))]
    print(f"machine: {_machine()}")
    results: list[dict[str, Any]] = []
    header = (
        f"{'resources':>9} {'impl':<7} {'load s':>7} {'checks s':>8} {'total s':>7} {'peak MB':>8} "
        f"{'helper MB':>9} {'vs naive':>8} {'vs Go time':>10} {'vs Go peak':>10} {'100k checks s':>13} {'load CPU s':>10}"
    )
    print(header)
    print("-" * len(header))
    for resources, plan_path in plans:
        checks_path = Path(f"{plan_path}.checks.json")
        if resources is None:
            resources = len(json.loads(plan_path.read_bytes()).get("resource_changes") or ())
        go = _go_figures(resources, args.k)
        naive_total = None
        for impl in impls:
            extra = ["--many", str(MANY_CHECKS)] if impl != "naive" else []
            runs = [
                _run(
                    [
                        "--worker",
                        impl,
                        "--plan",
                        str(plan_path),
                        "--checks",
                        str(checks_path),
                        "--k",
                        str(args.k),
                        *extra,
                    ]
                )
                for _ in range(args.reps)
            ]
            r = _median_runs(runs)
            r["resources"] = resources
            total = r["load_s"] + r["checks_s"]
            if impl == "naive":
                naive_total = total
            vs_naive = f"{total / naive_total:8.3f}" if naive_total else f"{'-':>8}"
            vs_go = f"{total / (go['load_s'] + go['checks_s']):10.3f}" if go else f"{'-':>10}"
            vs_go_peak = f"{r['peak_mb'] / go['peak_rss_mb']:10.3f}" if go else f"{'-':>10}"
            helper = f"{r['helper_peak_mb']:9.0f}" if r.get("helper_peak_mb") else f"{'-':>9}"
            many = f"{r['many_s']:13.3f}" if r.get("many") else f"{'-':>13}"
            print(
                f"{resources:>9} {impl:<7} {r['load_s']:7.3f} {r['checks_s']:8.3f} {total:7.3f} {r['peak_mb']:8.0f} "
                f"{helper} {vs_naive} {vs_go} {vs_go_peak} {many} {r.get('load_cpu_s', 0.0):10.3f}",
                flush=True,
            )
            if r["failed"]:
                print(f"  !! {r['failed']} of {r['checks']} checks failed", flush=True)
            r.update(go=go, naive_total_s=naive_total)
            results.append(r)
        if go:
            print(f"{resources:>9} {'Go':<7} {go['load_s']:7.3f} {go['checks_s']:8.3f} "
                  f"{go['load_s'] + go['checks_s']:7.3f} {go['peak_rss_mb']:8.0f}  (reference, from {GO_RESULTS.name})")  # fmt: skip

    print()
    for r in results:
        if r.get("many"):
            print(f"{r['impl']}: 100k checks s: {r['many']:,} more checks on {r['resources']} resources: {r['many_s']:.3f} s "
                  f"({r['many_s'] / r['many'] * 1e6:.1f} us each, {r['many_failed']} failed; checks via {r['api']}); "
                  f"again, every resource parsed: {r['many_warm_s']:.3f} s")  # fmt: skip
    small = args.workdir / "small-plan.json"
    small.write_bytes(_small_plan())
    for impl in impls:
        if impl != "naive":
            s = _run(["--worker", impl, "--plan", str(small), "--small", "2000"])
            print(
                f"{impl}: load + validate a {s['bytes'] / 1024:.1f} KB plan: {s['load_us']:.0f} us (median of 2000)"
            )
            results.append(s)
    if plans:
        # What refusing an object that repeats a key costs, on the largest plan (``repeats_worker``).
        rp = _run(["--worker", "repeats", "--plan", str(plans[-1][1]), "--k", str(args.k)])
        if "top_walk_s" in rp:
            print(f"repeated keys, fast: the top level walked at load: {rp['top_walk_s'] * 1e3:.1f} ms; "
                  f"the first parse of {rp['entries']} resource changes: {rp['fast_parse_s']:.3f} s, "
                  f"{rp['fast_parse_proof_s']:.3f} s with the colon count "
                  f"(+{rp['fast_parse_proof_s'] - rp['fast_parse_s']:.3f} s)")  # fmt: skip
        print(f"repeated keys, stdlib: parsing resource_changes: {rp['stdlib_parse_s']:.3f} s, "
              f"{rp['stdlib_parse_hook_s']:.3f} s with the object_pairs_hook "
              f"(+{(rp['stdlib_parse_hook_s'] / rp['stdlib_parse_s'] - 1) * 100:.0f} %) (CPU s, best of 3)")  # fmt: skip
        results.append(rp)
    biggest = max(r.get("resources", 0) for r in results)
    for r in results:
        target = TARGETS.get(r["impl"])
        if target and r.get("go") and r.get("resources") == biggest:
            go = r["go"]
            time_ratio = (r["load_s"] + r["checks_s"]) / (go["load_s"] + go["checks_s"])
            peak_ratio = r["peak_mb"] / go["peak_rss_mb"]
            ok = time_ratio <= target[0] and peak_ratio <= target[1]
            print(f"target {r['impl']}: time {time_ratio:.3f} <= {target[0]}, peak {peak_ratio:.3f} <= {target[1]}: "
                  f"{'met' if ok else 'NOT MET'}")  # fmt: skip
    if args.json:
        with args.json.open("a") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
