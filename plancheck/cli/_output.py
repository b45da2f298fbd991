"""Rendering check results: a human summary (optionally coloured) or JSON for machines.

The JSON shapes are documented in ``plancheck/schemas/cli-output.schema.json``;
``SCHEMA_VERSION`` changes only when a change would break a reader.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final, TextIO

from .._documents.plan import Plan
from .._errors import CheckFailure
from .._redact import Secrets
from .._text import one_line, style_mark
from ._run import CheckResult

__all__ = [
    "SCHEMA_VERSION",
    "Style",
    "error_document",
    "plan_notes",
    "plan_summary",
    "render_json",
    "render_text",
    "results_secrets",
    "use_colour",
]

SCHEMA_VERSION: Final = 1

_LABELS: Final = {"pass": "PASS", "fail": "FAIL", "error": "ERROR", "warn": "WARN", "note": "NOTE"}
# Failures first, then passes with warnings, so the lines that need attention are at the top of a long run.
_ORDER: Final = {"error": 0, "fail": 1, "pass": 3}


def _rank(result: CheckResult) -> int:
    return 2 if result.status == "pass" and result.warnings else _ORDER[result.status]


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
    _CODES: Final = {"pass": 32, "fail": 31, "error": 33, "warn": 35, "note": 36, "dim": 2, "bold": 1}

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


def plan_notes(plan: Plan, *, quiet: bool = False) -> list[str]:
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


def render_text(results: Sequence[CheckResult], plan: Plan, *, style: Style, quiet: bool = False) -> str:
    """The human summary: the plan's notes, one line per check (failures first), each reason, its warnings, then a count line.

    A warning is a ``WARN`` line of its own (printed with ``--quiet`` too): the check passed, but only
    because it was told to let what is unknown until apply pass with a warning. A ``NOTE`` line says
    what the verdicts stand on (:func:`plan_notes`): a partial plan (printed with ``--quiet`` too), a plan
    that is not complete or not applyable.
    """
    secrets = results_secrets(results, plan)

    def data(text: str) -> str:
        # Scrubbed before it is escaped: escaping changes how a secret holding a control character is spelled.
        return one_line(secrets.scrub(text))

    width = 5 if any(r.status == "error" for r in results) else 4
    note = style.status("note") + " " * (width - 4)
    lines: list[str] = [f"{note}  {text}" for text in plan_notes(plan, quiet=quiet)]
    for result in sorted(results, key=_rank):
        if result.ok and quiet and not result.warnings:
            continue
        label = style.status(result.status) + " " * (width - len(_LABELS[result.status]))
        if not result.failures and not (result.ok and result.warnings):
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
    if not quiet:
        passed = sum(r.ok for r in results)
        failed = sum(r.status == "fail" for r in results)
        errors = sum(r.status == "error" for r in results)
        warned = sum(len(r.warnings) for r in results)
        counts = [style.paint("pass" if passed else "dim", f"{passed} passed")]
        counts.append(style.paint("fail" if failed else "dim", f"{failed} failed"))
        if errors:
            counts.append(style.paint("error", f"{errors} errors"))
        if warned:
            counts.append(style.paint("warn", f"{warned} warning{'s' if warned != 1 else ''}"))
        noun = "check" if len(results) == 1 else "checks"
        source = f" in {plan.source}" if plan.source else ""
        partial = " (a partial plan)" if plan.partial else ""
        lines.append(f"{len(results)} {noun}{source}{partial}: " + ", ".join(counts))
    return secrets.scrub("\n".join(lines))


def results_secrets(results: Sequence[CheckResult], plan: Plan) -> Secrets:
    """The plan's secrets, trusting what the failures of ``results`` trust (their configuration names and given paths).

    What the whole output of a run is scrubbed with, so that a scrub at this exit keeps what the
    failures kept (:func:`plancheck._checking.messages.scrubbed_failure`).
    """
    return plan.secrets.trusting(t for r in results for f in (*r.failures, *r.warnings) for t in f.trusted)


def _failure_json(failure: CheckFailure) -> dict[str, Any]:
    shown = failure.shown_path if failure.shown_path is not None else None
    return {
        "address": failure.address,
        "path": shown if shown is not None else failure.path.to_text() if failure.path is not None else None,
        "message": failure.message,
    }


def plan_summary(plan: Plan) -> dict[str, Any]:
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


def results_document(results: Sequence[CheckResult], plan: Plan, tool_version: str) -> dict[str, Any]:
    """The JSON document of a run (kind ``results``), in check order."""
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "results",
        "tool_version": tool_version,
        "ok": all(r.ok for r in results),
        "plan": plan_summary(plan),
        "summary": {
            "total": len(results),
            "passed": sum(r.ok for r in results),
            "failed": sum(r.status == "fail" for r in results),
            "errors": sum(r.status == "error" for r in results),
            "warnings": sum(len(r.warnings) for r in results),
        },
        "results": [
            {
                "origin": r.spec.origin,
                "check": r.spec.type,
                "address": r.spec.address,
                "path": r.spec.path.to_text() if r.spec.path is not None else None,
                "status": r.status,
                "failures": [_failure_json(f) for f in r.failures],
                "warnings": [_failure_json(w) for w in r.warnings],
            }
            for r in results
        ],
    }


def render_json(document: Mapping[str, Any], secrets: Secrets | None = None) -> str:
    """JSON text of ``document`` with every string value scrubbed of ``secrets`` (keys are ours, never scrubbed).

    >>> print(render_json({"message": "pw is hunter2"}, Secrets(["hunter2"])))
    {
      "message": "pw is (sensitive)"
    }
    """
    data = _scrubbed_copy(document, secrets) if secrets is not None and len(secrets) else document
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def _scrubbed_copy(document: Mapping[str, Any], secrets: Secrets) -> Any:
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, document)]
    while stack:
        parent, key, value = stack.pop()
        if isinstance(value, str):
            parent[key] = secrets.scrub(value)
        elif isinstance(value, Mapping):
            copy: dict[str, Any] = {}
            parent[key] = copy
            for k, v in value.items():
                copy[k] = None
                stack.append((copy, k, v))
        elif isinstance(value, (list, tuple)):
            items: list[Any] = [None] * len(value)
            parent[key] = items
            stack.extend((items, i, v) for i, v in enumerate(value))
        else:
            parent[key] = value
    return root[0]


def error_document(kind: str, message: str, tool_version: str) -> dict[str, Any]:
    """The JSON document reporting a usage, plan, checks-file or terraform error (exit status 2).

    >>> error_document("plan", "p.json: bad", "0.1.0")["error"]
    {'kind': 'plan', 'message': 'p.json: bad'}
    """
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "error",
        "tool_version": tool_version,
        "ok": False,
        "error": {"kind": kind, "message": message},
    }
