"""What the pytest plugin adds to every pytest start: the import time of its entry point module.

Each measurement is a fresh interpreter running ``python -X importtime -c "import pytest,
plancheck.plugin"``; the figure is the cumulative time of ``plancheck.plugin`` (the entry
point pytest imports whenever the package is installed), median of the runs, beside pytest's
own import time. Target: at most 10 ms. ``import plancheck`` alone is shown too.

    .venv/bin/python benchmarks/bench_import.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys


def _cumulative_us(statement: str, module: str) -> int:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True
    )
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1])
    raise SystemExit(f"{module} was not imported by {statement!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    rows = [
        ("pytest itself", "import pytest", "pytest"),
        ("plancheck.plugin (entry point), after pytest", "import pytest, plancheck.plugin", "plancheck.plugin"),
        ("import plancheck", "import plancheck", "plancheck"),
        ("import plancheck.knownvalue (first real use)", "import plancheck.knownvalue", "plancheck.knownvalue"),
    ]
    print(f"| what | median ms ({runs} fresh interpreters) | min ms |")
    print("|---|---:|---:|")
    for label, statement, module in rows:
        times = [_cumulative_us(statement, module) / 1000 for _ in range(runs)]
        print(f"| {label} | {statistics.median(times):.1f} | {min(times):.1f} |")


if __name__ == "__main__":
    main()
