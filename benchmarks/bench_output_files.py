"""What writing output files whole costs: ``snapshot --update`` of many files, and many ``--report`` files.

Every output file a user names goes through ``plancheck._loading.source.write_whole``: a temporary file beside it,
flushed to disk (``fsync``), renamed over it. The ``fsync`` waits for the disk, so its cost is wall time, not CPU
time; both are shown, best of ``--reps`` (the machine is shared: wall time moves with the neighbours' disk use).
``--dir`` puts the files on another file system (``/dev/shm``: a tmpfs, where ``fsync`` costs nothing, leaves the
CPU cost alone).

* ``snapshot new``: ``snapshot.assert_matches(plan, file, update=True)`` of ``--files`` one-resource plans, each to
  a file of its own that is not there yet; ``snapshot replaced``: the same files updated again, each to another
  plan's snapshot;
* ``report``: a ``--report`` file written (``plancheck.cli._io.write_report``) with each plan's snapshot text.

    .venv/bin/python benchmarks/bench_output_files.py                 # 1,000 files in the temporary directory
    .venv/bin/python benchmarks/bench_output_files.py --files 200 --reps 5 --dir /dev/shm
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from plancheck import Plan, snapshot  # noqa: E402
from plancheck.cli._io import Io, write_report  # noqa: E402


def plan(i: int) -> Plan:
    return Plan.from_json(json.dumps({"format_version": "1.2", "resource_changes": [
        {"address": f"null_resource.r{i}", "type": "null_resource", "name": f"r{i}", "mode": "managed",
         "change": {"actions": ["create"], "before": None, "after": {"triggers": {"k": str(i)}},
                    "after_unknown": {"id": True}}}]}))


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU seconds of ``work()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def run(plans: list[Plan], texts: list[str], directory: str | None) -> dict[str, tuple[float, float]]:
    """One run of each workload in a new temporary directory."""
    out = Io(io.StringIO(), io.StringIO(), None, {})
    with tempfile.TemporaryDirectory(dir=directory) as where:
        snaps = [Path(where, f"s{i}.snap") for i in range(len(plans))]
        reports = [str(Path(where, f"r{i}.json")) for i in range(len(plans))]
        replacing = plans[1:] + plans[:1]
        return {
            "snapshot new": timed(lambda: [snapshot.assert_matches(p, f, update=True)
                                           for p, f in zip(plans, snaps, strict=True)]),
            "snapshot replaced": timed(lambda: [snapshot.assert_matches(p, f, update=True)
                                                for p, f in zip(replacing, snaps, strict=True)]),
            "report": timed(lambda: [write_report(out, f, t) for f, t in zip(reports, texts, strict=True)]),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where the files go (default: the temporary directory)")
    args = parser.parse_args()
    plans = [plan(i) for i in range(args.files)]
    texts = [snapshot.render(p) for p in plans]
    runs = [run(plans, texts, args.dir) for _ in range(args.reps)]
    print("| workload | files | wall s | CPU s | ms wall per file |")
    print("|---|---:|---:|---:|---:|")
    for name in runs[0]:
        wall = min(r[name][0] for r in runs)
        cpu = min(r[name][1] for r in runs)
        print(f"| {name} | {args.files:,} | {wall:.3f} | {cpu:.3f} | {wall / args.files * 1e3:.2f} |")


if __name__ == "__main__":
    main()
