"""What the pytest plugin adds to every pytest session: its import time, and a whole session's cost.

Each measurement is a fresh interpreter running ``python -X importtime -c "import pytest,
plancheck.plugin"``; the figure is the cumulative time of ``plancheck.plugin`` (the entry
point pytest imports whenever the package is installed), median of the runs, beside pytest's
own import time. Target: at most 10 ms. ``import plancheck`` alone is shown too.

Then whole sessions (#26: the goal is at most 1.05x): a project with 1 test, and one with 500,
run with the plugin and with ``-p no:plancheck``, as pairs in alternation (so drift in the machine's
load hits both), each a fresh ``python -m pytest``, with ``-q`` and without (the header: the plugin's
version and binary); the ratio of the medians is printed. Bytecode is written and read, as an install
leaves it (``PYTHONDONTWRITEBYTECODE`` is dropped: each session would compile every module again).

In two environments: this one (with the project's own test plugins, hypothesis, xdist and syrupy, which
import some of what the plugin would: ``typing_extensions``), and pytest alone: a fresh virtual
environment holding only pytest, its dependencies and tfplancheck installed from a wheel of this
checkout, as a user's project with nothing else has it (pytest's assertion rewriter then looks at every
module of ``plancheck`` and ``tfjsonpath`` a session imports, as it does for any installed plugin).

    .venv/bin/python benchmarks/bench_import.py [--runs 15] [--pairs 9] [--no-alone]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: What ``pip install pytest tfplancheck`` brings that a plain session imports (jsonschema it does not).
_PYTEST_ALONE = ("pytest", "pluggy", "iniconfig", "packaging", "Pygments", "typing_extensions")


def _environ() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}


def _cumulative_us(statement: str, module: str) -> int:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True, check=True,
        env={**_environ(), "PYTHONPATH": str(ROOT)},
    )
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1])
    raise SystemExit(f"{module} was not imported by {statement!r}")


def _session_seconds(python: str, directory: Path, path: str, *extra: str) -> float:
    started = time.perf_counter()
    subprocess.run([python, "-m", "pytest", "-p", "no:cacheprovider", *extra], cwd=directory,
                   env={**_environ(), **({"PYTHONPATH": path} if path else {})}, capture_output=True, check=True)
    return time.perf_counter() - started


def sessions(python: str, path: str, tests: int, pairs: int, *extra: str) -> tuple[float, float]:
    """Median seconds of a session of ``tests`` trivial tests with the plugin, and without it (``path``, if
    any, as ``PYTHONPATH``)."""
    directory = Path(tempfile.mkdtemp(prefix="bench-session-"))
    try:
        (directory / "pytest.ini").write_text("[pytest]\n")
        body = "".join(f"def test_{i}():\n    assert {i} == {i}\n\n\n" for i in range(tests))
        (directory / "test_plain.py").write_text(body)
        for flags in ((), ("-p", "no:plancheck")):  # warm the disk cache and write the bytecode
            _session_seconds(python, directory, path, *extra, *flags)
        with_plugin, without = [], []
        for _ in range(pairs):
            with_plugin.append(_session_seconds(python, directory, path, *extra))
            without.append(_session_seconds(python, directory, path, *extra, "-p", "no:plancheck"))
        return statistics.median(with_plugin), statistics.median(without)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def pytest_alone(folder: Path) -> str:
    """A virtual environment in ``folder`` with only pytest (and what it needs) and tfplancheck, from a wheel
    of this checkout built offline; returns its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], check=True)
    python = str(folder / "venv" / "bin" / "python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    for name in _PYTEST_ALONE:  # this environment's own copies, linked: nothing is downloaded
        dist = importlib.metadata.distribution(name)
        for top in sorted({Path(str(file)).parts[0] for file in dist.files or ()} - {"..", "__pycache__"}):
            source = Path(str(dist.locate_file(top)))
            if source.exists() and not Path(site, top).exists():
                os.symlink(source, Path(site, top))
    # The wheel is built from a copy: a build writes into the tree it builds.
    source = folder / "source"
    for part in ("plancheck", "tfjsonpath"):
        shutil.copytree(ROOT / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, source / part)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--no-build-isolation",
                    "--target", site, str(source)], check=True, env=_environ(), capture_output=True)
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--no-alone", action="store_true", help="leave out the environment with pytest alone")
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
    print(f"| environment | session | with the plugin s | -p no:plancheck s | ratio (median of {options.pairs} pairs) |")
    print("|---|---|---:|---:|---:|")
    folder = Path(tempfile.mkdtemp(prefix="bench-alone-"))
    try:
        # This checkout's code in this environment, not the tree its editable install points at (another
        # worktree's); the environment with pytest alone has this checkout's wheel.
        pythons = [("this one", sys.executable, str(ROOT))]
        if not options.no_alone:
            pythons.append(("pytest alone", pytest_alone(folder), ""))
        for label, python, path in pythons:
            for tests, extra in ((1, ("-q",)), (1, ()), (500, ("-q",))):
                plugin, plain = sessions(python, path, tests, options.pairs, *extra)
                what = f"{tests} test(s){', header' if not extra else ''}"
                print(f"| {label} | {what} | {plugin:.3f} | {plain:.3f} | {plugin / plain:.3f} |", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
