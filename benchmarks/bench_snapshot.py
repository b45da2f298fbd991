#!/usr/bin/env python3
"""Benchmark: a plan snapshot of a large plan, rendered and compared with its file, against loading the plan.

The plan is the reference one of ``shared/bench/gen_plan.py`` (20,000 resources, seed 1, about
200 MB). Each configuration runs in a fresh process, so its peak RSS (``ru_maxrss``) is its own:

* ``load``: ``load_plan`` with the ``stdlib`` parser (parses everything) or ``fast`` (msgspec,
  resource changes and the large members parsed on first use); ``parse``: with ``fast``, those
  parsed apart before rendering (everything a snapshot reads: the resource changes to render, the
  rest to collect the secrets from). Ratios are against load + parse: the time to have the plan in
  memory, whichever route;
* ``render``: :func:`plancheck.snapshot.render`'s work: every value of every resource change, data
  source and output walked with its marks, every string asked about the plan's secrets (which
  are collected first: "of which secrets");
* ``compare``: the rendered text against the snapshot file: ``same`` (the file holds this very
  snapshot: a text comparison) and ``differs`` (one value edited in the file: both texts read
  back into their structure and compared value by value).

Goals: render + compare under 3x the load time, peak memory under 2x the memory after loading.
``full gc s`` is the first full collection of the garbage collector after the load, timed apart
after the compare: a freshly loaded plan has one due, which visits every container of it; the
render and the compare run with the collector off (they make no cycle) and do not set it off,
so it falls to whatever the program does next (``incl. gc`` counts it in anyway).
Times are CPU seconds of the process (user + system): on a shared machine, wall time measures the
neighbours as much as the code.

    python benchmarks/bench_snapshot.py                      # 20,000 resources
    python benchmarks/bench_snapshot.py --resources 2000
    python benchmarks/bench_snapshot.py --plan my-plan.json
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
GEN_PLAN = REPO.parent / "shared" / "bench" / "gen_plan.py"
PARSERS = ("stdlib", "fast")
MODES = ("same", "differs")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _cpu() -> float:
    """CPU seconds of this process and of the helper processes it waited for (the stdlib loader's parser)."""
    own, helpers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + helpers.ru_utime + helpers.ru_stime


def _child(parser: str, plan_path: str, snap_path: str, write: bool) -> dict[str, Any]:
    """One configuration, in this (fresh) process."""
    sys.path.insert(0, str(REPO))
    from plancheck import load_plan
    from plancheck.snapshot._api import build, check_file
    from plancheck.snapshot._render import IgnoreSpec

    base = _peak_mb()
    wall = time.perf_counter()
    start = _cpu()
    plan = load_plan(plan_path, parser=parser)
    loaded = _cpu() - start
    start = _cpu()
    raw = plan.raw
    for key in list(raw):
        raw.get(key)  # a lazily parsed member is parsed on first access
    plan.resource_changes  # noqa: B018
    parsed = _cpu() - start
    after_load = _peak_mb()
    start = _cpu()
    secrets = plan.secrets
    len(secrets)  # collected here, timed apart
    collected = _cpu() - start
    text = build(plan, IgnoreSpec((), "bench"), None)
    rendered = _cpu() - start
    start = _cpu()
    if write:
        Path(snap_path).write_text(text, encoding="utf-8")
        status, differences = "written", 0
    else:
        outcome = check_file(text, secrets, snap_path, update=False)
        status, differences = outcome.status, len(outcome.lines)
    compared = _cpu() - start
    # The full collection a freshly loaded plan has due (its millions of containers not yet visited once):
    # the render and compare run with the collector off and do not set it off; whatever the program does
    # next pays it once, so it is shown, apart.
    start = _cpu()
    gc.collect()
    collected_after = _cpu() - start
    return {
        "wall_s": time.perf_counter() - wall,
        "parser": parser, "load_s": loaded, "parse_s": parsed, "secrets_s": collected, "render_s": rendered, "compare_s": compared, "gc_s": collected_after,
        "status": status, "differences": differences, "base_mb": base, "after_load_mb": after_load,
        "peak_mb": _peak_mb(), "text_mb": len(text.encode("utf-8")) / 1e6, "secrets": len(secrets),
    }


def _run_child(parser: str, plan: Path, snap: Path, write: bool = False) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", parser, str(plan), str(snap), "1" if write else "0"],
        capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"child {parser} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _edited(text: str) -> str:
    """The snapshot with one value changed, as a reviewer's edit would."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("  ") and line.endswith('"') and " = " in line:
            lines[i] = line[:-1] + 'X"'
            return "\n".join(lines)
    raise SystemExit("no string value to edit in the snapshot")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "--child":
        print(json.dumps(_child(args[1], args[2], args[3], args[4] == "1")))
        return 0
    options = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--resources", type=int, default=20000)
    options.add_argument("--plan", type=Path, help="a plan JSON file instead of a generated one")
    parsed = options.parse_args(args)
    with tempfile.TemporaryDirectory(prefix="bench-snapshot-") as tmp:
        plan = parsed.plan
        if plan is None:
            if not GEN_PLAN.is_file():
                raise SystemExit(f"no plan generator at {GEN_PLAN} (shared/bench beside the checkout)")
            plan = Path(tmp) / "plan.json"
            subprocess.run([sys.executable, str(GEN_PLAN), "--resources", str(parsed.resources), "--seed", "1",
                            "-o", str(plan)], check=True, capture_output=True)
        snap = Path(tmp) / "plan.snap"
        _run_child("fast", plan, snap, write=True)
        edited = Path(tmp) / "edited.snap"
        edited.write_text(_edited(snap.read_text(encoding="utf-8")), encoding="utf-8")
        size = plan.stat().st_size / 1e6
        print(f"plan: {plan.name}, {size:.0f} MB; snapshot {snap.stat().st_size / 1e6:.0f} MB")
        print("CPU seconds; memory is peak RSS after loading and at the end")
        print(f"{'parser':7} {'compare':8} {'load s':>7} {'parse s':>7} {'render s':>9} {'(secrets)':>9} {'compare s':>9} "
              f"{'total/load':>10} {'full gc s':>9} {'incl. gc':>8} {'load MB':>8} {'peak MB':>8} {'peak/load':>9} {'wall s':>7}")
        for parser in PARSERS:
            for mode in MODES:
                r = _run_child(parser, plan, snap if mode == "same" else edited)
                expected = ("same", 0) if mode == "same" else ("different", 1)
                assert (r["status"], r["differences"]) == expected, r
                loaded_mb = r["after_load_mb"]
                full = r["load_s"] + r["parse_s"]
                print(f"{parser:7} {mode:8} {r['load_s']:7.2f} {r['parse_s']:7.2f} {r['render_s']:9.2f} {r['secrets_s']:9.2f} "
                      f"{r['compare_s']:9.2f} {(r['render_s'] + r['compare_s']) / full:9.1f}x "
                      f"{r['gc_s']:9.2f} {(r['render_s'] + r['compare_s'] + r['gc_s']) / full:7.1f}x "
                      f"{loaded_mb:8.0f} {r['peak_mb']:8.0f} {r['peak_mb'] / loaded_mb:8.1f}x {r['wall_s']:7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
