#!/usr/bin/env python3
"""Benchmark: matching an address glob with many stars, the shape that made the old matcher backtrack.

For 1 to 20 stars, the pattern ``*a*a*...*a*b`` (``n`` stars) is matched against a 200-character
address that it does not match (``x`` then ``a`` repeated: every ``a`` is a place a star could end, and
no ``b``), and against one it matches (the same with ``b`` at the end): through ``Resources(address=...)``
(an address glob, with its optional trailing instance key) and ``Resources(type=...)`` (a plain glob),
as every check, ``except_`` and mock-provider key does. The pattern ``*[*]`` forms (brackets) run on
the automaton, shown too. Figures are microseconds per match, median of ``--reps`` runs of
``--number`` matches each; the time must stay flat as stars are added.

The regular expressions the globs compiled to before (``.*a.*a...``) are timed for 1 to 6 stars only
(``--old``): past that one match takes seconds, then minutes.

    python benchmarks/bench_glob.py
    python benchmarks/bench_glob.py --old --reps 5
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

LENGTH = 200


def _time(match: Any, text: str, number: int, reps: int) -> float:
    runs = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(number):
            match(text)
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs) * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--old", action="store_true", help="also time the old regular expressions (1 to 6 stars)")
    args = parser.parse_args(argv)

    from plancheck import ResourceChange, Resources

    miss = "x" + "a" * (LENGTH - 1)
    hit = "x" + "a" * (LENGTH - 2) + "b"
    print(f"address of {LENGTH} characters; microseconds per match (median of {args.reps} x {args.number})")
    header = "| stars | address glob, no match | address glob, match | type glob, no match | bracketed glob, no match |"
    if args.old:
        header += " old regex, no match |"
    print(header)
    print("|---:|---:|---:|---:|---:|" + ("---:|" if args.old else ""))
    for stars in range(1, 21):
        pattern = "*a" * (stars - 1) + "*b"
        address = Resources(address=pattern)
        typed = Resources(type=pattern)
        bracketed = Resources(address=pattern + "[*]")

        def by_address(text: str, selector: Resources = address) -> bool:
            return selector.matches(ResourceChange._of({"address": text}, None))

        def by_type(text: str, selector: Resources = typed) -> bool:
            return selector.matches(ResourceChange._of({"address": "x.y", "type": text}, None))

        def by_bracket(text: str, selector: Resources = bracketed) -> bool:
            return selector.matches(ResourceChange._of({"address": text}, None))

        if by_address(miss) or not by_address(hit) or by_type(miss) or by_bracket(miss):
            raise SystemExit(f"wrong verdict for {pattern!r}")
        row = [
            _time(by_address, miss, args.number, args.reps),
            _time(by_address, hit, args.number, args.reps),
            _time(by_type, miss, args.number, args.reps),
            _time(by_bracket, miss, max(1, args.number // 10), args.reps),
        ]
        cells = [f"{stars}", *(f"{v:.1f}" for v in row)]
        if args.old:
            if stars <= 6:
                old = re.compile(".*a" * (stars - 1) + ".*b", re.DOTALL)
                cells.append(f"{_time(old.fullmatch, miss, max(1, args.number // 100), 1):.1f}")
            else:
                cells.append("-")
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
