"""The text report (``--format text``, the default): a plan's notes, a line per check, failures first, and counts.

A plan's text is scrubbed of its run's secrets (:meth:`PlanRun.secrets`), each piece of data before it is made one
line and the whole text again: its one scrub, as every other format's document has its own
(:class:`~plancheck.cli._io.Rendered`: the command's stream does not scrub it again). In a run of many plans, each
plan's text part is its worker's, scrubbed here of the other plans' secrets the checks show (:data:`TEXT`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .._redact import Secrets
from .._text import one_line
from ._checksfile import CheckResult, verdict
from ._io import _LABELS, PlanFailed, PlanParts, Style, plan_notes
from ._runs import PartWriter, PlanRun, plans_line, subject_of
from ._waivers import expired_note, fixed_note, unused_note

__all__ = ["TEXT", "render_text", "render_text_runs"]

# Failures first, then warnings (checks of warning severity, then passes with warnings), so the lines that
# need attention are at the top of a long run.
_ORDER: Final = {"error": 0, "fail": 1, "warn": 2, "pass": 4}


def _rank(result: CheckResult) -> int:
    accepted = result.warnings or result.waived or result.known or result.expired_waivers
    return 3 if result.status == "pass" and accepted else _ORDER[result.status]


def render_text(run: PlanRun, *, style: Style, quiet: bool = False) -> str:
    """The human summary of ``run``: the plan's notes, one line per check (failures first), each reason, its warnings, then a count line.

    A warning is a ``WARN`` line of its own (printed with ``--quiet`` too): a failure of a check of
    ``warning`` severity, or what a check that was told to let what is unknown until apply pass with a
    warning warns about. The count line counts checks passed and failed, then errors and warnings (one
    per ``WARN`` line), each when there is one. A ``NOTE`` line says
    what the verdicts stand on (:func:`plan_notes`): a partial plan (printed with ``--quiet`` too), a plan
    that is not complete or not applyable.

    A failure a waiver accepts is a ``WAIVED`` line with the waiver's reason, expiry and origin; one in the
    run's baseline file a ``KNOWN`` line (neither with ``--quiet``); an expired waiver is a ``NOTE`` (with
    ``--quiet`` too), and so is each waiver that waived nothing (a result's ``unused_waivers``) and each entry of
    the baseline that no longer fails (``run.fixed``). The count line adds how many failures were waived and known,
    how many waivers are unused and how many baseline entries are fixed.

    >>> from plancheck import Plan
    >>> print(render_text(PlanRun(Plan.from_dict({"format_version": "1.2"}, source="hunter2.json"), ()), style=Style(False)))
    0 checks in hunter2.json: 0 passed, 0 failed
    """
    results, plan, fixed = run.results, run.plan, run.fixed
    secrets = run.secrets()
    shown = {r.status for r in results}
    if not quiet:
        shown |= {"waived" for r in results if r.waived} | {"known" for r in results if r.known}
    width = max(len(_LABELS[status]) for status in (*shown, "note"))
    note = style.paint("note") + " " * (width - 4)
    lines: list[str] = [f"{note}  {text}" for text in plan_notes(plan, quiet=quiet)]
    for result in sorted(results, key=_rank):
        if quiet and result.ok and not result.warnings:
            continue
        label = style.paint(result.status) + " " * (width - len(_LABELS[result.status]))
        if not result.failures and not (result.ok and (result.warnings or result.waived or result.known)):
            lines.append(f"{label}  {one_line(subject_of(result, None), secrets.scrub)}")
        for i, failure in enumerate(result.failures):
            # Further failures of the same check are indented under it, without repeating its name.
            lead = label if i == 0 else " " * (width + 2)
            subject = one_line(subject_of(result, failure, with_type=i == 0), secrets.scrub)
            message = one_line(failure.message, secrets.scrub)
            lines.append(f"{lead}  {subject}: {message}" if subject else f"{lead}  {message}")
        warn = style.paint("warn") + " " * (width - 4)
        for warning in result.warnings:
            subject = one_line(subject_of(result, warning), secrets.scrub)
            message = one_line(warning.message, secrets.scrub)
            lines.append(f"{warn}  {subject}: {message}" if subject else f"{warn}  {message}")
        if result.waived or result.known or result.expired_waivers:
            lines.extend(_accepted_lines(result, style, width, secrets, quiet))
    unused = [unused_note(r.spec.type, w, plan.source) for r in results for w in r.unused_waivers]
    lines.extend(f"{note}  {one_line(text, secrets.scrub)}" for text in unused)
    lines.extend(f"{note}  {one_line(fixed_note(entry, run.baseline or ''), secrets.scrub)}" for entry in fixed)
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
        if unused:
            counts.append(style.paint("note", f"{len(unused)} waiver{'s' if len(unused) != 1 else ''} unused"))
        if fixed:
            counts.append(style.paint("note", f"{len(fixed)} fixed"))
        noun = "check" if len(results) == 1 else "checks"
        source = f" in {one_line(plan.source, secrets.scrub)}" if plan.source else ""  # a file name may hold a newline
        partial = " (a partial plan)" if plan.partial else ""
        lines.append(f"{len(results)} {noun}{source}{partial}: " + ", ".join(counts))
    return secrets.scrub("\n".join(lines))


def _accepted_lines(result: CheckResult, style: Style, width: int, secrets: Secrets, quiet: bool) -> list[str]:
    """A result's ``WAIVED`` and ``KNOWN`` lines (not when ``quiet``) and a ``NOTE`` per expired waiver."""
    lines = []
    scrub = secrets.scrub
    if not quiet:
        label = style.paint("waived") + " " * (width - 6)
        for waived in result.waived:
            waiver = waived.waiver
            until = f"until {waiver.until.isoformat()}" if waiver.until is not None else "no expiry"
            lines.append(f"{label}  {one_line(subject_of(result, waived.failure), scrub)}: "
                         f"{one_line(waived.failure.message, scrub)} "
                         f"(waived by {one_line(waiver.origin, scrub)}, {until}: {one_line(waiver.reason, scrub)})")
        label = style.paint("known") + " " * (width - 5)
        lines.extend(f"{label}  {one_line(subject_of(result, failure), scrub)}: {one_line(failure.message, scrub)} "
                     "(in the baseline)" for failure in result.known)
    note = style.paint("note") + " " * (width - 4)
    lines.extend(f"{note}  {one_line(expired_note(result.spec.type, waiver), scrub)}" for waiver in result.expired_waivers)
    return lines


def render_text_runs(runs: Sequence[Any], style: Style, quiet: bool, fail_on: str) -> str:
    """The text output of a run: each plan's summary (an unread plan's error in its place), then, for many plans,
    their one summary line (not with ``quiet``)."""
    parts = []
    for run in runs:
        if isinstance(run, PlanFailed):
            parts.append(f"{style.paint('error')}  {run.text()}\n{one_line(run.name)}: not checked (exit status 2)")
        elif isinstance(run, PlanParts):
            parts.append(run.part(("text", style.enabled, quiet)))
        else:  # as _text_part, called here: the route of a failing check through the command line stays as short
            parts.append(render_text(run, style=style, quiet=quiet))
    if len(runs) > 1 and not quiet:
        parts.append(plans_line(runs, fail_on))
    return "\n\n".join(part for part in parts if part)


def _text_part(run: PlanRun, colour: bool, quiet: bool) -> str:
    return render_text(run, style=Style(colour), quiet=quiet)


def _text_scrubbed(part: str, secrets: Secrets) -> str:
    """A text part scrubbed of ``secrets`` too (the other plans' the checks show): the part's data is one line already,
    as the stream found it when it scrubbed the text.

    >>> _text_scrubbed("FAIL  a.b: hunter2", Secrets(["hunter2"]))
    'FAIL  a.b: (sensitive)'
    """
    return secrets.scrub(part)


#: A plan's text part, keyed by its colour and ``--quiet``.
TEXT: Final = PartWriter("text", _text_part, _text_scrubbed)
