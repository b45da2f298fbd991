"""What a command prints about a plan: check results, query answers and snapshot comparisons, as text or JSON.

Check results are a human summary (optionally coloured), a JSON document (shapes documented in
``plancheck/schemas/cli-output.schema.json``), JUnit XML, SARIF 2.1.0, GitHub workflow commands or a
Markdown summary (:func:`render`, on the runs of every plan checked). ``query`` looks up a plan's addresses, or the value at a
path, redacted: ``output.NAME`` addresses an output change, anything else a resource change; unknown
values show as ``(known after apply)``, sensitive ones as ``(sensitive)``; every address shown goes
through :func:`plancheck._documents.plan.shown_address` (a ``for_each`` key can be a secret), and the
address column is laid out on what is shown, so its width tells nothing. ``snapshot`` (and ``mock-plan
--snapshot``) compare a plan with its snapshot file, or write it.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TextIO

from tfjsonpath import Path
from tfjsonpath._jsontypes import copy_json

from .._checking.equality import union_marks
from .._documents.plan import Change, Plan, ResourceNotFoundError, shown_address
from .._documents.resolve import ResolvedValue, ValueStatus, resolve_value
from .._errors import PARTIAL_NOTE, CheckFailure
from .._frozen import FrozenValue, ReadOnly, frozen
from .._redact import (
    Marks,
    Secrets,
    contains_sensitive,
    fit_marks,
    render_value,
    secrets_from_state,
    secrets_state,
)
from .._text import one_line, style_mark
from ._checksfile import CheckResult, exit_status
from ._io import SCHEMA_VERSION, CliError, error_document, render_json
from ._waivers import expired_note, fixed_note

if TYPE_CHECKING:
    from ._waivers import BaselineEntry

__all__ = [
    "FORMATS",
    "UNKNOWN_TEXT",
    "Finding",
    "PlanFacts",
    "PlanFailed",
    "PlanRun",
    "Style",
    "accepted",
    "escape_data",
    "escape_markdown",
    "escape_property",
    "findings",
    "list_document",
    "plan_notes",
    "plan_summary",
    "query_change",
    "render",
    "render_error",
    "render_list",
    "render_text",
    "render_value_document",
    "results_document",
    "results_secrets",
    "run_status",
    "shown_with_notes",
    "use_colour",
    "value_document",
]

_LABELS: Final = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "warn": "WARN", "note": "NOTE", "waived": "WAIVED",
                  "known": "KNOWN"}
# Failures first, then warnings (checks of warning severity, then passes with warnings), so the lines that
# need attention are at the top of a long run.
_ORDER: Final = {"error": 0, "fail": 1, "warn": 2, "pass": 4}


def _rank(result: CheckResult) -> int:
    accepted = result.warnings or result.waived or result.known or result.expired_waivers
    return 3 if result.status == "pass" and accepted else _ORDER[result.status]


def use_colour(stream: TextIO, environ: Mapping[str, str], choice: str = "auto") -> bool:
    """Whether to colour output: ``always``/``never``, else only on a terminal with ``NO_COLOR`` unset or empty.

    >>> import io
    >>> use_colour(io.StringIO(), {}), use_colour(io.StringIO(), {}, "always")
    (False, True)
    """
    if choice == "always":
        return True
    if choice == "never":
        return False
    if environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (ValueError, OSError):  # a closed or detached stream
        return False


class Style:
    """ANSI colours, or nothing.

    A colour is a :func:`~plancheck._text.style_mark`, made an escape sequence by the command's stream
    (:func:`~plancheck._text.terminal_safe`), which shows every other control character escaped: so text from
    the plan cannot restyle, erase or rewrite a line, and our colours still work.

    >>> from plancheck._text import terminal_safe
    >>> Style(False).status("fail"), terminal_safe(Style(True).status("pass"))
    ('FAIL', '\\x1b[32mPASS\\x1b[0m')
    """

    __slots__ = ("enabled",)
    _CODES: Final = {"pass": 32, "fail": 31, "error": 33, "warn": 35, "note": 36, "waived": 34, "known": 2, "dim": 2,
                     "bold": 1}

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, what: str, text: str) -> str:
        """``text`` in the colour for ``what``."""
        return f"{style_mark(self._CODES[what])}{text}{style_mark(0)}" if self.enabled else text

    def status(self, status: str) -> str:
        """The PASS/FAIL/ERROR label, coloured."""
        return self.paint(status, _LABELS[status])


def _subject(result: CheckResult, failure: CheckFailure | None, *, with_type: bool = True) -> str:
    address = failure.address if failure is not None and failure.address is not None else result.spec.address
    path = failure.path if failure is not None and failure.path is not None else result.spec.path
    parts = [result.spec.type] if with_type else []
    if address:
        parts.append(address)
    if path is not None and len(path):
        parts.append(path.to_text())
    return ": ".join(parts)


def plan_notes(plan: Plan | PlanFacts, *, quiet: bool = False) -> list[str]:
    """What the summary says about the plan itself: partial (always), not complete, not applyable (not with ``quiet``).

    >>> plan_notes(Plan.from_dict({"format_version": "1.2", "complete": False, "applyable": False}))
    ['the plan is not complete ("complete": false): another plan and apply are needed to converge', 'the plan is not applyable ("applyable": false): terraform apply would refuse it']
    >>> plan_notes(Plan.from_dict({"format_version": "1.2", "complete": False}), quiet=True)
    []
    """
    notes = [plan.partial_note] if plan.partial_note is not None else []
    if not quiet and plan.complete is False:
        notes.append('the plan is not complete ("complete": false): another plan and apply are needed to converge')
    if not quiet and plan.applyable is False:
        notes.append('the plan is not applyable ("applyable": false): terraform apply would refuse it')
    return notes


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

    def data(text: str) -> str:
        # Scrubbed before it is escaped: escaping changes how a secret holding a control character is spelled.
        return one_line(secrets.scrub(text))

    shown = {r.status for r in results}
    if not quiet:
        shown |= {"waived" for r in results if r.waived} | {"known" for r in results if r.known}
    width = max(len(_LABELS[status]) for status in (*shown, "note"))
    note = style.status("note") + " " * (width - 4)
    lines: list[str] = [f"{note}  {text}" for text in plan_notes(plan, quiet=quiet)]
    for result in sorted(results, key=_rank):
        if result.ok and quiet and not result.warnings:
            continue
        label = style.status(result.status) + " " * (width - len(_LABELS[result.status]))
        if not result.failures and not (result.ok and (result.warnings or result.waived or result.known)):
            lines.append(f"{label}  {data(_subject(result, None))}")
        for i, failure in enumerate(result.failures):
            # Further failures of the same check are indented under it, without repeating its name.
            lead = label if i == 0 else " " * (width + 2)
            subject = data(_subject(result, failure, with_type=i == 0))
            message = data(failure.message)
            lines.append(f"{lead}  {subject}: {message}" if subject else f"{lead}  {message}")
        warn = style.status("warn") + " " * (width - 4)
        for warning in result.warnings:
            subject = data(_subject(result, warning))
            message = data(warning.message)
            lines.append(f"{warn}  {subject}: {message}" if subject else f"{warn}  {message}")
        lines.extend(_accepted_lines(result, style, width, data, quiet))
    lines.extend(f"{note}  {data(fixed_note(entry, baseline or ''))}" for entry in fixed)
    if not quiet:
        passed, failed, errors, warned = (_counts(results)[key] for key in ("passed", "failed", "errors", "warnings"))
        counts = [style.paint("pass" if passed else "dim", f"{passed} passed")]
        counts.append(style.paint("fail" if failed else "dim", f"{failed} failed"))
        if errors:
            counts.append(style.paint("error", f"{errors} errors"))
        if warned:
            counts.append(style.paint("warn", f"{warned} warning{'s' if warned != 1 else ''}"))
        for what, count in (("waived", sum(len(r.waived) for r in results)), ("known", sum(len(r.known) for r in results))):
            if count:
                counts.append(style.paint(what, f"{count} {what}"))
        if fixed:
            counts.append(style.paint("note", f"{len(fixed)} fixed"))
        noun = "check" if len(results) == 1 else "checks"
        source = f" in {plan.source}" if plan.source else ""
        partial = " (a partial plan)" if plan.partial else ""
        lines.append(f"{len(results)} {noun}{source}{partial}: " + ", ".join(counts))
    return secrets.scrub("\n".join(lines))


def _accepted_lines(result: CheckResult, style: Style, width: int, data: Any, quiet: bool) -> list[str]:
    """A result's ``WAIVED`` and ``KNOWN`` lines (not when ``quiet``) and a ``NOTE`` per expired waiver."""
    lines = []
    if not quiet:
        label = style.status("waived") + " " * (width - 6)
        for waived in result.waived:
            waiver = waived.waiver
            until = f"until {waiver.until.isoformat()}" if waiver.until is not None else "no expiry"
            lines.append(f"{label}  {data(_subject(result, waived.failure))}: {data(waived.failure.message)} "
                         f"(waived by {data(waiver.origin)}, {until}: {data(waiver.reason)})")
        label = style.status("known") + " " * (width - 5)
        lines.extend(f"{label}  {data(_subject(result, failure))}: {data(failure.message)} (in the baseline)"
                     for failure in result.known)
    note = style.status("note") + " " * (width - 4)
    lines.extend(f"{note}  {data(expired_note(result.spec.type, waiver))}" for waiver in result.expired_waivers)
    return lines


def results_secrets(results: Sequence[CheckResult], plan: Plan | PlanFacts) -> Secrets:
    """The plan's secrets, trusting what the failures of ``results`` trust (their configuration names and given paths).

    What the whole output of a run is scrubbed with, so that a scrub at this exit keeps what the
    failures kept (:func:`plancheck._checking.messages.scrubbed_failure`).
    """
    return plan.secrets.trusting(
        t for r in results for f in (*r.failures, *r.warnings, *r.known, *(w.failure for w in r.waived)) for t in f.trusted
    )


def _counts(results: Sequence[CheckResult]) -> dict[str, int]:
    """The summary: checks by status (``warned``: of warning severity, failed), and how many warnings they report."""
    return {
        "total": len(results),
        "passed": sum(r.status == "pass" for r in results),
        "failed": sum(r.status == "fail" for r in results),
        "warned": sum(r.status == "warn" for r in results),
        "errors": sum(r.status == "error" for r in results),
        "warnings": sum(r.warning_count for r in results),
        "waived": sum(len(r.waived) for r in results),
        "known": sum(len(r.known) for r in results),
    }


def _failure_json(failure: CheckFailure) -> dict[str, Any]:
    shown = failure.shown_path if failure.shown_path is not None else None
    return {
        "address": failure.address,
        "path": shown if shown is not None else failure.path.to_text() if failure.path is not None else None,
        "message": failure.message,
    }


def plan_summary(plan: Plan | PlanFacts) -> dict[str, Any]:
    """What the verdicts stand on, as the JSON documents say it (``plan``): the plan's source and flags.

    >>> plan_summary(Plan.from_dict({"format_version": "1.2", "errored": True}, allow_errored=True))["partial"]
    True
    """
    return {
        "source": plan.source,
        "format_version": plan.format_version,
        "terraform_version": plan.terraform_version,
        "errored": plan.errored,
        "complete": plan.complete,
        "applyable": plan.applyable,
        "partial": plan.partial,
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
    document = {
        "schema_version": SCHEMA_VERSION,
        "kind": "results",
        "tool_version": tool_version,
        "ok": exit_status(results, fail_on) == 0,
        "fail_on": fail_on,
        "plan": plan_summary(plan),
        "summary": _counts(results),
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
# (the command's stream, a report file's) could miss it. Data is made one line first (:func:`one_line`): a
# newline or control character in an address cannot start a line of its own (a forged workflow command).

#: What ``--format`` and ``--report FORMAT=FILE`` take, the default first.
FORMATS: Final = ("text", "json", "junit", "sarif", "github", "markdown")

#: The SARIF version written, and the schema it is valid against (OASIS, errata 01).
_SARIF_VERSION: Final = "2.1.0"
_SARIF_SCHEMA: Final = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_TOOL: Final = "tfplancheck"


class PlanFacts(ReadOnly):
    """What the reports say of a plan besides its results: its source, its flags and its secrets.

    A :class:`PlanRun` holds the :class:`Plan` itself or these; a worker process checking one of many plans
    hands these back (they pickle, the whole plan need not travel), and the reports read the same fields
    of either.

    >>> facts = PlanFacts.of(Plan.from_dict({"format_version": "1.2", "errored": True}, source="p.json", allow_errored=True))
    >>> facts.source, facts.partial, facts.partial_note == PARTIAL_NOTE
    ('p.json', True, True)
    >>> import pickle
    >>> pickle.loads(pickle.dumps(facts)).errored
    True
    """

    __slots__ = ("applyable", "complete", "errored", "format_version", "secrets", "source", "terraform_version")
    source: str | None
    format_version: str
    terraform_version: str | None
    errored: bool | None
    complete: bool | None
    applyable: bool | None
    secrets: Secrets

    def __init__(self, source: str | None, format_version: str, terraform_version: str | None, errored: bool | None,
                 complete: bool | None, applyable: bool | None, secrets: Secrets) -> None:
        self._set(source=source, format_version=format_version, terraform_version=terraform_version, errored=errored,
                  complete=complete, applyable=applyable, secrets=secrets)

    @classmethod
    def of(cls, plan: Plan | PlanFacts) -> PlanFacts:
        """The facts of ``plan`` (its secrets collected now: they travel with them)."""
        return cls(plan.source, plan.format_version, plan.terraform_version, plan.errored, plan.complete,
                   plan.applyable, plan.secrets)

    @property
    def partial(self) -> bool:
        """As :attr:`Plan.partial`: planning failed, and the plan was read with ``--allow-errored``."""
        return self.errored is True

    @property
    def partial_note(self) -> str | None:
        """As :attr:`Plan.partial_note`."""
        return PARTIAL_NOTE if self.partial else None

    def __reduce__(self) -> tuple[Any, ...]:
        # Secrets do not pickle (an error holding them cannot carry them off); the facts hand theirs to the
        # process that writes the output, through the command's own pipe.
        return (_facts, (self.source, self.format_version, self.terraform_version, self.errored, self.complete,
                         self.applyable, secrets_state(self.secrets)))


def _facts(source: str | None, format_version: str, terraform_version: str | None, errored: bool | None,
           complete: bool | None, applyable: bool | None, secrets: tuple[tuple[str, ...], frozenset[str]]) -> PlanFacts:
    return PlanFacts(source, format_version, terraform_version, errored, complete, applyable, secrets_from_state(*secrets))


@frozen
class PlanFailed(FrozenValue):
    """A plan of many that could not be checked (bad input: exit status 2), in its place among the others.

    ``kind`` and ``message`` are what the error document of a run of that plan alone says.

    >>> PlanFailed("b.json", "plan", "b.json: invalid JSON").name
    'b.json'
    """

    source: str
    kind: str
    message: str

    @property
    def name(self) -> str:
        """The plan's name in the reports, as :attr:`PlanRun.name`."""
        return self.source

    def text(self) -> str:
        """The error, one line (a plan's own words are scrubbed already: it could not be read)."""
        return one_line(self.message)


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

    @property
    def name(self) -> str:
        """The plan's name in the reports: its file (``<stdin>`` for standard input)."""
        return self.plan.source or "<plan>"

    def secrets(self) -> Secrets:
        """What every string of this run's reports is scrubbed of (the text output's :func:`results_secrets`)."""
        return results_secrets(self.results, self.plan)

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


#: A plan of a run: checked (its results), or not (bad input).
Checked = PlanRun | PlanFailed


def run_status(runs: Sequence[Checked], fail_on: str = "error") -> int:
    """The exit status of all the runs together: the worst (2 a plan could not be read or a check could not run,
    1 a result fails, else 0).

    >>> run_status([]), run_status([PlanFailed("b.json", "plan", "b.json: invalid JSON")])
    (0, 2)
    """
    if any(isinstance(run, PlanFailed) for run in runs):
        return 2
    return exit_status([r for run in runs if isinstance(run, PlanRun) for r in run.results], fail_on)


def plans_line(runs: Sequence[Checked], fail_on: str = "error") -> str:
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
               one_line(secrets.scrub(f"waived by {w.waiver.origin}: {w.waiver.reason}")))
    for failure in result.known:
        yield _finding(result, "note", "KNOWN", failure, secrets), one_line(secrets.scrub(f"in the baseline {run.baseline}"))


def _finding(result: CheckResult, level: str, label: str, failure: CheckFailure, secrets: Secrets) -> Finding:
    def data(text: str | None) -> str | None:
        return None if text is None else one_line(secrets.scrub(text))

    address = failure.address if failure.address is not None else result.spec.address
    return Finding(level, label, result.spec.type, data(_subject(result, failure)) or "", data(address),
                   data(failure.message) or "")


def render(fmt: str, runs: Sequence[Checked], *, fail_on: str = "error", tool_version: str = "",
           style: Style | None = None, quiet: bool = False) -> str:
    """The results of ``runs`` in format ``fmt`` (one of :data:`FORMATS`), scrubbed of every run's secrets.

    ``runs`` are the plans in the order given (one :class:`PlanFailed` in the place of each plan that could not be
    read); a run of many plans ends with their one summary (:func:`plans_line`) in text and ``github``.

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
        return _render_text_runs(runs, style or Style(False), quiet, fail_on)
    if fmt == "json":
        return _render_json(runs, fail_on, tool_version)
    if fmt == "junit":
        return _render_junit(runs, fail_on)
    if fmt == "sarif":
        return _render_sarif(runs, fail_on, tool_version)
    if fmt == "github":
        return _render_github(runs, fail_on)
    if fmt == "markdown":
        return _render_markdown(runs, fail_on)
    raise ValueError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})")


def render_error(fmt: str, kind: str, message: str, tool_version: str = "") -> str:
    """What format ``fmt`` says of a run that stopped at bad input before any check ran (exit status 2).

    So a CI step reading a report finds the error, in the report's own terms: a JUnit ``error``, a SARIF
    invocation that did not succeed (with the message as its notification), a GitHub ``::error``, a Markdown
    heading, the JSON error document.

    >>> print(render_error("github", "checks", "checks.toml:3: check[0].type: unknown check 'X'"))
    ::error title=tfplancheck%3A checks error::checks.toml:3: check[0].type: unknown check 'X'
    """
    text = one_line(message)
    if fmt == "json":
        return render_json(error_document(kind, message, tool_version))
    if fmt == "junit":
        root = ET.Element("testsuites", name=_TOOL, tests="1", failures="0", errors="1", skipped="0")
        suite = ET.SubElement(root, "testsuite", name=_TOOL, tests="1", failures="0", errors="1", skipped="0")
        case = ET.SubElement(suite, "testcase", name=f"{kind} error", classname=_TOOL)
        ET.SubElement(case, "error", message=text, type=kind).text = text
        ET.indent(root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
    if fmt == "sarif":
        driver: dict[str, Any] = {"name": _TOOL, **({"version": tool_version} if tool_version else {})}
        invocation = {"executionSuccessful": False, "exitCode": 2, "properties": {"ok": False},
                      "toolExecutionNotifications": [{"level": "error", "message": {"text": text},
                                                      "descriptor": {"id": kind}}]}
        document = {"$schema": _SARIF_SCHEMA, "version": _SARIF_VERSION,
                    "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "results": []}]}
        return json.dumps(document, indent=2, ensure_ascii=False)
    if fmt == "github":
        return f"::error title={escape_property(f'{_TOOL}: {kind} error')}::{escape_data(text)}"
    if fmt == "markdown":
        return f"## {_TOOL}: error\n\n{escape_markdown(text)}"
    return f"{_TOOL}: error: {text}"


def _render_text_runs(runs: Sequence[Checked], style: Style, quiet: bool, fail_on: str) -> str:
    parts = []
    for run in runs:
        if isinstance(run, PlanFailed):
            parts.append(f"{style.status('error')}  {run.text()}\n{one_line(run.name)}: not checked (exit status 2)")
        else:
            parts.append(render_text(run.results, run.plan, style=style, quiet=quiet, fixed=run.fixed,
                                     baseline=run.baseline))
    if len(runs) > 1 and not quiet:
        parts.append(plans_line(runs, fail_on))
    return "\n\n".join(part for part in parts if part)


def _plan_document(run: Checked, fail_on: str, tool_version: str) -> dict[str, Any]:
    """What a run of this plan alone prints in JSON: its ``results`` document, or the ``error`` document naming it."""
    if isinstance(run, PlanFailed):
        return {**error_document(run.kind, run.message, tool_version), "source": run.source}
    secrets = run.secrets()
    document = results_document(run.results, run.plan, tool_version, fail_on, fixed=run.fixed, baseline=run.baseline)
    scrubbed: dict[str, Any] = copy_json(document, leaf=lambda value: secrets.scrub(value) if isinstance(value, str) else value)
    return scrubbed


def plans_document(runs: Sequence[Checked], fail_on: str, tool_version: str) -> dict[str, Any]:
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
        "plans": [_plan_document(run, fail_on, tool_version) for run in runs],
    }


def _render_json(runs: Sequence[Checked], fail_on: str, tool_version: str) -> str:
    run = runs[0] if len(runs) == 1 else None
    if isinstance(run, PlanRun):
        # One plan: the results document as it always was (a bad plan alone is an error document, said before).
        return render_json(results_document(run.results, run.plan, tool_version, fail_on, fixed=run.fixed,
                                            baseline=run.baseline), run.secrets())
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
        secrets = run.secrets()
        suite = ET.SubElement(root, "testsuite", name=one_line(secrets.scrub(run.name)))
        counts = dict.fromkeys(totals, 0)
        notes = run.notes()
        if notes:
            properties = ET.SubElement(suite, "properties")
            for note in notes:
                ET.SubElement(properties, "property", name="note", value=one_line(secrets.scrub(note)))
        for result in run.results:
            counts["tests"] += 1
            case = ET.SubElement(suite, "testcase", name=one_line(secrets.scrub(_subject(result, None))),
                                 classname=suite.get("name", ""))
            found = list(findings(run, result, fail_on, secrets))
            failing = [f for f in found if f.level == "error"]
            passed = [(f.label, f.text, why) for f, why in accepted(run, result, secrets)]
            if failing:
                kind = "error" if result.status == "error" else "failure"
                counts["errors" if kind == "error" else "failures"] += 1
                element = ET.SubElement(case, kind, message=failing[0].text, type=result.spec.type)
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
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


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
    ('The plan changes nothing: every resource and output is a no-op, nothing moves, imports or is deferred.', 'plan check MyOwnCheck')
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
    that could not be read: an error notification of the invocation, at that plan)."""
    rules: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    artifacts: dict[str, int] = {}
    notifications: list[dict[str, Any]] = []
    for run in runs:
        if isinstance(run, PlanFailed):
            uri = _artifact_uri(one_line(run.name))
            at = {"physicalLocation": {"artifactLocation": {"uri": uri, "index": artifacts.setdefault(uri, len(artifacts))}}}
            notifications.append({"level": "error", "message": {"text": run.text()}, "descriptor": {"id": run.kind},
                                  "locations": [at]})
            continue
        secrets = run.secrets()
        uri = _artifact_uri(one_line(secrets.scrub(run.name)))
        artifact = artifacts.setdefault(uri, len(artifacts))
        for result in run.results:
            for found, why in [*((f, "") for f in findings(run, result, fail_on, secrets)), *accepted(run, result, secrets)]:
                rule = rules.setdefault(found.check, len(rules))
                # A plan's JSON has no line per resource: the finding is on the plan file (GitHub code scanning
                # requires a region's startLine), and the resource is its logical location.
                location: dict[str, Any] = {
                    "physicalLocation": {"artifactLocation": {"uri": uri, "index": artifact}, "region": {"startLine": 1}},
                }
                if found.address:
                    kind = "variable" if found.address.startswith("output.") else "resource"
                    location["logicalLocations"] = [{"fullyQualifiedName": found.address, "kind": kind}]
                sarif_result: dict[str, Any] = {
                    "ruleId": found.check,
                    "ruleIndex": rule,
                    # An accepted failure keeps the level it would have, suppressed (so code scanning closes it).
                    "level": found.level if not why else "warning" if result.severity == "warning" else "error",
                    "message": {"text": found.text},
                    "locations": [location],
                    # What the same finding is in the next run: its check, subject and plan (all scrubbed), not
                    # its line, so code scanning tells new findings from known ones.
                    "partialFingerprints": {"tfplancheck/v1": _fingerprint(found.check, found.subject, uri)},
                    "properties": {"status": result.status, "severity": result.severity, "origin": result.spec.origin},
                }
                if why:
                    # A waiver stands in the checks file (in source); a baseline entry in a file of its own.
                    kind = "inSource" if found.label == "WAIVED" else "external"
                    sarif_result["suppressions"] = [{"kind": kind, "status": "accepted", "justification": why}]
                results.append(sarif_result)
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


# -- GitHub workflow commands -----------------------------------------------------------------------


def escape_data(text: str) -> str:
    """A workflow command's message escaped as GitHub's toolkit does (``%``, ``\\r``, ``\\n``).

    >>> escape_data("50% done\\nnext")
    '50%25 done%0Anext'
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value escaped as GitHub's toolkit does (also ``:`` and ``,``).

    >>> escape_property("ExpectKnownValue: a, b")
    'ExpectKnownValue%3A a%2C b'
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _render_github(runs: Sequence[Checked], fail_on: str) -> str:
    """An ``::error``/``::warning`` command per finding, titled with its check and plan, a ``::notice`` per note, then the
    counts (and, for many plans, their one summary line)."""
    lines: list[str] = []
    for run in runs:
        if isinstance(run, PlanFailed):
            title = escape_property(f"{_TOOL}: {run.kind} error ({one_line(run.name)})")
            lines.append(f"::error title={title}::{escape_data(run.text())}")
            continue
        secrets = run.secrets()
        name = one_line(secrets.scrub(run.name))
        for note in run.notes():
            lines.append(f"::notice title={escape_property(f'{_TOOL}: {name}')}::{escape_data(one_line(secrets.scrub(note)))}")
        for result in run.results:
            for found in findings(run, result, fail_on, secrets):
                title = escape_property(f"{_TOOL}: {found.check} ({name})")
                lines.append(f"::{found.level} title={title}::{escape_data(found.text)}")
            for found, why in accepted(run, result, secrets):
                title = escape_property(f"{_TOOL}: {found.check} ({name}) {found.label.lower()}")
                lines.append(f"::notice title={title}::{escape_data(f'{found.text} ({why})')}")
    lines += [_count_line(run) for run in runs]
    if len(runs) > 1:
        lines.append(f"{_TOOL}: {plans_line(runs, fail_on)}")
    return "\n".join(lines)


def _count_line(run: Checked) -> str:
    """The counts of one plan's run, one line (its name made one line: it cannot start a workflow command)."""
    if isinstance(run, PlanFailed):
        return f"{_TOOL}: {one_line(run.name)}: not checked ({run.kind} error)"
    counts = _counts(run.results)
    parts = [f"{counts['passed']} passed", f"{counts['failed']} failed"]
    parts += [f"{counts[key]} {key if counts[key] != 1 else key[:-1]}" for key in ("errors", "warnings") if counts[key]]
    parts += [f"{n} {what}" for n, what in ((run.waived, "waived"), (counts["known"], "known")) if n]
    noun = "check" if counts["total"] == 1 else "checks"
    return f"{_TOOL}: {one_line(run.secrets().scrub(run.name))}: {counts['total']} {noun}: {', '.join(parts)}"


# -- Markdown ---------------------------------------------------------------------------------------

#: What Markdown (CommonMark, GitHub's) reads as markup or HTML: shown with a backslash, so data stays text.
_MARKDOWN_SPECIAL: Final = frozenset("\\`*_[]<>|~&@#")


def escape_markdown(text: str) -> str:
    """``text`` shown literally in Markdown: its markup characters backslash-escaped (one line).

    >>> escape_markdown('triggers["a|b"] <script>')
    'triggers\\\\["a\\\\|b"\\\\] \\\\<script\\\\>'
    """
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in one_line(text))


def _render_markdown(runs: Sequence[Checked], fail_on: str) -> str:
    """A heading saying passed or failed (as the exit status does), then per plan a table of counts and each finding."""
    status = run_status(runs, fail_on)
    unread = any(isinstance(run, PlanFailed) for run in runs)
    verdict = {0: "passed", 1: "failed", 2: "error (a plan could not be read)" if unread else "error (a check could not run)"}[status]
    lines = [f"## {_TOOL}: {verdict}"]
    for run in runs:
        if isinstance(run, PlanFailed):
            lines += ["", f"### {escape_markdown(run.name)}", "", f"- **ERROR** not checked: {escape_markdown(run.text())}"]
            continue
        secrets = run.secrets()
        counts = _counts(run.results)
        lines += ["", f"### {escape_markdown(secrets.scrub(run.name))}", ""]
        notes = run.notes()
        lines += [*(f"> {escape_markdown(secrets.scrub(note))}" for note in notes), *([""] if notes else [])]
        lines.append("| checks | passed | failed | errors | warnings | waived |")
        lines.append("| ---: | ---: | ---: | ---: | ---: | ---: |")
        lines.append(f"| {counts['total']} | {counts['passed']} | {counts['failed']} | {counts['errors']} "
                     f"| {counts['warnings']} | {run.waived} |")
        shown = [(f, "") for r in run.results for f in findings(run, r, fail_on, secrets)]
        shown += [(f, f" ({why})") for r in run.results for f, why in accepted(run, r, secrets)]
        if shown:
            lines.append("")
            lines += [f"- **{found.label}** {escape_markdown(found.text + why)}" for found, why in shown]
    return "\n".join(lines)


# -- query: a plan's addresses, or the value at a path ---------------------------------------------


UNKNOWN_TEXT: Final = "(known after apply)"
# A string no plan holds: stands in for unknown values so render_value can lay them out, then is replaced.
_PLACEHOLDER: Final = "\x00tfplancheck-unknown\x00"
_PLACEHOLDER_JSON: Final = '"\\u0000tfplancheck-unknown\\u0000"'


def query_change(plan: Plan, address: str) -> Change:
    """The change at ``address`` (``output.NAME`` for an output); CliError naming close addresses if absent."""
    try:
        if address.startswith("output.") and not plan.has_resource_change(address):
            return plan.output_change(address[len("output.") :]).change
        return plan.resource_change(address).change
    except ResourceNotFoundError as exc:
        raise CliError("usage", str(exc)) from None


def _with_unknowns(value: Any, unknown: Marks) -> Any:
    """A copy of ``value`` with the placeholder wherever ``unknown`` marks a value (iteratively).

    Marks that do not fit the value fail closed (:func:`plancheck._redact.fit_marks`).

    >>> _with_unknowns({"a": "x", "b": ["y"]}, {"a": [True], "b": [True]}) == {"a": _PLACEHOLDER, "b": [_PLACEHOLDER]}
    True
    """
    unknown = fit_marks(unknown, value)
    if unknown is True:
        return _PLACEHOLDER
    if not isinstance(unknown, (Mapping, list)) or not isinstance(value, (Mapping, list, type(None))):
        return value
    root: list[Any] = [None]
    # Each task fills slot `key` of `parent` from (value, marks).
    stack: list[tuple[Any, Any, Any, Marks]] = [(root, 0, value, unknown)]
    while stack:
        parent, key, val, marks = stack.pop()
        marks = fit_marks(marks, val)
        if marks is True:
            parent[key] = _PLACEHOLDER
        elif isinstance(marks, Mapping) and isinstance(val, (Mapping, type(None))):
            copy: dict[str, Any] = dict(val or {})
            parent[key] = copy
            for k, sub in marks.items():
                if sub is not None and sub is not False:
                    stack.append((copy, k, copy.get(k), sub))
        elif isinstance(marks, list) and isinstance(val, (list, type(None))):
            items = list(val or [])
            items.extend([None] * (len(marks) - len(items)))
            parent[key] = items
            for i, sub in enumerate(marks):
                if sub is not None and sub is not False:
                    stack.append((items, i, items[i], sub))
        else:
            parent[key] = val
    return root[0]


def render_planned(value: Any, unknown: Marks, sensitive: Marks, plan: Plan) -> str:
    """A planned value as text: sensitive parts ``(sensitive)``, unknown parts ``(known after apply)``.

    >>> plan = Plan.from_dict({"format_version": "1.0"})
    >>> render_planned({"a": "x"}, {"id": True}, {"a": True}, plan)
    '{"a": (sensitive), "id": (known after apply)}'
    """
    text = render_value(_with_unknowns(value, unknown), sensitive, plan.secrets)
    return text.replace(_PLACEHOLDER_JSON, UNKNOWN_TEXT)


def _sides(change: Change, before: bool) -> tuple[Any, Marks, Marks]:
    if before:
        return change.before, None, change.before_sensitive
    return change.after, change.after_unknown, change.after_sensitive


def resolve(plan: Plan, address: str, path: Path, before: bool, *, shown: bool = False) -> ResolvedValue:
    """Resolve ``path`` in the after (or before) value of ``address``.

    ``shown``: under the marks of both sides (``before_sensitive`` and ``after_sensitive``), as the
    value is shown: a value marked on either side of a change is ``(sensitive)`` on both.
    """
    change = query_change(plan, address)
    value, unknown, sensitive = _sides(change, before)
    if shown:
        sensitive = union_marks(value, [change.before_sensitive, change.after_sensitive])
    return resolve_value(value, unknown, sensitive, path)


def value_document(plan: Plan, address: str, path: Path, before: bool) -> dict[str, Any]:
    """What ``query PLAN ADDRESS [PATH]`` reports, as a JSON-ready dict (kind ``value``)."""
    resolved = resolve(plan, address, path, before)
    if resolved.status is ValueStatus.UNKNOWN:
        text = UNKNOWN_TEXT
    elif resolved.status is ValueStatus.KNOWN:
        shown = resolve(plan, address, path, before, shown=True)
        text = render_planned(shown.value, shown.value_unknown, True if shown.sensitive else shown.value_sensitive, plan)
    elif resolved.status is ValueStatus.NULL:
        text = "null"
    else:
        text = ""
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "value",
        "ok": True,
        "address": shown_address(address, plan.secrets),
        "path": path.to_text(),
        "of": "before" if before else "after",
        "status": resolved.status.value,
        "unknown": resolved.unknown,
        "partly_unknown": resolved.partly_unknown,
        "sensitive": resolved.sensitive,
        "partly_sensitive": (not resolved.sensitive) and contains_sensitive(resolved.value_sensitive),
        "reason": resolved.reason or None,
        "value": plan.secrets.scrub(text) if text else None,
        "plan": plan_summary(plan),
    }


def render_value_document(doc: Mapping[str, Any]) -> str:
    """The text form of :func:`value_document`; its address and path on one line (their keys are scrubbed already)."""
    where = one_line(doc["address"] + (f" {doc['path']}" if doc["path"] else ""))
    status = doc["status"]
    if doc["partly_unknown"]:
        status += " (with unknown elements)"
    if doc["reason"]:
        status += f" ({doc['reason']})"
    if doc["sensitive"]:
        sensitive = "yes"
    elif doc["partly_sensitive"]:
        sensitive = "partly"
    else:
        sensitive = "no"
    lines = [f"{where} ({doc['of']})", f"  status:    {status}", f"  sensitive: {sensitive}"]
    if doc["value"] is not None:
        lines.append(f"  value:     {doc['value']}")
    return "\n".join(lines)


def list_document(plan: Plan) -> dict[str, Any]:
    """Every resource change and output change with its actions (kind ``addresses``), addresses as shown.

    >>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": 'a.b["pw-1234"]',
    ...     "change": {"actions": ["create"], "after": {"pw": "pw-1234"}, "after_sensitive": {"pw": True}}}]})
    >>> [r["address"] for r in list_document(plan)["resource_changes"]]
    ['a.b["(sensitive)"]']
    """
    secrets = plan.secrets
    resources = [
        {
            "address": shown_address(rc.address, secrets),
            "actions": list(rc.actions),
            **({"deposed": rc.deposed} if rc.deposed else {}),
        }
        for rc in plan.resource_changes
    ]
    outputs = [{"address": f"output.{name}", "actions": list(oc.actions)} for name, oc in plan.output_changes.items()]
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "addresses",
        "ok": True,
        "plan": plan.source,
        # ``plan`` is the source's name in schema 1 (a string): the flag a reader needs stands beside it.
        "partial": plan.partial,
        "resource_changes": resources,
        "output_changes": outputs,
    }


def render_list(doc: Mapping[str, Any]) -> str:
    """The text form of :func:`list_document`: one address and its actions per line (keys scrubbed already)."""
    rows = [
        (one_line(r["address"] + (f" (deposed {r['deposed']})" if "deposed" in r else "")), r["actions"])
        for r in [*doc["resource_changes"], *doc["output_changes"]]
    ]
    if not rows:
        return "(the plan has no resource or output changes)"
    width = max(len(address) for address, _ in rows)
    return "\n".join(f"{address.ljust(width)}  {', '.join(actions) or '(none)'}" for address, actions in rows)


def shown_with_notes(text: str, plan: Plan) -> str:
    """``text`` (a query's answer) after what it stands on, as the main command says it: a ``NOTE`` line for a partial plan.

    >>> print(shown_with_notes("null_resource.a  create", Plan.from_dict({"format_version": "1.2", "errored": True},
    ...                                                                    allow_errored=True)))
    NOTE  the plan is partial: planning failed ("errored": true), so it holds only what Terraform planned before the error
    null_resource.a  create
    """
    return "\n".join([*(f"NOTE  {note}" for note in plan_notes(plan, quiet=True)), text])
