"""A plan checked, as every report format reads it: its run, its findings, its status, its secrets, its parts.

Every format (:mod:`plancheck.cli._text_report`, :mod:`plancheck.cli._report_formats`) writes the runs of the
plans checked (:class:`PlanRun`, one per plan, so many plans fit) and says what the exit status says
(:func:`run_status`): a finding that fails the run (:func:`findings`: a failure of an ``error`` check, a check
that could not run; under ``--fail-on warning`` any warning) is an error, any other finding a warning, a failure
a waiver or the baseline accepts a note (:func:`accepted`). Every string a report takes from a plan or a message
is scrubbed of :meth:`PlanRun.secrets` first.

In a run of many plans, each plan's worker writes the plan's part of every format (:class:`PartWriter`: the
format's maker, and the scrub that knows the same part's shape), and the command joins the parts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from .._documents.plan import Plan
from .._errors import CheckFailure
from .._frozen import FrozenValue, frozen
from .._redact import Secrets
from .._text import one_line
from ._checksfile import CheckResult, verdict
from ._io import PlanFacts, PlanFailed, PlanParts, plan_notes
from ._waivers import expired_note, fixed_note, unused_note

if TYPE_CHECKING:
    from ._waivers import BaselineEntry

__all__ = [
    "TOOL",
    "Checked",
    "Finding",
    "PartWriter",
    "PlanRun",
    "accepted",
    "findings",
    "plans_line",
    "run_status",
    "subject_of",
]

#: The tool's name, as every report names it.
TOOL: Final = "tfplancheck"


@frozen
class PlanRun(FrozenValue):
    """The results of the checks run on one plan, as the reports name it.

    ``waived`` counts the failures a waiver let pass (reported, never silent); with ``--baseline``,
    ``baseline`` names its file and ``fixed`` holds its entries no failure matched any more. A waiver that waived
    nothing is its result's (``unused_waivers``).

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
        """What every string of this run's reports is scrubbed of: the plan's secrets, trusting what the failures of its
        results trust (their configuration names and given paths), so a report's scrub keeps what the failures kept
        (:func:`plancheck._checking.messages.scrubbed_failure`); and the secrets of the other plans of the run it may
        show (``apart``).

        >>> from plancheck import Plan
        >>> plan = Plan.from_dict({"format_version": "1.2", "variables": {"pw": {"value": "hunter2"}},
        ...                        "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}}})
        >>> PlanRun(plan, ()).secrets().scrub("pw hunter2")
        'pw (sensitive)'
        """
        own = self.plan.secrets.trusting(partial(_trusted_by, self.results))
        return own if self.apart is None else Secrets.union([own, self.apart])

    def notes(self) -> list[str]:
        """What the reports note besides findings: the plan's notes, each expired waiver, each waiver that waived
        nothing, each baseline entry fixed."""
        return [*plan_notes(self.plan), *(expired_note(r.spec.type, w) for r in self.results for w in r.expired_waivers),
                *[unused_note(r.spec.type, w, self.plan.source) for r in self.results for w in r.unused_waivers],
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
    ``WAIVED`` ones with their waiver's origin, expiry (when it has one) and reason, the ``KNOWN`` ones with the
    baseline file naming them.
    Their level is ``note``: they never fail the run.

    >>> list(accepted(PlanRun(Plan.from_dict({"format_version": "1.2"}), ()), CheckResult(None, "pass"), Secrets()))
    []
    """
    for w in result.waived:
        # Its expiry as the text report says it: a reader of any format sees when the failure fails again.
        until = f", until {w.waiver.until.isoformat()}" if w.waiver.until is not None else ""
        yield (_finding(result, "note", "WAIVED", w.failure, secrets),
               one_line(f"waived by {w.waiver.origin}{until}: {w.waiver.reason}", secrets.scrub))
    for failure in result.known:
        yield (_finding(result, "note", "KNOWN", failure, secrets),
               one_line(f"in the baseline {run.baseline}", secrets.scrub))


def _finding(result: CheckResult, level: str, label: str, failure: CheckFailure, secrets: Secrets) -> Finding:
    address = failure.address if failure.address is not None else result.spec.address
    return Finding(level, label, one_line(result.spec.type, secrets.scrub), one_line(subject_of(result, failure), secrets.scrub),
                   None if address is None else one_line(address, secrets.scrub), one_line(failure.message, secrets.scrub))


def subject_of(result: CheckResult, failure: CheckFailure | None, *, with_type: bool = True) -> str:
    """What a report line names: the check's type (not with ``with_type`` false), then the address and the path
    (the failure's, else the check's; the root path adds no part).

    >>> from plancheck.cli._checksfile import CheckSpec
    >>> subject_of(CheckResult(CheckSpec("ExpectNoDestroys", None, "c.toml", address="a.b"), "pass"), None)
    'ExpectNoDestroys: a.b'
    """
    address = failure.address if failure is not None and failure.address is not None else result.spec.address
    path = failure.path if failure is not None and failure.path is not None else result.spec.path
    parts = [result.spec.type] if with_type else []
    if address:
        parts.append(address)
    if path is not None and path.steps:  # the root path adds no part
        parts.append(path.to_text())
    return ": ".join(parts)


def _trusted_by(results: Sequence[CheckResult]) -> list[str]:
    """What the failures of ``results`` trust: asked by a scrub only when it finds a span (most outputs show no secret)."""
    return [t for r in results for f in (*r.failures, *r.warnings, *r.known, *(w.failure for w in r.waived)) for t in f.trusted]


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


@frozen
class PartWriter(FrozenValue):
    """How format ``name`` writes one plan's part: ``make`` renders it from the plan's run and the options shaping it
    (its worker does, in a run of many plans), ``scrubbed`` gives the part with each of its values scrubbed of more
    secrets too (the other plans' that the checks show), in the same shape. Side by side, so they agree on it.

    >>> writer = PartWriter("upper", lambda run, loud: run.name.upper(), lambda part, secrets: secrets.scrub(part))
    >>> run = PlanRun(Plan.from_dict({"format_version": "1.2"}, source="hunter2.json"), ())
    >>> writer.of(run, True), writer.scrubbed(writer.of(run, True), Secrets(["HUNTER2"]))
    ('HUNTER2.JSON', '(sensitive).JSON')
    """

    name: str
    make: Callable[..., Any]
    scrubbed: Callable[[Any, Secrets], Any]

    def of(self, run: Checked, *options: Any) -> Any:
        """The part of ``run`` for ``options``: as its worker rendered it (a :class:`PlanParts`), or rendered here."""
        if isinstance(run, PlanParts):
            return run.part((self.name, *options))
        return self.make(run, *options)
