"""What a command prints about the plans it checked: their results in every format, and the run of many plans.

Check results are a human summary (optionally coloured), a JSON document (shapes documented in
``plancheck/schemas/cli-output.schema.json``), JUnit XML, SARIF 2.1.0, GitHub workflow commands or a
Markdown summary (:func:`render`, on the runs of every plan checked). A run of many plans (:func:`plancheck.cli._many.check_many`)
checks each plan in a worker; this module reports them all, in the order given. ``query``'s answers (every address
shown through :func:`plancheck._documents.plan.shown_address`: a ``for_each`` key can be a secret), a plan's
notes and the text's colours are :mod:`plancheck.cli._query`'s and :mod:`plancheck.cli._io`'s.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import json
import os
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from .._documents.plan import Plan
from .._errors import CheckFailure
from .._frozen import FrozenValue, frozen
from .._redact import (
    NO_SECRETS,
    Secrets,
)
from .._text import escape_data, escape_markdown, escape_property, one_line
from ._checksfile import CheckResult, verdict
from ._io import (
    _LABELS,
    SCHEMA_VERSION,
    Io,
    PlanFacts,
    PlanFailed,
    PlanParts,
    Rendered,
    Style,
    _WriteFailed,
    error_document,
    error_json,
    plan_notes,
    plan_summary,
    render_json,
    scrubbed_values,
    tool_version,
    use_colour,
    write_report,
)
from ._waivers import expired_note, fixed_note

if TYPE_CHECKING:
    from ._waivers import BaselineEntry

__all__ = [
    "FORMATS",
    "Finding",
    "MARKDOWN_MAX_BYTES",
    "PlanRun",
    "accepted",
    "escape_data",
    "escape_markdown",
    "escape_property",
    "fail_everywhere",
    "findings",
    "plan_parts",
    "plans_document",
    "plans_line",
    "render",
    "render_error",
    "render_text",
    "render_text_runs",
    "report",
    "results_document",
    "results_secrets",
    "run_status",
]

# Failures first, then warnings (checks of warning severity, then passes with warnings), so the lines that
# need attention are at the top of a long run.
_ORDER: Final = {"error": 0, "fail": 1, "warn": 2, "pass": 4}


def _rank(result: CheckResult) -> int:
    accepted = result.warnings or result.waived or result.known or result.expired_waivers
    return 3 if result.status == "pass" and accepted else _ORDER[result.status]


def _subject(result: CheckResult, failure: CheckFailure | None, *, with_type: bool = True) -> str:
    address = failure.address if failure is not None and failure.address is not None else result.spec.address
    path = failure.path if failure is not None and failure.path is not None else result.spec.path
    parts = [result.spec.type] if with_type else []
    if address:
        parts.append(address)
    if path is not None and path.steps:  # the root path adds no part
        parts.append(path.to_text())
    return ": ".join(parts)


def render_text(results: Sequence[CheckResult], plan: Plan | PlanFacts, *, style: Style, quiet: bool = False,
                fixed: Sequence[BaselineEntry] = (), baseline: str | None = None) -> str:
    """The human summary: the plan's notes, one line per check (failures first), each reason, its warnings, then a count line.

    A warning is a ``WARN`` line of its own (printed with ``--quiet`` too): a failure of a check of
    ``warning`` severity, or what a check that was told to let what is unknown until apply pass with a
    warning warns about. The count line counts checks passed and failed, then errors and warnings (one
    per ``WARN`` line), each when there is one. A ``NOTE`` line says
    what the verdicts stand on (:func:`plan_notes`): a partial plan (printed with ``--quiet`` too), a plan
    that is not complete or not applyable.

    A failure a waiver accepts is a ``WAIVED`` line with the waiver's reason, expiry and origin; one in the
    ``baseline`` file a ``KNOWN`` line (neither with ``--quiet``); an expired waiver is a ``NOTE`` (with
    ``--quiet`` too), and so is each entry of the baseline that no longer fails (``fixed``). The count
    line adds how many failures were waived and known, and how many baseline entries are fixed.
    """
    secrets = results_secrets(results, plan)
    shown = {r.status for r in results}
    if not quiet:
        shown |= {"waived" for r in results if r.waived} | {"known" for r in results if r.known}
    width = max(len(_LABELS[status]) for status in (*shown, "note"))
    note = style.status("note") + " " * (width - 4)
    lines: list[str] = [f"{note}  {text}" for text in plan_notes(plan, quiet=quiet)]
    for result in sorted(results, key=_rank):
        if quiet and result.ok and not result.warnings:
            continue
        label = style.status(result.status) + " " * (width - len(_LABELS[result.status]))
        if not result.failures and not (result.ok and (result.warnings or result.waived or result.known)):
            lines.append(f"{label}  {one_line(_subject(result, None), secrets.scrub)}")
        for i, failure in enumerate(result.failures):
            # Further failures of the same check are indented under it, without repeating its name.
            lead = label if i == 0 else " " * (width + 2)
            subject = one_line(_subject(result, failure, with_type=i == 0), secrets.scrub)
            message = one_line(failure.message, secrets.scrub)
            lines.append(f"{lead}  {subject}: {message}" if subject else f"{lead}  {message}")
        warn = style.status("warn") + " " * (width - 4)
        for warning in result.warnings:
            subject = one_line(_subject(result, warning), secrets.scrub)
            message = one_line(warning.message, secrets.scrub)
            lines.append(f"{warn}  {subject}: {message}" if subject else f"{warn}  {message}")
        if result.waived or result.known or result.expired_waivers:
            lines.extend(_accepted_lines(result, style, width, secrets, quiet))
    lines.extend(f"{note}  {one_line(fixed_note(entry, baseline or ''), secrets.scrub)}" for entry in fixed)
    if not quiet:
        summary = verdict(results)[1]
        passed, failed, errors, warned = (summary[key] for key in ("passed", "failed", "errors", "warnings"))
        counts = [style.paint("pass" if passed else "dim", f"{passed} passed")]
        counts.append(style.paint("fail" if failed else "dim", f"{failed} failed"))
        if errors:
            counts.append(style.paint("error", f"{errors} errors"))
        if warned:
            counts.append(style.paint("warn", f"{warned} warning{'s' if warned != 1 else ''}"))
        for what in ("waived", "known"):
            if summary[what]:
                counts.append(style.paint(what, f"{summary[what]} {what}"))
        if fixed:
            counts.append(style.paint("note", f"{len(fixed)} fixed"))
        noun = "check" if len(results) == 1 else "checks"
        source = f" in {plan.source}" if plan.source else ""
        partial = " (a partial plan)" if plan.partial else ""
        lines.append(f"{len(results)} {noun}{source}{partial}: " + ", ".join(counts))
    return secrets.scrub("\n".join(lines))


def _accepted_lines(result: CheckResult, style: Style, width: int, secrets: Secrets, quiet: bool) -> list[str]:
    """A result's ``WAIVED`` and ``KNOWN`` lines (not when ``quiet``) and a ``NOTE`` per expired waiver."""
    lines = []
    scrub = secrets.scrub
    if not quiet:
        label = style.status("waived") + " " * (width - 6)
        for waived in result.waived:
            waiver = waived.waiver
            until = f"until {waiver.until.isoformat()}" if waiver.until is not None else "no expiry"
            lines.append(f"{label}  {one_line(_subject(result, waived.failure), scrub)}: "
                         f"{one_line(waived.failure.message, scrub)} "
                         f"(waived by {one_line(waiver.origin, scrub)}, {until}: {one_line(waiver.reason, scrub)})")
        label = style.status("known") + " " * (width - 5)
        lines.extend(f"{label}  {one_line(_subject(result, failure), scrub)}: {one_line(failure.message, scrub)} "
                     "(in the baseline)" for failure in result.known)
    note = style.status("note") + " " * (width - 4)
    lines.extend(f"{note}  {one_line(expired_note(result.spec.type, waiver), scrub)}" for waiver in result.expired_waivers)
    return lines


def results_secrets(results: Sequence[CheckResult], plan: Plan | PlanFacts) -> Secrets:
    """The plan's secrets, trusting what the failures of ``results`` trust (their configuration names and given paths).

    What the whole output of a run is scrubbed with, so that a scrub at this exit keeps what the
    failures kept (:func:`plancheck._checking.messages.scrubbed_failure`).
    """
    return plan.secrets.trusting(partial(_trusted_by, results))


def _trusted_by(results: Sequence[CheckResult]) -> list[str]:
    """What the failures of ``results`` trust: asked by a scrub only when it finds a span (most outputs show no secret)."""
    return [t for r in results for f in (*r.failures, *r.warnings, *r.known, *(w.failure for w in r.waived)) for t in f.trusted]


def _failure_json(failure: CheckFailure) -> dict[str, Any]:
    shown = failure.shown_path if failure.shown_path is not None else None
    return {
        "address": failure.address,
        "path": shown if shown is not None else failure.path.to_text() if failure.path is not None else None,
        "message": failure.message,
    }


def results_document(results: Sequence[CheckResult], plan: Plan | PlanFacts, tool_version: str,
                     fail_on: str = "error", *, fixed: Sequence[BaselineEntry] = (),
                     baseline: str | None = None) -> dict[str, Any]:
    """The JSON document of a run (kind ``results``), in check order; ``ok`` is true exactly when the exit status is 0.

    A result's ``failures`` are what its check found wrong, its ``severity`` and ``status`` (``warn``
    for a failing check of warning severity) how they count; ``fail_on`` is ``--fail-on``. ``waived``
    are the failures a waiver accepts (each with its waiver), ``known`` those in the ``baseline`` file,
    ``expired_waivers`` the check's waivers past their date; with a baseline, ``baseline`` names the file
    and the entries that no longer fail (``fixed``).
    """
    status, counts = verdict(results, fail_on)
    document = {
        "schema_version": SCHEMA_VERSION,
        "kind": "results",
        "tool_version": tool_version,
        "ok": status == 0,
        "fail_on": fail_on,
        "plan": plan_summary(plan),
        "summary": counts,
        "results": [
            {
                "origin": r.spec.origin,
                "check": r.spec.type,
                "address": r.spec.address,
                "path": r.spec.path.to_text() if r.spec.path is not None else None,
                "severity": r.severity,
                "status": r.status,
                "failures": [_failure_json(f) for f in r.failures],
                "warnings": [_failure_json(w) for w in r.warnings],
                "waived": [{**_failure_json(w.failure), "waiver": w.waiver.as_json()} for w in r.waived],
                "known": [_failure_json(f) for f in r.known],
                "expired_waivers": [w.as_json() for w in r.expired_waivers],
            }
            for r in results
        ],
    }
    if baseline is not None:
        document["baseline"] = {"file": baseline, "fixed": [entry.as_json() for entry in fixed]}
    return document


# -- the report formats: text, JSON, JUnit XML, SARIF 2.1.0, GitHub workflow commands, Markdown ---------
#
# The formats a run's results are written in: text, JSON, JUnit XML, SARIF 2.1.0, GitHub workflow commands, Markdown.
#
# Every writer takes the runs of the plans checked (:class:`PlanRun`, one per plan, so many plans fit) and says
# what the exit status says: a finding that fails the run (a failure of an ``error`` check, a check that
# could not run; under ``--fail-on warning`` any warning) is an error (JUnit ``failure``/``error``, SARIF and
# GitHub level ``error``, Markdown's ``failed``), any other finding a warning; so a report shows errors exactly
# when the exit status is not 0.
#
# Every string taken from a plan or a message is scrubbed of the plan's secrets (:func:`results_secrets`, as the
# text output is) before the format escapes it: an escape changes a secret's spelling, so a scrub after it
# could miss it, and would see the format's keys and words. That is these documents' one scrub: they are
# written as Rendered text, which the command's stream and a report file's do not scrub again. Data is made one line first (:func:`one_line`): a
# newline or control character in an address cannot start a line of its own (a forged workflow command).

#: What ``--format`` and ``--report FORMAT=FILE`` take, the default first.
FORMATS: Final = ("text", "json", "junit", "sarif", "github", "markdown")
#: The formats that print the tool's version (read from the package's metadata only for them).
_VERSIONED: Final = frozenset({"json", "sarif"})

#: The SARIF version written, and the schema it is valid against (OASIS, errata 01).
_SARIF_VERSION: Final = "2.1.0"
_SARIF_SCHEMA: Final = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_TOOL: Final = "tfplancheck"


@frozen
class PlanRun(FrozenValue):
    """The results of the checks run on one plan, as the reports name it.

    ``waived`` counts the failures a waiver let pass (reported, never silent); with ``--baseline``,
    ``baseline`` names its file and ``fixed`` holds its entries no failure matched any more.

    >>> from plancheck import Plan
    >>> PlanRun(Plan.from_dict({"format_version": "1.2"}, source="plan.json"), ()).name
    'plan.json'
    """

    plan: Plan | PlanFacts
    results: tuple[CheckResult, ...]
    waived: int = 0
    fixed: tuple[BaselineEntry, ...] = ()
    baseline: str | None = None
    #: In a run of many plans, the other plans' secrets that the checks show (so this plan's reports may too).
    apart: Secrets | None = None

    @property
    def name(self) -> str:
        """The plan's name in the reports: its file (``<stdin>`` for standard input)."""
        return self.plan.source or "<plan>"

    def secrets(self) -> Secrets:
        """What every string of this run's reports is scrubbed of (the text output's :func:`results_secrets`, and the
        secrets of the other plans of the run it may show)."""
        own = results_secrets(self.results, self.plan)
        return own if self.apart is None else Secrets.union([own, self.apart])

    def notes(self) -> list[str]:
        """What the reports note besides findings: the plan's notes, each expired waiver, each baseline entry fixed."""
        return [*plan_notes(self.plan), *(expired_note(r.spec.type, w) for r in self.results for w in r.expired_waivers),
                *(fixed_note(entry, self.baseline or "") for entry in self.fixed)]


@frozen
class Finding(FrozenValue):
    """One line of a report: a failure or a warning of one check, its level and what it says (scrubbed, one line).

    >>> Finding("error", "FAIL", "ExpectEmptyPlan", "ExpectEmptyPlan", None, "2 changes").text
    'ExpectEmptyPlan: 2 changes'
    """

    level: str
    label: str
    check: str
    subject: str
    address: str | None
    message: str

    @property
    def text(self) -> str:
        """The subject and the message, as the text output's line says them."""
        return f"{self.subject}: {self.message}" if self.subject else self.message


#: A plan of a run: checked (its results, or its parts rendered by its worker), or not (bad input).
Checked = PlanRun | PlanParts | PlanFailed


def run_status(runs: Sequence[Checked], fail_on: str = "error") -> int:
    """The exit status of all the runs together: the worst (2 a plan could not be read or a check could not run,
    1 a result fails, else 0).

    >>> run_status([]), run_status([PlanFailed("b.json", "plan", "b.json: invalid JSON")])
    (0, 2)
    """
    if any(isinstance(run, PlanFailed) for run in runs):
        return 2
    # Each plan's status is the worst of its results', as the status of them all is (a rendered plan brings its own).
    rendered = max((run.status for run in runs if isinstance(run, PlanParts)), default=0)
    return max(rendered, verdict([r for run in runs if isinstance(run, PlanRun) for r in run.results], fail_on)[0])


def findings(run: PlanRun, result: CheckResult, fail_on: str = "error", secrets: Secrets | None = None) -> Iterator[Finding]:
    """The findings of one result: its failures (``FAIL``, ``WARN`` at warning severity, ``ERROR``), then its warnings.

    A finding's level is ``error`` when it fails the run (:meth:`CheckResult.fails`), else ``warning``. ``secrets``
    is ``run.secrets()``, made once by a caller that lists the findings of many results.

    >>> from plancheck.cli._checksfile import CheckSpec
    >>> failure = CheckFailure("ExpectEmptyPlan", None, None, "1 change")
    >>> result = CheckResult(CheckSpec("ExpectEmptyPlan", None, "c", severity="warning"), "warn", (failure,))
    >>> run = PlanRun(Plan.from_dict({"format_version": "1.2"}), (result,))
    >>> [(f.level, f.text) for f in findings(run, result)], [f.level for f in findings(run, result, "warning")]
    ([('warning', 'ExpectEmptyPlan: 1 change')], ['error'])
    """
    secrets = run.secrets() if secrets is None else secrets  # given once per run: it is made from all of its results
    warning_level = "error" if fail_on == "warning" else "warning"
    if result.status in ("fail", "error", "warn"):
        level = warning_level if result.status == "warn" else "error"
        for failure in result.failures:
            yield _finding(result, level, result.status.upper(), failure, secrets)
    for warning in result.warnings:
        yield _finding(result, warning_level, "WARN", warning, secrets)


def accepted(run: PlanRun, result: CheckResult, secrets: Secrets) -> Iterator[tuple[Finding, str]]:
    """The failures of ``result`` that pass because they are accepted, each with why (scrubbed, one line): the
    ``WAIVED`` ones with their waiver's origin and reason, the ``KNOWN`` ones with the baseline file naming them.
    Their level is ``note``: they never fail the run.

    >>> list(accepted(PlanRun(Plan.from_dict({"format_version": "1.2"}), ()), CheckResult(None, "pass"), Secrets()))
    []
    """
    for w in result.waived:
        yield (_finding(result, "note", "WAIVED", w.failure, secrets),
               one_line(f"waived by {w.waiver.origin}: {w.waiver.reason}", secrets.scrub))
    for failure in result.known:
        yield (_finding(result, "note", "KNOWN", failure, secrets),
               one_line(f"in the baseline {run.baseline}", secrets.scrub))


def _finding(result: CheckResult, level: str, label: str, failure: CheckFailure, secrets: Secrets) -> Finding:
    address = failure.address if failure.address is not None else result.spec.address
    return Finding(level, label, one_line(result.spec.type, secrets.scrub), one_line(_subject(result, failure), secrets.scrub),
                   None if address is None else one_line(address, secrets.scrub), one_line(failure.message, secrets.scrub))


#: The most a Markdown summary holds, in bytes of UTF-8: under GitHub's 1 MiB per step summary
#: (``$GITHUB_STEP_SUMMARY``) and GitLab's 1,000,000 characters per merge-request comment (a character is
#: at least a byte). A longer summary keeps its heading and every plan's table, and ends each plan's list
#: with a line saying how many lines it leaves out.
MARKDOWN_MAX_BYTES: Final = 1_000_000


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
    | checks | passed | failed | errors | warnings | waived |
    | ---: | ---: | ---: | ---: | ---: | ---: |
    | 0 | 0 | 0 | 0 | 0 | 0 |
    """
    if fmt == "text":
        return render_text_runs(runs, style or Style(False), quiet, fail_on)
    # Every value of these documents is scrubbed by its writer before it is escaped: their one scrub (Rendered).
    if fmt == "json":
        return Rendered(_render_json(runs, fail_on, tool_version))
    if fmt == "junit":
        return Rendered(_render_junit(runs, fail_on))
    if fmt == "sarif":
        return Rendered(_render_sarif(runs, fail_on, tool_version))
    if fmt == "github":
        return Rendered(_render_github(runs, fail_on))
    if fmt == "markdown":
        return Rendered(_render_markdown(runs, fail_on, markdown_max_bytes))
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")


def _render_json(runs: Sequence[Checked], fail_on: str, tool_version: str) -> str:
    run = runs[0] if len(runs) == 1 else None
    if isinstance(run, PlanRun):
        # One plan: the results document as it always was (a bad plan alone is an error document, said before).
        return render_json(_plan_document(run, fail_on, tool_version))
    return render_json(plans_document(runs, fail_on, tool_version))


# -- JUnit XML --------------------------------------------------------------------------------------


def _render_junit(runs: Sequence[Checked], fail_on: str) -> str:
    """A ``testsuites`` of a ``testsuite`` per plan, a ``testcase`` per check (named by its label).

    A check that fails the run has a ``failure`` (``error`` when it could not run) holding each of its
    findings; one whose failures are all waived or known is ``skipped`` (the first one's reason as its message);
    warnings that do not fail the run, and the waived and known failures, are its ``system-out``.
    """
    root = ET.Element("testsuites", name=_TOOL)
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for run in runs:
        if isinstance(run, PlanFailed):
            # A plan that could not be read: its suite is the one error, as a run of it alone reports it.
            suite = ET.SubElement(root, "testsuite", name=one_line(run.name), tests="1", failures="0", errors="1",
                                  skipped="0")
            case = ET.SubElement(suite, "testcase", name=f"{run.kind} error", classname=suite.get("name", ""))
            ET.SubElement(case, "error", message=run.text(), type=run.kind).text = run.text()
            totals["tests"] += 1
            totals["errors"] += 1
            continue
        suite, counts = _part("junit", run, fail_on)
        root.append(copy.deepcopy(suite))  # indented below: the part, given, stays as it is
        for key, value in counts.items():
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def _junit_suite(run: PlanRun, fail_on: str) -> tuple[ET.Element, dict[str, int]]:
    """A plan's ``testsuite`` (not indented) and its counts."""
    secrets = run.secrets()
    suite = ET.Element("testsuite", name=one_line(run.name, secrets.scrub))
    counts = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    notes = run.notes()
    if notes:
        properties = ET.SubElement(suite, "properties")
        for note in notes:
            ET.SubElement(properties, "property", name="note", value=one_line(note, secrets.scrub))
    for result in run.results:
        counts["tests"] += 1
        case = ET.SubElement(suite, "testcase", name=one_line(_subject(result, None), secrets.scrub),
                             classname=suite.get("name", ""))
        found = list(findings(run, result, fail_on, secrets))
        failing = [f for f in found if f.level == "error"]
        passed = [(f.label, f.text, why) for f, why in accepted(run, result, secrets)]
        if failing:
            kind = "error" if result.status == "error" else "failure"
            counts["errors" if kind == "error" else "failures"] += 1
            element = ET.SubElement(case, kind, message=failing[0].text, type=failing[0].check)
            element.text = "\n".join(f"{f.label}  {f.text}" for f in failing)
        elif passed:  # a check that passes only because its failures are waived or known did not pass as such
            counts["skipped"] += 1
            ET.SubElement(case, "skipped", message=passed[0][2])
        rest = [(f.label, f.text, "") for f in found if f.level != "error"] + passed
        if rest:
            ET.SubElement(case, "system-out").text = "\n".join(
                f"{label}  {text}" + (f" ({why})" if why else "") for label, text, why in rest)
    for key, value in counts.items():
        suite.set(key, str(value))
    return suite, counts


# -- SARIF 2.1.0 ------------------------------------------------------------------------------------


def _artifact_uri(name: str) -> str:
    """The plan file as a SARIF ``artifactLocation.uri``: a relative reference, or a ``file:`` URI when absolute.

    >>> _artifact_uri("plans/my plan.json"), _artifact_uri("/tmp/p.json"), _artifact_uri("<stdin>")
    ('plans/my%20plan.json', 'file:///tmp/p.json', 'stdin')
    """
    if name == "<stdin>":
        return "stdin"
    path = name.replace(os.sep, "/")
    if os.path.isabs(name):
        return "file://" + urllib.parse.quote(path if path.startswith("/") else "/" + path)
    return urllib.parse.quote(path)


def _rule_text(check: str) -> str:
    """What a SARIF rule says: its check's one-line doc (as ``--list-checks`` shows it), else its name.

    >>> _rule_text("ExpectEmptyPlan"), _rule_text("MyOwnCheck")
    ('The plan changes nothing: no resource or output action, move, import, deferral or action invocation.', 'plan check MyOwnCheck')
    """
    from ._registry import default_registry

    try:
        doc = default_registry().check(check).doc
    except KeyError:
        doc = ""
    return doc or f"plan check {check}"


def _fingerprint(*parts: str) -> str:
    """A stable identity of a finding, from texts already scrubbed (so it can tell nothing of a secret).

    >>> _fingerprint("ExpectNoDestroys", "", "plan.json")
    'ba1e3be5c085bd1a8898b9aa434bf517'
    """
    return hashlib.sha256("\x00".join(parts).encode("utf-8", "backslashreplace")).hexdigest()[:32]


def _render_sarif(runs: Sequence[Checked], fail_on: str, tool_version: str) -> str:
    """One SARIF run: a rule per check type, a result per failure or warning, each plan as an artifact (a plan
    that could not be read: an error notification of the invocation, at that plan; each note of a plan's run, such
    as an expired waiver or a baseline entry fixed: a ``note`` notification at that plan)."""
    rules: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    artifacts: dict[str, int] = {}
    notifications: list[dict[str, Any]] = []
    for run in runs:
        if isinstance(run, PlanFailed):
            uri = _artifact_uri(one_line(run.name))
            where = {"artifactLocation": {"uri": uri, "index": artifacts.setdefault(uri, len(artifacts))}}
            notifications.append({"level": "error", "message": {"text": run.text()}, "descriptor": {"id": run.kind},
                                  "locations": [{"physicalLocation": where}]})
            continue
        uri, notes, found_results = _part("sarif", run, fail_on)
        artifact = artifacts.setdefault(uri, len(artifacts))
        at: dict[str, Any] = {"artifactLocation": {"uri": uri, "index": artifact}}
        # What the other formats note (NOTE, ::notice, a property, a quote) SARIF says as the invocation's notes.
        notifications += [{"level": "note", "message": {"text": note}, "locations": [{"physicalLocation": at}]}
                          for note in notes]
        for found in found_results:
            # The indexes are the run's: the part has each result's own fields in their places.
            location = found["locations"][0]
            check, subject = found["partialFingerprints"]["tfplancheck/v1"]
            results.append({**found, "ruleIndex": rules.setdefault(found["ruleId"], len(rules)),
                            "locations": [{**location, "physicalLocation": {**location["physicalLocation"], **at}}],
                            "partialFingerprints": {"tfplancheck/v1": _fingerprint(check, subject, uri)}})
    status = run_status(runs, fail_on)
    driver: dict[str, Any] = {
        "name": _TOOL,
        "rules": [{"id": check, "name": check, "shortDescription": {"text": _rule_text(check)}} for check in rules],
    }
    if tool_version:
        driver["version"] = tool_version
    invocation: dict[str, Any] = {
        # A run that found failures ran successfully; one whose check could not run (status 2) did not.
        "executionSuccessful": status != 2,
        "exitCode": status,
        "properties": {"ok": status == 0, "fail_on": fail_on},
    }
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    document = {
        "$schema": _SARIF_SCHEMA,
        "version": _SARIF_VERSION,
        "runs": [{
            "tool": {"driver": driver},
            "invocations": [invocation],
            "artifacts": [{"location": {"uri": uri}} for uri in artifacts],
            "results": results,
        }],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def _sarif_part(run: PlanRun, fail_on: str) -> tuple[str, list[str], list[dict[str, Any]]]:
    """A plan's artifact URI, its notes and its SARIF results (their rule and artifact indexes the run's to set)."""
    secrets = run.secrets()
    uri = _artifact_uri(one_line(run.name, secrets.scrub))
    results: list[dict[str, Any]] = []
    for result in run.results:
        for found, why in [*((f, "") for f in findings(run, result, fail_on, secrets)), *accepted(run, result, secrets)]:
            # A plan's JSON has no line per resource: the finding is on the plan file (GitHub code scanning
            # requires a region's startLine), and the resource is its logical location.
            location: dict[str, Any] = {
                "physicalLocation": {"artifactLocation": {"uri": uri}, "region": {"startLine": 1}},
            }
            if found.address:
                kind = "variable" if found.address.startswith("output.") else "resource"
                location["logicalLocations"] = [{"fullyQualifiedName": found.address, "kind": kind}]
            sarif_result: dict[str, Any] = {
                "ruleId": found.check,
                "ruleIndex": None,
                # An accepted failure keeps the level it would have, suppressed (so code scanning closes it).
                "level": found.level if not why else "warning" if result.severity == "warning" else "error",
                "message": {"text": found.text},
                "locations": [location],
                # What the same finding is in the next run: its check, subject and plan (all scrubbed), not
                # its line, so code scanning tells new findings from known ones. The part holds the check and
                # subject; the run hashes them with the plan's URI (_render_sarif), after a run of many plans has
                # scrubbed them of the other plans' secrets too (a hash made here would be of a text holding one).
                "partialFingerprints": {"tfplancheck/v1": [found.check, found.subject]},
                "properties": {"status": result.status, "severity": result.severity,
                               "origin": secrets.scrub(result.spec.origin)},
            }
            if why:
                # A waiver stands in the checks file (in source); a baseline entry in a file of its own.
                kind = "inSource" if found.label == "WAIVED" else "external"
                sarif_result["suppressions"] = [{"kind": kind, "status": "accepted", "justification": why}]
            results.append(sarif_result)
    return uri, [one_line(note, secrets.scrub) for note in run.notes()], results


# -- GitHub workflow commands -----------------------------------------------------------------------


def _render_github(runs: Sequence[Checked], fail_on: str) -> str:
    """An ``::error``/``::warning`` command per finding, titled with its check and plan, a ``::notice`` per note, then the
    counts (and, for many plans, their one summary line)."""
    parts = [_part("github", run, fail_on) for run in runs]
    lines = [_command_line(*command) for own, _ in parts for command in own]
    lines += [f"{_TOOL}: {name}: {counts}" for _, (name, counts) in parts]
    if len(runs) > 1:
        lines.append(f"{_TOOL}: {plans_line(runs, fail_on)}")
    return "\n".join(lines)


#: A workflow command of a plan's part, not escaped yet: its command, what its title names (a check or a
#: plan's error, the plan, what accepted the finding: each a value, scrubbed, or ""), and its message.
Command = tuple[str, str, str, str, str]


def _command_line(command: str, check: str, name: str, label: str, message: str) -> str:
    """A workflow command (its title ``tfplancheck: CHECK (NAME) LABEL``, or ``tfplancheck: NAME``), escaped.

    >>> _command_line("notice", "", "p.json", "", "50% done")
    '::notice title=tfplancheck%3A p.json::50%25 done'
    """
    title = f"{_TOOL}: {check} ({name})" if check else f"{_TOOL}: {name}"
    title += f" {label}" if label else ""
    return f"::{command} title={escape_property(title)}::{escape_data(message)}"


def _github_part(run: PlanRun | PlanFailed, fail_on: str) -> tuple[list[Command], tuple[str, str]]:
    """A plan's commands and its count line's name and counts (values scrubbed, not escaped: the run escapes them)."""
    if isinstance(run, PlanFailed):
        name = one_line(run.name)
        return [("error", f"{run.kind} error", name, "", run.text())], (name, f"not checked ({run.kind} error)")
    secrets = run.secrets()
    name = one_line(run.name, secrets.scrub)
    commands: list[Command] = [("notice", "", name, "", one_line(note, secrets.scrub)) for note in run.notes()]
    for result in run.results:
        for found in findings(run, result, fail_on, secrets):
            commands.append((found.level, found.check, name, "", found.text))
        for found, why in accepted(run, result, secrets):
            commands.append(("notice", found.check, name, found.label.lower(), f"{found.text} ({why})"))
    return commands, (name, _counts_text(run))


def _counts_text(run: PlanRun) -> str:
    """The counts of one plan's run, as its count line says them."""
    counts = verdict(run.results)[1]
    parts = [f"{counts['passed']} passed", f"{counts['failed']} failed"]
    parts += [f"{counts[key]} {key if counts[key] != 1 else key[:-1]}" for key in ("errors", "warnings") if counts[key]]
    parts += [f"{n} {what}" for n, what in ((run.waived, "waived"), (counts["known"], "known")) if n]
    noun = "check" if counts["total"] == 1 else "checks"
    return f"{counts['total']} {noun}: {', '.join(parts)}"


# -- Markdown ---------------------------------------------------------------------------------------

def _size(line: str) -> int:
    """What ``line`` adds to a Markdown document: its UTF-8 bytes and its newline."""
    return len(line.encode("utf-8", "backslashreplace")) + 1


def _omitted_line(count: int, what: str, limit: int) -> str:
    """The line that stands for ``count`` lines a summary capped at ``limit`` bytes leaves out.

    >>> _omitted_line(3, "findings", MARKDOWN_MAX_BYTES)
    '- *3 more findings not shown: the summary is capped at 1000000 bytes; every finding is in the text, JSON, JUnit and SARIF outputs*'
    """
    return (f"- *{count} more {what} not shown: the summary is capped at {limit} bytes; "
            f"every finding is in the text, JSON, JUnit and SARIF outputs*")


def _markdown_part(run: PlanRun | PlanFailed, fail_on: str) -> tuple[str, list[str], list[str], list[tuple[str, str]]]:
    """A plan's name, notes, table and findings (each label and text), values scrubbed, not escaped (the run escapes
    them; the notes and findings are what a cap may cut)."""
    if isinstance(run, PlanFailed):
        return run.name, [], [], [("ERROR", f"not checked: {run.text()}")]
    secrets = run.secrets()
    counts = verdict(run.results)[1]
    notes = [secrets.scrub(note) for note in run.notes()]
    table = ["| checks | passed | failed | errors | warnings | waived |",
             "| ---: | ---: | ---: | ---: | ---: | ---: |",
             f"| {counts['total']} | {counts['passed']} | {counts['failed']} | {counts['errors']} "
             f"| {counts['warnings']} | {run.waived} |"]
    shown = [(f, "") for r in run.results for f in findings(run, r, fail_on, secrets)]
    shown += [(f, f" ({why})") for r in run.results for f, why in accepted(run, r, secrets)]
    return secrets.scrub(run.name), notes, table, [(f.label, f.text + why) for f, why in shown]


def _markdown_lines(name: str, notes: list[str], table: list[str], found: list[tuple[str, str]],
                    ) -> tuple[list[str], list[str], list[str], list[str]]:
    """A plan's part of the summary as its lines: heading, notes, table and findings, each value escaped."""
    return ([f"### {escape_markdown(name)}"], [f"> {escape_markdown(note)}" for note in notes], table,
            [f"- **{label}** {escape_markdown(text)}" for label, text in found])


def _render_markdown(runs: Sequence[Checked], fail_on: str, limit: int = MARKDOWN_MAX_BYTES) -> str:
    """A heading saying passed or failed (as the exit status does), then per plan a table of counts and each finding.

    At most ``limit`` bytes (:data:`MARKDOWN_MAX_BYTES`): the heading and every plan's heading and table are
    always kept; the notes and findings that do not fit are left out, plan by plan in order, and each plan
    whose list was cut ends with a line saying how many findings and notes it leaves out.
    """
    status = run_status(runs, fail_on)
    unread = any(isinstance(run, PlanFailed) for run in runs)
    verdict = {0: "passed", 1: "failed", 2: "error (a plan could not be read)" if unread else "error (a check could not run)"}[status]
    parts = [_markdown_lines(*_part("markdown", run, fail_on)) for run in runs]
    heading = f"## {_TOOL}: {verdict}"
    whole = [heading]
    for head, notes, table, found in parts:
        whole += ["", *head, "", *notes, *([""] if notes else []), *table, *([""] if found and table else []), *found]
    if sum(map(_size, whole)) - 1 <= limit:
        return "\n".join(whole)
    # What is always kept, with room for each plan's two blank lines around a list and its omitted line.
    kept = _size(heading) + sum(
        sum(map(_size, [*head, *table])) + 4 + _size(_omitted_line(len(notes) + len(found), "findings and notes", limit))
        for head, notes, table, found in parts)
    budget = limit - kept
    lines = [heading]
    for head, notes, table, found in parts:
        lines += ["", *head, ""]
        shown_notes = notes[: _fitting(notes, budget)]
        budget -= sum(map(_size, shown_notes))
        lines += [*shown_notes, *([""] if notes else []), *table]
        shown_found = found[: _fitting(found, budget)]
        budget -= sum(map(_size, shown_found))
        left = len(notes) - len(shown_notes) + len(found) - len(shown_found)
        if (found or left) and table:
            lines.append("")
        lines += shown_found
        if left:
            lines.append(_omitted_line(left, "findings and notes" if len(notes) > len(shown_notes) else "findings", limit))
    return "\n".join(lines)


def _fitting(lines: Sequence[str], budget: int) -> int:
    """How many of ``lines``, from the first, fit in ``budget`` bytes.

    >>> _fitting(["aaa", "bbb", "c"], 8)
    2
    """
    count = 0
    for line in lines:
        budget -= _size(line)
        if budget < 0:
            break
        count += 1
    return count


def render_error(fmt: str, kind: str, message: str, tool_version: str = "", secrets: Secrets = NO_SECRETS) -> str:
    """What format ``fmt`` says of a run that stopped at bad input before any check ran (exit status 2).

    So a CI step reading a report finds the error, in the report's own terms: a JUnit ``error``, a SARIF
    invocation that did not succeed (with the message as its notification), a GitHub ``::error``, a Markdown
    heading, the JSON error document. Each is rendered (:class:`Rendered`) from its values scrubbed of ``secrets``
    (the message; the format's words and the error's kind are the tool's), as the results documents are; the text
    line is plain, scrubbed by the stream as every text is.

    >>> print(render_error("github", "checks", "checks.toml:3: check[0].type: unknown check 'X'"))
    ::error title=tfplancheck%3A checks error::checks.toml:3: check[0].type: unknown check 'X'
    >>> print(render_error("markdown", "baseline", "error: cannot write", secrets=Secrets(["error"])))
    ## tfplancheck: error
    <BLANKLINE>
    (sensitive): cannot write
    """
    if fmt == "json":
        return error_json(kind, message, secrets, tool_version)
    text = one_line(secrets.scrub(message))
    if fmt == "junit":
        root = ET.Element("testsuites", name=_TOOL, tests="1", failures="0", errors="1", skipped="0")
        suite = ET.SubElement(root, "testsuite", name=_TOOL, tests="1", failures="0", errors="1", skipped="0")
        case = ET.SubElement(suite, "testcase", name=f"{kind} error", classname=_TOOL)
        ET.SubElement(case, "error", message=text, type=kind).text = text
        ET.indent(root)
        return Rendered('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode"))
    if fmt == "sarif":
        driver: dict[str, Any] = {"name": _TOOL, **({"version": tool_version} if tool_version else {})}
        invocation = {"executionSuccessful": False, "exitCode": 2, "properties": {"ok": False},
                      "toolExecutionNotifications": [{"level": "error", "message": {"text": text},
                                                      "descriptor": {"id": kind}}]}
        document = {"$schema": _SARIF_SCHEMA, "version": _SARIF_VERSION,
                    "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "results": []}]}
        return Rendered(json.dumps(document, indent=2, ensure_ascii=False))
    if fmt == "github":
        return Rendered(f"::error title={escape_property(f'{_TOOL}: {kind} error')}::{escape_data(text)}")
    if fmt == "markdown":
        return Rendered(f"## {_TOOL}: error\n\n{escape_markdown(text)}")
    return f"{_TOOL}: error: {one_line(message)}"


def render_text_runs(runs: Sequence[Any], style: Style, quiet: bool, fail_on: str) -> str:
    """The text output of a run: each plan's summary (an unread plan's error in its place), then, for many plans,
    their one summary line (not with ``quiet``)."""
    parts = []
    for run in runs:
        if isinstance(run, PlanFailed):
            parts.append(f"{style.status('error')}  {run.text()}\n{one_line(run.name)}: not checked (exit status 2)")
        elif isinstance(run, PlanParts):
            parts.append(run.part(("text", style.enabled, quiet)))
        else:  # as _text_part, called here: the route of a failing check through the command line stays as short
            parts.append(render_text(run.results, run.plan, style=style, quiet=quiet, fixed=run.fixed,
                                     baseline=run.baseline))
    if len(runs) > 1 and not quiet:
        parts.append(plans_line(runs, fail_on))
    return "\n\n".join(part for part in parts if part)


def report(args: argparse.Namespace, io: Io, runs: Sequence[Any]) -> int:
    """Standard output and every --report, in their formats; the exit status of all the runs."""
    json_mode = args.format == "json"
    # As plancheck.cli._many.check_many has each plan's worker colour its text part.
    style = Style(args.format == "text" and use_colour(io.stdout, io.environ, args.color))
    version = tool_version() if args.format in _VERSIONED else ""
    io.out(render(args.format, runs, fail_on=args.fail_on, tool_version=version, style=style, quiet=args.quiet))
    for fmt, filename in args.report:
        try:
            version = tool_version() if fmt in _VERSIONED else ""
            write_report(io, filename, render(fmt, runs, fail_on=args.fail_on, tool_version=version))
        except _WriteFailed as exc:
            return io.fail("report", str(exc), json_mode)
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


def plans_line(runs: Sequence[Any], fail_on: str = "error") -> str:
    """The one summary of a run of many plans: how many passed, failed, and could not be checked or had a check
    that could not run (exit status 2).

    >>> plans_line([PlanFailed("b.json", "plan", "b.json: invalid JSON")])
    '1 plan: 0 passed, 0 failed, 1 error'
    """
    statuses = [run_status([run], fail_on) for run in runs]
    counts = [f"{statuses.count(0)} passed", f"{statuses.count(1)} failed"]
    if statuses.count(2):
        counts.append(f"{statuses.count(2)} error{'s' if statuses.count(2) != 1 else ''}")
    return f"{len(runs)} plan{'s' if len(runs) != 1 else ''}: " + ", ".join(counts)


def _plan_document(run: Any, fail_on: str, tool_version: str) -> dict[str, Any]:
    """What a run of this plan alone prints in JSON: its ``results`` document, or the ``error`` document naming it."""
    if isinstance(run, PlanFailed):
        return {**error_document(run.kind, run.message, tool_version), "source": run.source}
    secrets = run.secrets()
    document = results_document(run.results, run.plan, tool_version, fail_on, fixed=run.fixed, baseline=run.baseline)
    return scrubbed_values(document, secrets)


def plans_document(runs: Sequence[Any], fail_on: str, tool_version: str) -> dict[str, Any]:
    """The JSON document of a run of many plans (kind ``plans``): each plan's own document, in the order given.

    ``plans[i]`` is what ``tfplancheck`` prints for the i-th plan given alone (a ``results`` document, or an
    ``error`` document with the plan's ``source``), each scrubbed of its own plan's secrets; ``ok`` is true
    exactly when the exit status (the worst of the plans') is 0, ``summary`` counts the plans by their status.

    >>> doc = plans_document([PlanFailed("b.json", "plan", "b.json: invalid JSON")], "error", "0.1.0")
    >>> doc["kind"], doc["ok"], doc["summary"], doc["plans"][0]["source"]
    ('plans', False, {'plans': 1, 'passed': 0, 'failed': 0, 'errors': 1}, 'b.json')
    """
    statuses = [run_status([run], fail_on) for run in runs]
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "plans",
        "tool_version": tool_version,
        "ok": run_status(runs, fail_on) == 0,
        "fail_on": fail_on,
        "summary": {"plans": len(runs), "passed": statuses.count(0), "failed": statuses.count(1),
                    "errors": statuses.count(2)},
        "plans": [_part("json", run, fail_on, tool_version) for run in runs],
    }


def _text_part(run: PlanRun, colour: bool, quiet: bool) -> str:
    return render_text(run.results, run.plan, style=Style(colour), quiet=quiet, fixed=run.fixed, baseline=run.baseline)


#: Each format's part of one plan, from its run and the options shaping it (:func:`plancheck.cli._many.part_keys`).
_PARTS: Final[dict[str, Any]] = {"text": _text_part, "json": _plan_document, "junit": _junit_suite,
                                 "sarif": _sarif_part, "github": _github_part, "markdown": _markdown_part}


def _part(fmt: str, run: Checked, *options: Any) -> Any:
    """A plan's part of format ``fmt``: as its worker rendered it, or rendered here."""
    if isinstance(run, PlanParts):
        return run.part((fmt, *options))
    return _PARTS[fmt](run, *options)


def plan_parts(run: PlanRun, keys: Sequence[tuple[Any, ...]], fail_on: str, crossing: tuple[str, ...] = ()) -> PlanParts:
    """``run`` rendered in the parts ``keys`` name (in its worker: the parts travel, not the results and secrets).

    >>> run = PlanRun(Plan.from_dict({"format_version": "1.2"}, source="p.json"), ())
    >>> plan_parts(run, [("github", "error")], "error").part(("github", "error"))
    ([], ('p.json', '0 checks: 0 passed, 0 failed'))
    """
    parts = tuple((key, _PARTS[key[0]](run, *key[1:])) for key in keys)
    return PlanParts(run.name, run_status([run], fail_on), parts, crossing)

