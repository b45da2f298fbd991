"""Benchmark: plancheck.tfconfig's JSON reader against the standard library's ``json``, and what each keeps.

``tfconfig`` reads ``.tf.json`` with its own scanner (``plancheck/tfconfig/_json_reader.py``) into Node trees
that keep property order, repeated names, exact numbers and each value's offset in the text. This prints,
for the ``.tf.json`` files of the real corpus (``../shared/corpus``, MANIFEST.tsv; skipped when absent) and
for a generated ~1 MB configuration (``bench_tfconfig.make_config``), the median time of

* ``reader``: ``parse_json`` (what ``parse_config``/``load_config`` use);
* ``stdlib``: ``json.loads(text, object_pairs_hook=list, parse_float=Decimal)``, the nearest stdlib route
  (keeps order, repeated names and exact fractions; no offsets);

then what the stdlib route cannot give that the reader's callers need: offsets (every Block's
``line``/``column``/``location`` and every ConfigFormatError's line and column), nesting deeper than the
recursion limit, and the located, Terraform-worded syntax errors. Corpus files that either route
refuses (the corpus keeps some that must fail) are left out of the timing. Run it with
``PYTHONPATH=. .venv/bin/python benchmarks/bench_tfconfig_reader.py [--reps R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from bench_tfconfig import make_config

from plancheck.tfconfig import ConfigFormatError
from plancheck.tfconfig._json_reader import Source, parse_json

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def corpus_configs() -> list[Path]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    rows = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    return [CORPUS / row[0] for row in rows if row[0].endswith(".tf.json") and (CORPUS / row[0]).is_file()]


def median_seconds(work: Callable[[], Any], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def stdlib(text: str) -> Any:
    return json.loads(text, object_pairs_hook=list, parse_float=Decimal)


def reader(text: str) -> Any:
    return parse_json(text, Source(None, text))


def readable(text: str) -> bool:
    """Whether both routes read ``text`` (the corpus also holds files that are meant to fail)."""
    try:
        reader(text)
        stdlib(text)
    except (ConfigFormatError, ValueError):
        return False
    return True


def compare(name: str, texts: list[str], reps: int) -> None:
    texts = [t for t in texts if readable(t)]
    size = sum(len(t) for t in texts)
    ours = median_seconds(lambda: [reader(t) for t in texts], reps)
    theirs = median_seconds(lambda: [stdlib(t) for t in texts], reps)
    print(f"{name:<34} {len(texts):>5} {size / 1e6:>8.3f} {ours * 1e3:>10.2f} {theirs * 1e3:>10.2f} {ours / theirs:>7.1f}x")


def what_stdlib_loses() -> None:
    deep = "[" * 10_000 + "]" * 10_000
    for label, work in (("reader", reader), ("stdlib", stdlib)):
        try:
            work(deep)
            print(f"  {label}: 10,000 nested arrays read")
        except RecursionError:
            print(f"  {label}: 10,000 nested arrays: RecursionError")
    bad = '{"resource": {"a": {"b": {"x": 1,}}}}'
    try:
        reader(bad)
    except ConfigFormatError as exc:
        print(f"  reader error: {exc}")
    try:
        stdlib(bad)
    except json.JSONDecodeError as exc:
        print(f"  stdlib error: {exc}")
    print("  offsets: the reader gives every value's (Block.line/column/location, error line:column); stdlib none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    print(f"{'input':<34} {'files':>5} {'MB':>8} {'reader ms':>10} {'stdlib ms':>10} {'ratio':>8}")
    files = corpus_configs()
    if files:
        compare("corpus .tf.json (MANIFEST.tsv)", [p.read_text(encoding="utf-8") for p in files], args.reps)
    else:
        print(f"corpus .tf.json: skipped ({CORPUS} has no MANIFEST.tsv)")
    compare("generated (2000 resources)", [make_config(2000)], args.reps)
    print("what the stdlib route does not keep:")
    what_stdlib_loses()


if __name__ == "__main__":
    main()
