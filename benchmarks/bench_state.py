"""Loading a large state: the split route (resource values parsed on first read) beside a full parse.

    python benchmarks/bench_state.py [--resources 20000] [--seed 1]

The state is the ``prior_state`` of a plan from ``../shared/bench/gen_plan.py``, written as a
``terraform show -json`` state. Each figure is measured in a fresh process (median of 3): seconds
to ``load_state`` it, the same plus one state check, and the peak memory of the process; and the CPU
seconds to collect its secrets (what a failure first asks for: ``State.secrets``), best of 3.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GEN_PLAN = ROOT.parent / "shared" / "bench" / "gen_plan.py"


def _peak_mb() -> float:
    """This process's peak resident memory (VmHWM: ru_maxrss would include what the parent used before exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(path: str, route: str) -> dict[str, Any]:
    import plancheck
    import plancheck._loading.load as load
    from plancheck import knownvalue, statecheck
    from tfjsonpath import New

    if route == "full":
        load.LAZY_STATE_MIN_BYTES = 1 << 62  # type: ignore[misc]
    data = Path(path).read_bytes()
    started = time.perf_counter()
    state = plancheck.load_state(data)
    loaded = time.perf_counter() - started
    address = state.resources[len(state.resources) // 2].address
    statecheck.ExpectKnownValue(address, New("id"), knownvalue.NotNull()).CheckState(state)
    checked = time.perf_counter() - started
    cpu = time.process_time()
    secrets = len(state.secrets)
    collected = time.process_time() - cpu
    peak = _peak_mb()
    return {"load": loaded, "check": checked, "peak_mb": peak, "resources": len(state.resources),
            "secrets": collected, "secret_count": secrets}


def _state_file(resources: int, seed: int, directory: Path) -> Path:
    plan = directory / "plan.json"
    subprocess.run([sys.executable, str(GEN_PLAN), "-n", str(resources), "-s", str(seed), "-o", str(plan)],
                   check=True, capture_output=True)
    document = json.loads(plan.read_bytes())
    state = {"format_version": "1.0", "terraform_version": "1.11.4", "values": document["prior_state"]["values"]}
    path = directory / "state.json"
    path.write_text(json.dumps(state))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return 0
    if not GEN_PLAN.is_file():
        print(f"bench_state: {GEN_PLAN} is not there", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        path = _state_file(args.resources, args.seed, Path(tmp))
        size = path.stat().st_size / 1e6
        print(f"state: {size:.1f} MB (prior_state of gen_plan.py --resources {args.resources} --seed {args.seed})")
        for route in ("split", "full"):
            runs = [json.loads(subprocess.run([sys.executable, __file__, "--worker", str(path), route], check=True,
                                              capture_output=True, text=True).stdout) for _ in range(3)]
            load = statistics.median(r["load"] for r in runs)
            check = statistics.median(r["check"] for r in runs)
            peak = statistics.median(r["peak_mb"] for r in runs)
            secrets = min(r["secrets"] for r in runs)
            print(f"{route:>5}: load_state {load:.3f} s, + one state check {check:.3f} s, "
                  f"peak {peak:.0f} MB ({runs[0]['resources']} resources); "
                  f"its {runs[0]['secret_count']} secrets collected in {secrets:.3f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
