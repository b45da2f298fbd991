"""Benchmark: reading a large checks file (``tfplancheck --checks FILE``), TOML and JSON.

Writes checks files of N ``[[check]]`` tables (ExpectUnknownValue, ExpectSensitiveValue and
ExpectKnownValue + StringExact in turn, as a generated suite would) and prints the median
wall time of :func:`plancheck.cli._checksfile.load_checks_file` and the time per check, which
stays flat when reading is linear in the number of checks. Run it with
``.venv/bin/python benchmarks/bench_checksfile.py [--checks 20000 50000] [--reps R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from plancheck.cli._checksfile import load_checks_file
from plancheck.cli._registry import default_registry


def make_checks(n: int) -> list[dict[str, object]]:
    """``n`` check tables cycling over the three commonest kinds."""
    tables: list[dict[str, object]] = []
    for i in range(n):
        address = f"null_resource.r{i}"
        kind = i % 3
        if kind == 0:
            tables.append({"type": "ExpectUnknownValue", "address": address, "path": "id"})
        elif kind == 1:
            tables.append({"type": "ExpectSensitiveValue", "address": address, "path": 'triggers["password"]'})
        else:
            tables.append({"type": "ExpectKnownValue", "address": address, "path": 'triggers["greeting"]',
                           "matcher": {"type": "StringExact", "value": f"hello {i}"}})
    return tables


def to_toml(tables: list[dict[str, object]]) -> str:
    """The tables as a TOML checks file, one ``[[check]]`` header each."""
    parts: list[str] = []
    for table in tables:
        lines = ["[[check]]"]
        for key, value in table.items():
            if isinstance(value, dict):
                inline = ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items())
                lines.append(f"{key} = {{ {inline} }}")
            else:
                lines.append(f"{key} = {json.dumps(value)}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def measure(path: Path, reps: int) -> float:
    """Median wall time of reading ``path`` as a checks file."""
    registry = default_registry()
    walls: list[float] = []
    for _ in range(reps):
        start = time.perf_counter()
        load_checks_file(str(path), registry)
        walls.append(time.perf_counter() - start)
    return statistics.median(walls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checks", type=int, nargs="+", default=[20000, 50000])
    parser.add_argument("--reps", type=int, default=1)
    args = parser.parse_args()
    default_registry()  # discovered once, outside the timings
    print(f"{'checks':>8} {'format':>6} {'MB':>6} {'wall s':>8} {'µs/check':>9}")
    with tempfile.TemporaryDirectory(prefix="bench-checksfile-") as tmp:
        for n in args.checks:
            tables = make_checks(n)
            files = {
                "toml": (Path(tmp) / f"checks{n}.toml", to_toml(tables)),
                "json": (Path(tmp) / f"checks{n}.json", json.dumps({"check": tables}, indent=1)),
            }
            for fmt, (path, text) in files.items():
                path.write_text(text, "utf-8")
                wall = measure(path, args.reps)
                print(f"{n:>8} {fmt:>6} {len(text) / 1e6:>6.2f} {wall:>8.3f} {wall / n * 1e6:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
