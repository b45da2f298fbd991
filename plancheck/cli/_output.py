"""What a command prints about a plan: check results, query answers and snapshot comparisons, as text or JSON.

Check results are a human summary (optionally coloured) or a JSON document (shapes documented in
``plancheck/schemas/cli-output.schema.json``). ``query`` looks up a plan's addresses, or the value at a
path, redacted: ``output.NAME`` addresses an output change, anything else a resource change; unknown
values show as ``(known after apply)``, sensitive ones as ``(sensitive)``; every address shown goes
through :func:`plancheck._documents.plan.shown_address` (a ``for_each`` key can be a secret), and the
address column is laid out on what is shown, so its width tells nothing. ``snapshot`` (and ``mock-plan
--snapshot``) compare a plan with its snapshot file, or write it.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TextIO

from tfjsonpath import Path

from .._checking.equality import union_marks
from .._documents.plan import Change, Plan, ResourceNotFoundError, shown_address
from .._documents.resolve import ResolvedValue, ValueStatus, resolve_value
from .._errors import CheckFailure
from .._frozen import FrozenValue, frozen
from .._redact import Marks, Secrets, contains_sensitive, fit_marks, render_value
from .._text import one_line, style_mark
from ._checksfile import CheckResult, CheckSpec, exit_status
from ._io import SCHEMA_VERSION, CliError, UnreadableInput, read_input, render_json

if TYPE_CHECKING:
    from ._io import Io

__all__ = [
    "BASELINE_VERSION",
    "UNKNOWN_TEXT",
    "Baseline",
    "BaselineEntry",
    "BaselineError",
    "SnapshotUsageError",
    "Style",
    "apply_baseline",
    "baseline_document",
    "compare_snapshot",
    "failure_identity",
    "list_document",
    "parse_baseline",
    "plan_notes",
    "plan_summary",
    "query_change",
    "read_baseline",
    "render_list",
    "render_text",
    "render_value_document",
    "render_waivers",
    "results_document",
    "results_secrets",
    "shown_with_notes",
    "snapshot_document",
    "snapshot_ignore",
    "use_colour",
    "value_document",
    "waivers_document",
    "write_baseline",
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


def render_text(results: Sequence[CheckResult], plan: Plan, *, style: Style, quiet: bool = False,
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
    lines.extend(f"{note}  baseline entry no longer fails (remove it from {baseline}): {data(entry.describe())}"
                 for entry in fixed)
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
    for waiver in result.expired_waivers:
        assert waiver.until is not None
        lines.append(f"{note}  {data(waiver.origin)} ({data(waiver.address)}) expired on {waiver.until.isoformat()}: "
                     f"it no longer waives {data(result.spec.type)} (renew it with a new reason, or fix the failures)")
    return lines


def results_secrets(results: Sequence[CheckResult], plan: Plan) -> Secrets:
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


def results_document(results: Sequence[CheckResult], plan: Plan, tool_version: str,
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


def waivers_document(specs: Sequence[CheckSpec], on: datetime.date, tool_version: str) -> dict[str, Any]:
    """``--list-waivers`` (kind ``waivers``): every waiver of ``specs`` in order, its check, and whether it expired by ``on``.

    >>> from plancheck.cli._waivers import Waiver
    >>> spec = CheckSpec("ExpectNoDestroys", None, "c.toml check[0]", waivers=(Waiver("a.*", "why", None, "c.toml check[0].waive[0]"),))
    >>> print(render_waivers(waivers_document([spec], datetime.date(2027, 1, 31), "0.1.0")))
    c.toml check[0].waive[0]: ExpectNoDestroys: a.* (no expiry): why
    1 waiver (0 expired as of 2027-01-31)
    """
    return {"schema_version": SCHEMA_VERSION, "kind": "waivers", "tool_version": tool_version, "ok": True,
            "today": on.isoformat(),
            "waivers": [{**w.as_json(), "check": spec.type, "expired": w.expired(on)} for spec in specs for w in spec.waivers]}


def render_waivers(doc: Mapping[str, Any]) -> str:
    """The text form of :func:`waivers_document`: one waiver a line (``EXPIRED`` when it is), then a count."""
    lines = []
    for w in doc["waivers"]:
        until = "no expiry" if w["until"] is None else f"EXPIRED {w['until']}" if w["expired"] else f"until {w['until']}"
        lines.append(f"{w['origin']}: {w['check']}: {w['address']} ({until}): {w['reason']}")
    count, expired = len(doc["waivers"]), sum(w["expired"] for w in doc["waivers"])
    lines.append(f"{count} waiver{'' if count == 1 else 's'} ({expired} expired as of {doc['today']})")
    return "\n".join(one_line(line) for line in lines)


def shown_with_notes(text: str, plan: Plan) -> str:
    """``text`` (a query's answer) after what it stands on, as the main command says it: a ``NOTE`` line for a partial plan.

    >>> print(shown_with_notes("null_resource.a  create", Plan.from_dict({"format_version": "1.2", "errored": True},
    ...                                                                    allow_errored=True)))
    NOTE  the plan is partial: planning failed ("errored": true), so it holds only what Terraform planned before the error
    null_resource.a  create
    """
    return "\n".join([*(f"NOTE  {note}" for note in plan_notes(plan, quiet=True)), text])


# -- snapshot: a plan compared with (or written to) its snapshot file ---------------------------------


class SnapshotUsageError(Exception):
    """A bad ``--ignore`` or key: reported in one line, exit status 2."""


def snapshot_ignore(specs: Sequence[str]) -> list[Any]:
    from ..snapshot import parse_ignore_spec

    entries = []
    for spec in specs:
        try:
            entries.append(parse_ignore_spec(spec))
        except ValueError as exc:
            raise SnapshotUsageError(f"--ignore {exc}") from None
    return entries


def compare_snapshot(plan: Plan, file: str, *, update: bool, ignore: Sequence[str], io: Io,
                     max_bytes: int | None = None) -> tuple[int, list[str]]:
    """Compare (or write) the snapshot of ``plan`` in ``file``: (exit status, lines to print).

    The lines end with one naming what happened (see :func:`snapshot_document`).

    Raises :class:`SnapshotUsageError` for a bad ``--ignore`` or key, and
    :class:`plancheck.snapshot.SnapshotFormatError` for a file that is no snapshot.
    """
    from ..snapshot import IgnoreSpec, build, check_file, resolve_key

    entries = snapshot_ignore(ignore)
    try:
        key = resolve_key(None, io.environ)
    except ValueError as exc:
        raise SnapshotUsageError(str(exc)) from None
    text = build(plan, IgnoreSpec(entries, "--ignore"), key)
    outcome = check_file(text, plan.secrets, file, update=update, max_bytes=max_bytes)
    count = len(outcome.lines)
    differences = f"{count} difference{'' if count == 1 else 's'}"
    if outcome.status == "same":
        return 0, [f"{file}: the plan matches its snapshot"]
    if outcome.status == "written":
        return 0, [f"{file}: wrote the snapshot"]
    if outcome.status == "updated":
        return 0, [*outcome.lines, f"{file}: updated the snapshot ({differences})"]
    if outcome.status == "missing":
        raise SnapshotUsageError(f"{file}: no snapshot yet: write it with --update")
    return 1, [*outcome.lines, f"{file}: the plan differs from its snapshot ({differences}; accept them with --update)"]


def snapshot_document(file: str, status: int, lines: Sequence[str]) -> dict[str, Any]:
    """The ``snapshot`` outcome of :func:`compare_snapshot` for the JSON output: file, status word, ok, lines.

    >>> snapshot_document("p.snap", 0, ["p.snap: wrote the snapshot"])["status"]
    'written'
    >>> snapshot_document("p.snap", 1, ["a: 1 -> 2", "p.snap: the plan differs from its snapshot (1 difference)"])["ok"]
    False
    """
    last = lines[-1] if lines else ""
    word = ("differs" if status else "written" if last.endswith(": wrote the snapshot")
            else "updated" if ": updated the snapshot (" in last else "same")
    return {"file": file, "status": word, "ok": status == 0, "lines": list(lines)}


# -- baselines: failures accepted all at once, to fail only on new ones -------------------------------
#
# Baselines: the failures a team has accepted all at once, to fail only on new ones.
#
# A baseline file (``--write-baseline FILE``) records failures by identity: check type, address and path,
# as every output shows them (a secret in a ``for_each`` key is ``(sensitive)``; scrubbing is
# deterministic, so the same failure has the same identity in every run), never a message (messages
# change wording and may hold values). ``--baseline FILE`` moves the failures in it to ``known`` and lists
# its entries that no longer fail (``fixed``), so the file can shrink. The identity leaves out where the
# check stands in the checks file and its severity, so reordering, splitting or re-grading checks keeps
# the baseline valid; two checks of one type on one address and path share their entries. A whole-plan
# check (``ExpectEach*``) fails once, naming its selector: its identity is the selector's text and path,
# so a baseline accepts that check's failure whichever resources fail it.
#
# The file is JSON: ``{"tfplancheck_baseline": 1, "failures": [{"check", "address", "path"}, ...]}``,
# sorted, each identity once, so that it diffs well in review.


#: The version of the baseline file's format; a file of another version is refused.
BASELINE_VERSION: Final = 1


class BaselineError(ValueError):
    """A baseline file that cannot be read or written, or is no baseline (exit status 2).

    >>> str(BaselineError("base.json", "not JSON"))
    'base.json: not JSON'
    """

    def __init__(self, file: str, message: str) -> None:
        self.file = file
        self.message = message
        super().__init__(f"{file}: {message}")


@frozen
class BaselineEntry(FrozenValue):
    """A failure's identity: check type, address and path as shown (secrets scrubbed), never its message.

    >>> BaselineEntry("ExpectKnownValue", "a.b", "id").describe()
    'ExpectKnownValue: a.b: id'
    """

    check: str
    address: str | None
    path: str | None

    def key(self) -> tuple[str, str, str]:
        """The sort key: None sorts first."""
        return (self.check, self.address or "", self.path or "")

    def describe(self) -> str:
        """The entry as a report line names it."""
        return ": ".join(p for p in (self.check, self.address, self.path) if p)

    def as_json(self) -> dict[str, Any]:
        """The entry as the baseline file holds it."""
        return {"check": self.check, "address": self.address, "path": self.path}


@frozen
class Baseline(FrozenValue):
    """The entries of a baseline file.

    >>> Baseline("b.json", frozenset({BaselineEntry("ExpectEmptyPlan", None, None)})).file
    'b.json'
    """

    file: str
    entries: frozenset[BaselineEntry]


def failure_identity(result: CheckResult, failure: CheckFailure, secrets: Secrets) -> BaselineEntry:
    """The baseline identity of ``failure`` of ``result``: the address and path as every output shows them."""
    address = failure.address if failure.address is not None else result.spec.address
    if failure.path is not None:
        path: str | None = failure.shown_path if failure.shown_path is not None else failure.path.to_text()
    else:
        path = result.spec.path.to_text() if result.spec.path is not None and len(result.spec.path) else None
    shown = shown_address(address, secrets) if address is not None else None
    return BaselineEntry(result.spec.type, secrets.scrub(shown) if shown is not None else None,
                         secrets.scrub(path) if path is not None else None)


def apply_baseline(results: Sequence[CheckResult], baseline: Baseline,
                   secrets: Secrets) -> tuple[list[CheckResult], list[BaselineEntry]]:
    """The results with the failures in ``baseline`` moved to ``known``, and the entries no failure matched (fixed).

    A result whose every failure is known passes; errors are left as they are.
    """
    matched: set[BaselineEntry] = set()
    out: list[CheckResult] = []
    for result in results:
        if result.status not in ("fail", "warn"):
            out.append(result)
            continue
        kept: list[CheckFailure] = []
        known: list[CheckFailure] = []
        for failure in result.failures:
            entry = failure_identity(result, failure, secrets)
            if entry in baseline.entries:
                matched.add(entry)
                known.append(failure)
            else:
                kept.append(failure)
        out.append(dataclasses.replace(result, status=result.status if kept else "pass", failures=tuple(kept),
                                       known=(*result.known, *known)))
    # Entries whose failure was waived are not fixed: their failure is still there.
    for result in out:
        for waived in result.waived:
            matched.add(failure_identity(result, waived.failure, secrets))
    fixed = sorted(baseline.entries - matched, key=BaselineEntry.key)
    return out, fixed


def _entries(results: Iterable[CheckResult], secrets: Secrets) -> list[BaselineEntry]:
    entries = {failure_identity(r, f, secrets) for r in results for f in (*r.failures, *r.known)}
    return sorted(entries, key=BaselineEntry.key)


def baseline_document(results: Sequence[CheckResult], secrets: Secrets) -> dict[str, Any]:
    """The baseline file's document: its version and every failure's identity, sorted, each once."""
    return {"tfplancheck_baseline": BASELINE_VERSION, "failures": [e.as_json() for e in _entries(results, secrets)]}


def write_baseline(file: str, results: Sequence[CheckResult], secrets: Secrets) -> Baseline:
    """Write the baseline of ``results`` to ``file`` (whole or not at all); return it as read back."""
    document = baseline_document(results, secrets)
    text = render_json(document, secrets) + "\n"
    directory = os.path.dirname(os.path.abspath(file))
    try:
        fd, temporary = tempfile.mkstemp(prefix=".baseline-", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.chmod(temporary, 0o666 & ~_umask())  # as any file the user writes, not mkstemp's owner-only mode
            os.replace(temporary, file)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise BaselineError(file, f"cannot write the baseline: {exc.strerror or exc}") from None
    return parse_baseline(text, file)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def read_baseline(file: str, max_bytes: int | None = None) -> Baseline:
    """Read the baseline file ``file``; every problem is a :class:`BaselineError`."""
    from .._loading.source import max_input_bytes

    try:
        data = read_input(file, "baseline", limit=max_input_bytes(max_bytes))
    except UnreadableInput as exc:
        raise BaselineError(file, str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BaselineError(file, f"not UTF-8 text (byte {exc.start})") from None
    return parse_baseline(text, file)


def parse_baseline(text: str, file: str) -> Baseline:
    """A baseline file's text as a :class:`Baseline`.

    >>> parse_baseline('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.b", "path": null}]}', "b.json").entries
    frozenset({BaselineEntry('X', 'a.b', None)})
    >>> parse_baseline('{"failures": []}', "b.json")
    Traceback (most recent call last):
    ...
    plancheck.cli._output.BaselineError: b.json: not a tfplancheck baseline (no "tfplancheck_baseline": 1; write one with --write-baseline)
    """
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = f" (at line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise BaselineError(file, f"invalid JSON{where}") from None
    if not isinstance(document, dict) or "tfplancheck_baseline" not in document:
        raise BaselineError(file, f'not a tfplancheck baseline (no "tfplancheck_baseline": {BASELINE_VERSION}; '
                            "write one with --write-baseline)")
    version = document["tfplancheck_baseline"]
    if version != BASELINE_VERSION or isinstance(version, bool):
        raise BaselineError(file, f"baseline version {json.dumps(version)[:20]} is not supported "
                            f"(this tfplancheck reads version {BASELINE_VERSION})")
    extra = sorted(set(document) - {"tfplancheck_baseline", "failures"})
    if extra:
        raise BaselineError(file, f"unknown key {extra[0][:60]!r} (a baseline has tfplancheck_baseline and failures)")
    failures = document.get("failures")
    if not isinstance(failures, list):
        from tfjsonpath import describe_json_type

        raise BaselineError(file, f"failures: expected a list, found {describe_json_type(failures)}")
    entries = set()
    for i, item in enumerate(failures):
        if not isinstance(item, dict) or set(item) != {"check", "address", "path"}:
            raise BaselineError(file, f'failures[{i}]: expected a table of "check", "address" and "path"')
        if not isinstance(item["check"], str) or not all(isinstance(item[k], (str, type(None))) for k in ("address", "path")):
            raise BaselineError(file, f"failures[{i}]: check is a string; address and path are strings or null")
        entries.add(BaselineEntry(item["check"], item["address"], item["path"]))
    return Baseline(file, frozenset(entries))
