"""What the pytest plugin adds to every pytest session: its import time, and a whole session's cost.

Each measurement is a fresh interpreter running ``python -X importtime -c "import pytest,
plancheck.plugin"``; the figure is the cumulative time of ``plancheck.plugin`` (the entry
point pytest imports whenever the package is installed), median of the runs, beside pytest's
own import time. Target: at most 10 ms. ``import plancheck`` alone is shown too.

Then whole sessions (#26: the goal is at most 1.05x): a project with 1 test, and one with 500,
run with the plugin and with ``-p no:plancheck``, as pairs in alternation (so drift in the machine's
load hits both), each a fresh ``python -m pytest -q``; the ratio of the medians is printed.

    .venv/bin/python benchmarks/bench_import.py [--runs 15] [--pairs 9]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _cumulative_us(statement: str, module: str) -> int:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True
    )
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1])
    raise SystemExit(f"{module} was not imported by {statement!r}")


def _session_seconds(directory: Path, *extra: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra], cwd=directory,
                   capture_output=True, check=True)
    return time.perf_counter() - started


def sessions(tests: int, pairs: int) -> tuple[float, float]:
    """Median seconds of a session of ``tests`` trivial tests with the plugin, and without it."""
    directory = Path(tempfile.mkdtemp(prefix="bench-session-"))
    try:
        (directory / "pytest.ini").write_text("[pytest]\n")
        body = "".join(f"def test_{i}():\n    assert {i} == {i}\n\n\n" for i in range(tests))
        (directory / "test_plain.py").write_text(body)
        _session_seconds(directory)  # warm the disk cache and the bytecode
        with_plugin, without = [], []
        for _ in range(pairs):
            with_plugin.append(_session_seconds(directory))
            without.append(_session_seconds(directory, "-p", "no:plancheck"))
        return statistics.median(with_plugin), statistics.median(without)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--pairs", type=int, default=9)
    options = parser.parse_args()
    runs = options.runs
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
    print()
    print(f"| session | with the plugin s | -p no:plancheck s | ratio (median of {options.pairs} pairs) |")
    print("|---|---:|---:|---:|")
    for tests in (1, 500):
        plugin, plain = sessions(tests, options.pairs)
        print(f"| {tests} test(s) | {plugin:.3f} | {plain:.3f} | {plugin / plain:.3f} |")


if __name__ == "__main__":
    main()
