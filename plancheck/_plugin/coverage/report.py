"""The coverage reports: the JSON contract (docs/reference/coverage-json.md), the term table, and what they share.

A module's percent is (planned items + asserted items + condition outcomes seen) / (items + assertable items
+ 2 x conditions) x 100, rounded to two decimals (:func:`.data.percent`: an item that no check can address,
such as a variable, counts once); the session's the same over every module; nothing to cover is 100. ``--tf-cov-report`` takes ``term`` (the default), ``json:PATH`` and ``html:DIR``
(:func:`parse_report`); ``tfplancheck coverage combine`` reads data files and writes the same reports.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from ..._errors import TfCheckError
from ..._loading.source import why_unread, write_whole
from ..._text import one_line
from .data import (
    CoverageData,
    CoverageDataError,
    ItemData,
    ModuleData,
    assertable,
    counts,
    percent,
    percent_of,
)

__all__ = [
    "COMBINE_HELP",
    "FORMAT_VERSION",
    "ReportSpecError",
    "coverage_command",
    "fails_under",
    "json_report",
    "parse_report",
    "percent_argument",
    "read_data",
    "term_lines",
    "write_data",
    "write_reports",
]

#: The JSON report's ``format_version``: "2" since an item no check can address counts once in ``percent``.
FORMAT_VERSION: Final = "2"
_REPORT_KINDS: Final = ("term", "json", "html")


class ReportSpecError(TfCheckError, ValueError):
    """A ``--tf-cov-report``/``--report`` value that names no report: the value and what is accepted.

    >>> str(ReportSpecError("xml"))
    "coverage report 'xml': expected term, json:PATH or html:DIR"
    """

    def __init__(self, spec: str) -> None:
        self.spec = spec
        super().__init__(f"coverage report {spec!r}: expected term, json:PATH or html:DIR")


def parse_report(spec: str) -> tuple[str, str | None]:
    """``term``, ``json:PATH`` or ``html:DIR`` as (kind, target).

    >>> parse_report("json:cov.json"), parse_report("term")
    (('json', 'cov.json'), ('term', None))
    """
    kind, sep, target = spec.partition(":")
    if kind not in _REPORT_KINDS or (kind == "term") == bool(sep) or (sep and not target):
        raise ReportSpecError(spec)
    return kind, (target or None)


def _item_json(address: str, item: ItemData) -> dict[str, Any]:
    conditions = []
    for key in item.conditions:
        kind, _, index = key.partition(":")
        conditions.append({"kind": kind, "index": int(index), "passed": key in item.passed, "failed": key in item.failed})
    return {
        "kind": item.kind, "address": address, "planned": item.planned, "actions": sorted(item.actions),
        "assertable": assertable(address, item), "asserted": item.asserted, "asserted_paths": sorted(item.paths),
        "conditions": conditions,
    }


def json_report(data: CoverageData) -> dict[str, Any]:
    """The JSON report of ``data`` (docs/reference/coverage-json.md): modules by name, items by address.

    >>> json_report(CoverageData())
    {'format_version': '2', 'percent': 100.0, 'modules': []}
    """
    modules = []
    summed = (0, 0, 0, 0, 0, 0)
    for key, module in sorted(data.modules.items()):
        found = counts(module.items.items())
        summed = tuple(a + b for a, b in zip(summed, found, strict=True))  # type: ignore[assignment]  # six ints
        modules.append({
            "module": key, "percent": percent_of(found),
            "conditions_available": module.checks_available,
            "items": [_item_json(address, item) for address, item in sorted(module.items.items())],
        })
    # The session's percent: every module's counts summed (each item counted once, as over all items at once).
    return {"format_version": FORMAT_VERSION, "percent": percent_of(summed), "modules": modules}


def _missed(module: ModuleData) -> list[str]:
    items = sorted(module.items.items())
    parts = []
    unplanned = [a for a, i in items if not i.planned]
    if unplanned:
        parts.append("not planned: " + ", ".join(unplanned))
    unasserted = [a for a, i in items if not i.asserted and assertable(a, i)]
    if unasserted:
        parts.append("not asserted: " + ", ".join(unasserted))
    ways = []
    for address, item in items:
        for key in item.conditions:
            kind, _, index = key.partition(":")
            missing = [way for way, seen in (("passing", item.passed), ("failing", item.failed)) if key not in seen]
            if missing:
                ways.append(f"{address} {kind}[{index}] {' nor '.join(missing)}")
    if ways:
        parts.append("conditions not seen: " + ", ".join(ways))
    return parts


def term_lines(data: CoverageData) -> list[str]:
    """The term report: a row per module (items, planned, asserted of the assertable items, condition outcomes
    seen of both ways, percent), a total, and per module the names of what was missed. ``n/a``: no plan of the
    module could say its conditions' outcomes (Terraform before 1.5).

    >>> print("\\n".join(term_lines(CoverageData())))
    Terraform coverage: no module was planned
    """
    if not data.modules:
        return ["Terraform coverage: no module was planned"]
    rows = [("Module", "Items", "Planned", "Asserted", "Conditions", "Percent")]
    every: list[tuple[str, ItemData]] = []
    for key, module in sorted(data.modules.items()):
        n, planned, asserted, can, conditions, seen = counts(module.items.items())
        every.extend(module.items.items())
        shown = f"{seen}/{2 * conditions}" if module.checks_available or not conditions else "n/a"
        # A key is a directory's name or a source string: escaped, so it can neither restyle nor start a line.
        rows.append((one_line(key), str(n), str(planned), f"{asserted}/{can}", shown,
                     f"{percent(module.items.items()):.2f}%"))
    n, planned, asserted, can, conditions, seen = counts(every)
    rows.append(("TOTAL", str(n), str(planned), f"{asserted}/{can}", f"{seen}/{2 * conditions}", f"{percent(every):.2f}%"))
    widths = [max(len(row[i]) for row in rows) for i in range(6)]

    def line(row: Sequence[str]) -> str:
        return "  ".join([row[0].ljust(widths[0]), *(cell.rjust(widths[i + 1]) for i, cell in enumerate(row[1:]))])

    out = [f"Terraform coverage: {len(data.modules)} module{'s' if len(data.modules) != 1 else ''}", line(rows[0])]
    out.append("-" * len(out[-1]))
    out.extend(line(row) for row in rows[1:-1])
    out.append("-" * len(out[1]))
    out.append(line(rows[-1]))
    missed = [(key, _missed(module)) for key, module in sorted(data.modules.items())]
    if any(parts for _, parts in missed):
        out.append("Missed:")
        for key, parts in missed:
            out.extend(f"  {one_line(key)}: {part}" for part in parts)
    return out


def percent_argument(text: str) -> float:
    """The argparse type of a coverage minimum (``--tf-cov-fail-under``, ``coverage combine --fail-under``).

    float() also reads nan, inf and numbers out of range: a minimum over 100 always fails, NaN failed with
    "total of 100.00% is less than nan%", a negative one never fails. They are usage errors.

    >>> percent_argument("61.2")
    61.2
    >>> percent_argument("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid percentage 'nan': expected a number from 0 to 100
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 100:  # NaN compares false
        raise argparse.ArgumentTypeError(f"invalid percentage {text!r}: expected a number from 0 to 100")
    return value


def fails_under(data: CoverageData, minimum: float) -> str | None:
    """The line saying the total is below ``minimum``, or None when it is not.

    >>> fails_under(CoverageData(), 100)
    """
    total = json_report(data)["percent"]
    if total + 1e-9 >= minimum:
        return None
    return f"Terraform coverage failure: total of {total:.2f}% is less than --tf-cov-fail-under={minimum:g}%"


def write_reports(
    data: CoverageData, specs: Sequence[tuple[str, str | None]], rootdir: Path, term: Callable[[str], None],
    scrub: Callable[[str], str] | None = None, base: Path | None = None,
) -> list[str]:
    """Write every report of ``specs``; the term lines go to ``term``. Returns the files and directories written.

    Local modules are read below ``rootdir``; a relative report path is below ``base`` (default: ``rootdir``).
    ``scrub`` hides the session's secrets in the HTML report's source text.
    """
    written = []
    for kind, target in specs:
        if kind == "term":
            for text in term_lines(data):
                term(text)
            continue
        assert target is not None
        path = Path(target) if os.path.isabs(target) else (base or rootdir) / target
        try:
            if kind == "json":
                # Compact, as coverage.py's `coverage json` without --pretty-print: json.dumps with an indent is
                # pure Python (before 3.14) and took 26 M instructions of the bench's session; `python -m json.tool`
                # indents it for a reader.
                write_whole(path, json.dumps(json_report(data)) + "\n")
            else:
                from .html import write_html  # only for an HTML report

                write_html(data, path, rootdir, scrub)
        except OSError as exc:
            # A write that fails once its file is open (a full disk) names no file: the report's, then.
            exc.filename = exc.filename or str(path)
            raise
        written.append(str(path))
    return written


# -- tfplancheck coverage combine --------------------------------------------------------------------

COMBINE_HELP: Final = """\
examples:
  tfplancheck coverage combine shard-1.tfcov shard-2.tfcov --report json:coverage.json
  tfplancheck coverage combine shards/*.tfcov --report term --report html:tf-htmlcov --fail-under 80

Each DATA file is what `pytest --tf-cov --tf-cov-data=PATH` wrote; they merge in any order.
Exit status: 0, 1 when the total is under --fail-under, 2 for bad input.
"""


def coverage_command(args: Any, io: Any) -> int:
    """Run ``coverage combine``: read every data file, merge, write the reports; 1 under ``--fail-under``."""
    try:
        specs = [parse_report(spec) for spec in (args.report or ["term"])]
    except ReportSpecError as exc:
        return int(io.fail("usage", str(exc), False))
    merged = CoverageData()
    for name in args.data:
        try:
            merged.merge(read_data(name))
        except CoverageDataError as exc:
            return int(io.fail("coverage", str(exc), False))
    if args.data_file:
        try:
            write_data(merged, args.data_file)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            return int(io.fail("coverage", f"{args.data_file}: cannot write the data file: {reason}", False))
    try:
        write_reports(merged, specs, Path(args.rootdir) if args.rootdir else Path.cwd(), io.out, base=Path.cwd())
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        return int(io.fail("coverage", f"{where}cannot write the report: {exc.strerror or type(exc).__name__}", False))
    if args.fail_under is not None:
        line = fails_under(merged, args.fail_under)
        if line is not None:
            io.out(line.replace("--tf-cov-fail-under", "--fail-under"))
            return 1
    return 0


def read_data(name: str | os.PathLike[str]) -> CoverageData:
    """Read a data file; a missing, unreadable or malformed one is a :class:`CoverageDataError` naming it."""
    source = os.fspath(name)
    try:
        text = Path(source).read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:  # a ValueError: not UTF-8, or a name the system cannot take (a NUL byte)
        raise CoverageDataError("$", "a readable coverage data file", found=why_unread(exc), source=source) from None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        raise CoverageDataError("$", "valid JSON", source=source) from None
    return CoverageData.from_json(value, source)


def write_data(data: CoverageData, name: str | os.PathLike[str]) -> None:
    """Write ``data`` to ``name`` (its directory made when missing, whole or not at all), sorted: equal data, equal
    bytes."""
    write_whole(name, json.dumps(data.to_json(), indent=1, sort_keys=True) + "\n")
