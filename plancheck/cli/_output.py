"""What a command prints about the plans it checked, in which format, where: standard output and each ``--report``.

:func:`render` writes the runs of every plan checked in a format of :data:`FORMATS`: the text report
(:mod:`plancheck.cli._text_report`) or a format a CI reads (:mod:`plancheck.cli._report_formats`: JSON
(shapes documented in ``plancheck/schemas/cli-output.schema.json``), JUnit XML, SARIF 2.1.0, GitHub workflow
commands, Markdown). In a run of many plans (:func:`plancheck.cli._many.check_many`) each plan's worker renders
the plan's part of each of them (:func:`plan_parts`, as :func:`part_keys` names them), and :func:`parts_scrubbed`
scrubs a part of the other plans' secrets, each through its format's :class:`~plancheck.cli._runs.PartWriter`.
``query``'s answers are :mod:`plancheck.cli._query`'s; a plan's notes and the text's colours :mod:`plancheck.cli._io`'s.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Sequence
from typing import Any, Final

from .._errors import ArgumentError
from .._redact import Secrets
from ._io import Io, PlanParts, Rendered, Style, _WriteFailed, tool_version, use_colour, write_report
from ._report_formats import (
    GITHUB,
    JSON,
    JUNIT,
    MARKDOWN,
    MARKDOWN_MAX_BYTES,
    SARIF,
    render_error,
    render_github,
    render_junit,
    render_markdown,
    render_results_json,
    render_sarif,
)
from ._runs import Checked, PartWriter, PlanRun, run_status
from ._text_report import TEXT, render_text_runs

__all__ = ["FORMATS", "fail_everywhere", "part_keys", "parts_scrubbed", "plan_parts", "render", "report"]

#: What ``--format`` and ``--report FORMAT=FILE`` take, the default first.
FORMATS: Final = ("text", "json", "junit", "sarif", "github", "markdown")
#: The formats that print the tool's version (read from the package's metadata only for them).
_VERSIONED: Final = frozenset({"json", "sarif"})
#: Each format's part of one plan: its maker and its scrub, from the module of the format.
_WRITERS: Final[dict[str, PartWriter]] = {writer.name: writer for writer in (TEXT, JSON, JUNIT, SARIF, GITHUB, MARKDOWN)}


def render(fmt: str, runs: Sequence[Checked], *, fail_on: str = "error", tool_version: str = "",
           style: Style | None = None, quiet: bool = False, markdown_max_bytes: int = MARKDOWN_MAX_BYTES) -> str:
    """The results of ``runs`` in format ``fmt`` (one of :data:`FORMATS`), scrubbed of every run's secrets.

    ``runs`` are the plans in the order given (one :class:`PlanFailed` in the place of each plan that could not be
    read); a run of many plans ends with their one summary (:func:`plans_line`) in text and ``github``.
    ``markdown_max_bytes`` caps the Markdown summary (see :data:`MARKDOWN_MAX_BYTES`).

    >>> from plancheck import Plan
    >>> print(render("markdown", [PlanRun(Plan.from_dict({"format_version": "1.2"}, source="p.json"), ())]))
    ## tfplancheck: passed
    <BLANKLINE>
    ### p.json
    <BLANKLINE>
    | checks | passed | failed | errors | warnings | waived | known |
    | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
    | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
    """
    # Every format's writer scrubs what it takes from a run before it escapes it: the document's one scrub (Rendered).
    if fmt == "text":
        return Rendered(render_text_runs(runs, style or Style(False), quiet, fail_on))
    if fmt == "json":
        return Rendered(render_results_json(runs, fail_on, tool_version))
    if fmt == "junit":
        return Rendered(render_junit(runs, fail_on))
    if fmt == "sarif":
        return Rendered(render_sarif(runs, fail_on, tool_version))
    if fmt == "github":
        return Rendered(render_github(runs, fail_on))
    if fmt == "markdown":
        return Rendered(render_markdown(runs, fail_on, markdown_max_bytes))
    raise ArgumentError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")


def report(args: argparse.Namespace, io: Io, runs: Sequence[Any]) -> int:
    """Standard output and every --report, in their formats; the exit status of all the runs."""
    # As plancheck.cli._many.check_many has each plan's worker colour its text part.
    style = Style(args.format == "text" and use_colour(io.stdout, io.environ, args.color))
    version = tool_version() if args.format in _VERSIONED else ""
    io.out(render(args.format, runs, fail_on=args.fail_on, tool_version=version, style=style, quiet=args.quiet))
    for fmt, filename in args.report:
        try:
            version = tool_version() if fmt in _VERSIONED else ""
            write_report(io, filename, render(fmt, runs, fail_on=args.fail_on, tool_version=version))
        except _WriteFailed as exc:
            # Said on standard error only: standard output already holds the run's document, and a second one (the
            # JSON error document) after it left no JSON a reader could parse.
            return io.fail("report", str(exc), False)
    return run_status(runs, args.fail_on)


def fail_everywhere(args: argparse.Namespace, io: Io, kind: str, message: str) -> int:
    """A run's error said on standard error, in standard output's format and in every --report (exit status 2)."""

    # Standard output and every report say the error in their format, so a CI step reading one finds it.
    status = io.fail(kind, message, args.format == "json")
    shown, secrets = io.error_shown(message)
    if args.format not in ("text", "json"):
        io.out(render_error(args.format, kind, shown, tool_version(), secrets))
    for fmt, filename in args.report:
        with contextlib.suppress(_WriteFailed):  # the run already fails with the error said on stderr
            write_report(io, filename, render_error(fmt, kind, shown, tool_version(), secrets))
    return status


def part_keys(args: argparse.Namespace, colour: bool) -> tuple[tuple[Any, ...], ...]:
    """The parts of each plan that :func:`report` writes (standard output's with ``colour`` when text), each once:
    each the format and the options its :class:`~plancheck.cli._runs.PartWriter` makes the part with, as
    :func:`render` asks for it.

    >>> part_keys(argparse.Namespace(format="text", quiet=False, fail_on="error", report=[("junit", "j.xml")]), False)
    (('text', False, False), ('junit', 'error'))
    """
    def key(fmt: str, colour: bool, quiet: bool) -> tuple[Any, ...]:
        if fmt == "text":
            return (fmt, colour, quiet)
        return (fmt, args.fail_on, tool_version()) if fmt == "json" else (fmt, args.fail_on)

    keys = [key(args.format, colour, args.quiet), *(key(fmt, False, False) for fmt, _ in args.report)]
    return tuple(dict.fromkeys(keys))


def plan_parts(run: PlanRun, keys: Sequence[tuple[Any, ...]], fail_on: str, crossing: tuple[str, ...] = ()) -> PlanParts:
    """``run`` rendered in the parts ``keys`` name (in its worker: the parts travel, not the results and secrets).

    >>> from plancheck import Plan
    >>> run = PlanRun(Plan.from_dict({"format_version": "1.2"}, source="p.json"), ())
    >>> plan_parts(run, [("github", "error")], "error").part(("github", "error"))
    ([], ('p.json', '0 checks: 0 passed, 0 failed'))
    """
    parts = tuple((key, _WRITERS[key[0]].make(run, *key[1:])) for key in keys)
    return PlanParts(run.name, run_status([run], fail_on), parts, crossing)


def parts_scrubbed(parts: PlanParts, secrets: Secrets) -> PlanParts:
    """``parts`` with every value of their documents scrubbed of ``secrets`` too, before the run escapes them: in a
    run of many plans, the secrets of the other plans that the checks show (its worker scrubbed each part of its own
    plan's only). Each part is scrubbed by its format's writer, which knows its shape.

    >>> from plancheck import Plan
    >>> run = PlanRun(Plan.from_dict({"format_version": "1.2"}, source="hunter2.json"), ())
    >>> parts_scrubbed(plan_parts(run, [("markdown", "error")], "error"), Secrets(["hunter2"])).part(("markdown", "error"))[0]
    '(sensitive).json'
    """
    return PlanParts(parts.source, parts.status, tuple((key, _WRITERS[key[0]].scrubbed(part, secrets))
                                                       for key, part in parts.parts), parts.crossing)
