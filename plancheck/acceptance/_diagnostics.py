"""Diagnostics: :class:`ExpectDiagnostic`, reading what Terraform reported, and one step's verdicts.

A step's ``expect_diagnostics`` and ``allow_warnings`` (and the case's ``fail_on_warnings``) are
matched against :class:`Diagnostic` records read from Terraform's machine-readable output; this
module holds the definitions, the reading, the matching and the wording of failures.

Decisions:

* a ``str`` field matches exactly, an ``re.Pattern`` by ``search``; every field given must match
  one and the same diagnostic, and each expectation needs a diagnostic of its own kind, not one of
  its own (two expectations may be met by the same diagnostic, as Go's ``diagcheck`` checks are);
* ``attribute`` (a :class:`tfjsonpath.Path`): Terraform's JSON diagnostics carry an ``address``,
  a source ``range`` and a ``snippet``, never the attribute path. A provider served in this process
  (``providers={address: factory}``) is seen answering each RPC, so the attribute paths of its
  diagnostics are recorded and joined to Terraform's by severity, summary and detail (and the
  resource type of the address). Where that join finds no recorded diagnostic (Terraform's own, an
  external or reattached provider's) or more than one path, the attribute is *unknown* or
  *ambiguous* and an ``attribute=`` expectation is not met; the failure says which. A step whose
  providers include none served in this process cannot use ``attribute=`` at all
  (:func:`check_attribute_sources`, at definition);
* failures list the diagnostics that arrived sorted by severity (errors first), address, summary,
  detail and source position, identical ones once (Terraform reports a provider's validation
  diagnostics in its validate walk and again in its plan walk).

Reading Terraform's machine-readable diagnostics, and showing them as Terraform's text output would.
Two shapes, the same on Terraform 1.0.3 and 1.11.4 (format ``0.1``/``1.0``, UI ``0.1.0``/``1.2``):

* ``terraform validate -json`` prints one document: ``{"format_version", "valid", "error_count",
  "warning_count", "diagnostics": [...]}``;
* ``terraform plan|apply|refresh -json`` print one JSON object per line (``@level``, ``@message``,
  ``@module``, ``@timestamp``, ``type``); a diagnostic is ``{"type": "diagnostic", "diagnostic": {...}}``.

A diagnostic has ``severity`` (``"error"``/``"warning"``), ``summary``, ``detail`` and, when known,
``address`` (``widget_thing.t``), ``range`` (``filename``, ``start.line``, ``start.column``) and
``snippet`` (``context``, ``code``, ``start_line``, ``values`` of ``traversal``/``statement``).

The runner shows none of the JSON: each line becomes its ``@message`` (the ``version`` line is
left out, as Terraform's text output has none) and each diagnostic the block Terraform's text
output prints (``Error: summary``, ``with address,``, ``on file line N, in context:``, the code
line, the detail; not wrapped). Errors go to the text of stderr, everything else to stdout, as
in Terraform's text output, so ``expect_error``, the log and :class:`AcceptanceError` read the same
words either way. A line that is not a JSON object, or a diagnostic of another shape, is withheld
(its secrets cannot be known) and named in :attr:`Reading.problems`.

:class:`StepDiagnostics` holds the diagnostics of one step: which commands run with ``-json``, what
they reported, and the verdicts. Only a step that asks (``expect_diagnostics``, ``allow_warnings``) or runs in a case with
``fail_on_warnings=True`` changes how its commands run: its ``plan``, ``apply`` and ``refresh``
commands get ``-json``, and a config-mode step also runs ``terraform validate -json`` after
``init`` (whose errors do not stop the step: the plan reports them again and decides, as for
any other step). Every other step runs exactly as before: the least risky choice, since Terraform's
``-json`` output replaces the human-readable plan with one line per change, so the log of a
step that asks shows ``widget_thing.t: Plan to create`` where the text plan would be. Import
and query steps are never switched (``terraform import`` has no JSON output; a query already is).

A failed ``init`` (no JSON output on Terraform 1.0) is followed by ``validate -json``, which
reports the configuration's errors (an HCL syntax error, say) as diagnostics.

Each command's diagnostics are checked as it ends: with ``fail_on_warnings``, a warning that
no ``allow_warnings`` entry and no warning of ``expect_diagnostics`` matches fails the step at
that command's stage, naming it. The expectations are checked when the step ends: after a
failure whose command reported errors, the step passes when every expectation was met and one of
them is an error (as ``expect_error``); after a success, every expectation must have been met.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, replace
from typing import Any, Final, Literal

from tfjsonpath import Path
from tfjsonpath._jsontypes import json_kind

from .._checking.matcher import search_pattern
from .._errors import DocumentFormatError
from .._frozen import FrozenValue, frozen, keyword_hints, public
from .._loading.jsontext import loads_exact
from .._terraform.binary import CommandResult
from .._terraform.providers.wire import ProviderDiagnostic
from ._errors import TestDefinitionError, _StepFailure

__all__ = [
    "CONDITION_SUMMARIES",
    "Diagnostic",
    "DiagnosticsFailure",
    "ExpectDiagnostic",
    "JSON_COMMANDS",
    "ProviderDiagnostic",
    "Reading",
    "SEVERITIES",
    "StepDiagnostics",
    "allowances",
    "attribute_text",
    "check_attribute_sources",
    "describe",
    "expectations",
    "failed_conditions",
    "join_attributes",
    "listing",
    "read_ui",
    "read_validate",
    "render",
    "text_diagnostics",
]


SEVERITIES: Final = ("error", "warning")
_FIELDS: Final = ("severity", "summary", "detail", "address", "attribute")
#: Text fields: a str is matched exactly, a compiled pattern by search.
_TEXT_FIELDS: Final = ("summary", "detail", "address")

Text = str | re.Pattern[str]
#: How a diagnostic's attribute path is known: from a provider served in this process (``path``),
#: reported by it without one (``none``), not reported by one (``unknown``), or by it at several (``ambiguous``).
AttributeStatus = Literal["path", "none", "unknown", "ambiguous"]


def _type_name(value: object) -> str:
    return type(value).__name__


def _quoted(value: object) -> str:
    return json.dumps(value) if isinstance(value, str) else _type_name(value)


def _checked(where: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` checked field by field; a problem raises :class:`TestDefinitionError` at ``where.field``."""
    severity = values.get("severity")
    if severity not in SEVERITIES or not isinstance(severity, str):
        raise TestDefinitionError(f"{where}.severity", f'expected "error" or "warning", got {_quoted(severity)}')
    checked: dict[str, Any] = {"severity": severity}
    for name in _TEXT_FIELDS:
        value = values.get(name)
        if isinstance(value, re.Pattern) and not isinstance(value.pattern, str):
            raise TestDefinitionError(f"{where}.{name}", "expected a str pattern, got a bytes pattern")
        if value is not None and not isinstance(value, (str, re.Pattern)):
            raise TestDefinitionError(
                f"{where}.{name}", f"expected a str (matched exactly) or an re.Pattern (searched), got {_type_name(value)}"
            )
        checked[name] = value
    if checked["address"] == "":
        raise TestDefinitionError(
            f"{where}.address", "an empty address matches nothing: Terraform leaves the address out of diagnostics that have none"
        )
    attribute = values.get("attribute")
    if attribute is not None and not isinstance(attribute, Path):
        raise TestDefinitionError(
            f"{where}.attribute", f'expected a tfjsonpath.Path such as tfjsonpath.New("size"), got {_type_name(attribute)}'
        )
    if attribute is not None and not attribute.steps:
        raise TestDefinitionError(f"{where}.attribute", "the root path names no attribute")
    checked["attribute"] = attribute
    return checked


def _text_matches(expected: Text | None, actual: str | None) -> bool:
    if expected is None:
        return True
    if actual is None:
        return False
    if isinstance(expected, str):
        return actual == expected
    return search_pattern(expected, actual, "ExpectDiagnostic")


@frozen
class Diagnostic(FrozenValue):
    """One diagnostic Terraform reported (``terraform validate -json`` or a ``-json`` UI line).

    ``attribute`` and ``attribute_status`` are filled in by :func:`join_attributes`; ``candidates``
    are the paths an ambiguous one could be.

    >>> d = Diagnostic("warning", "Attribute deprecated", "use tags", address="widget_thing.t")
    >>> print(describe(d))
    warning: Attribute deprecated
      detail: use tags
      address: widget_thing.t
      attribute: unknown (not reported by a provider served in this process)
    """

    severity: str
    summary: str
    detail: str
    address: str | None = None
    filename: str | None = None
    line: int | None = None
    column: int | None = None
    context: str | None = None
    code: str | None = None
    code_line: int | None = None
    values: tuple[tuple[str, str], ...] = ()
    attribute: Path | None = None
    attribute_status: AttributeStatus = "unknown"
    candidates: tuple[Path, ...] = ()

    def key(self) -> tuple[Any, ...]:
        """What makes two reports the same diagnostic (Terraform repeats some in later walks)."""
        return (self.severity, self.summary, self.detail, self.address, self.filename, self.line, self.column)

    def sort_key(self) -> tuple[Any, ...]:
        """Errors first, then by address, summary, detail and position: the order failures list them in."""
        return (
            SEVERITIES.index(self.severity) if self.severity in SEVERITIES else len(SEVERITIES),
            self.address or "",
            self.summary,
            self.detail,
            self.filename or "",
            self.line or 0,
            self.column or 0,
        )


@public("plancheck.acceptance")
@keyword_hints()
@frozen
class ExpectDiagnostic(FrozenValue):
    """A diagnostic a step must report: ``TestStep(expect_diagnostics=[...])``.

    ``severity`` is ``"error"`` or ``"warning"``; ``summary``, ``detail`` and ``address`` (the
    resource address Terraform gives, such as ``widget_thing.t``) are each a ``str``, matched
    exactly, or a compiled ``re.Pattern``, searched; ``attribute`` is a :class:`tfjsonpath.Path`.
    Every field given must match the same diagnostic.

    >>> import re
    >>> from tfjsonpath import New
    >>> expected = ExpectDiagnostic("warning", "Attribute deprecated", detail=re.compile("use tags"),
    ...                             address="widget_thing.t", attribute=New("color"))
    >>> expected
    ExpectDiagnostic('warning', summary='Attribute deprecated', detail=re.compile('use tags'), address='widget_thing.t', attribute=Path(MapStep('color')))
    >>> expected.matches({"severity": "warning", "summary": "Attribute deprecated",
    ...                   "detail": "color is deprecated: use tags", "address": "widget_thing.t"}, New("color"))
    True
    >>> ExpectDiagnostic("error", re.compile("^Invalid")).matches({"severity": "error", "summary": "Invalid size", "detail": ""})
    True

    An error that arrives makes the step pass (as ``expect_error``); warnings are expected of a
    step that otherwise succeeds. Bad arguments raise :class:`TestDefinitionError`:

    >>> ExpectDiagnostic("fatal")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: ExpectDiagnostic.severity: expected "error" or "warning", got "fatal"
    """

    severity: str
    summary: Text | None = None
    _: KW_ONLY
    detail: Text | None = None
    address: Text | None = None
    attribute: Path | None = None

    def __post_init__(self) -> None:
        self._set(**_checked("ExpectDiagnostic", {name: getattr(self, name) for name in _FIELDS}))

    def _args(self, *, shown: bool = False) -> tuple[tuple[Any, ...], dict[str, Any]]:
        # The repr names the summary: ExpectDiagnostic('error', summary='...').
        return (self.severity,), {name: getattr(self, name) for name in _FIELDS[1:]}

    def matches(self, diagnostic: Mapping[str, Any], attribute: Path | None = None) -> bool:
        """Whether a diagnostic as Terraform's JSON writes it (with its attribute path, if known) is this one."""
        found = Diagnostic(
            str(diagnostic.get("severity")),
            str(diagnostic.get("summary", "")),
            str(diagnostic.get("detail", "")),
            address=diagnostic.get("address"),
            attribute=attribute,
            attribute_status="path" if attribute is not None else "unknown",
        )
        return self._matches(found)

    def _matches(self, found: Diagnostic, *, ignore_attribute: bool = False) -> bool:
        if found.severity != self.severity:
            return False
        if not (
            _text_matches(self.summary, found.summary)
            and _text_matches(self.detail, found.detail)
            and _text_matches(self.address, found.address)
        ):
            return False
        if self.attribute is None or ignore_attribute:
            return True
        return found.attribute_status == "path" and found.attribute == self.attribute


def _container(value: object, where: str) -> tuple[Any, ...]:
    if value is None:
        return ()
    if isinstance(value, (str, bytes, re.Pattern, Mapping, ExpectDiagnostic)) or not isinstance(
        value, (Sequence, set, frozenset)
    ):
        raise TestDefinitionError(where, f"expected a list of ExpectDiagnostic, got {_type_name(value)}")
    return tuple(value)


def _from_mapping(item: Mapping[Any, Any], where: str, defaults: Mapping[str, Any]) -> ExpectDiagnostic:
    unknown = sorted(str(k) for k in item if k not in _FIELDS)
    if unknown:
        raise TestDefinitionError(where, f"unknown key {unknown[0]!r} (expected some of {', '.join(_FIELDS)})")
    values = {**defaults, **item}
    if "severity" not in values:
        raise TestDefinitionError(f"{where}.severity", 'missing: give "error" or "warning"')
    checked = _checked(where, values)
    return ExpectDiagnostic(checked.pop("severity"), **checked)


def expectations(value: object, where: str) -> tuple[ExpectDiagnostic, ...]:
    """``TestStep.expect_diagnostics`` as a tuple of :class:`ExpectDiagnostic`, each item checked where it stands.

    An item is an :class:`ExpectDiagnostic` or a dict of its arguments.

    >>> expectations([{"severity": "warning", "summary": "Attribute deprecated"}], "TestStep.expect_diagnostics")
    (ExpectDiagnostic('warning', summary='Attribute deprecated'),)
    >>> expectations([ExpectDiagnostic("error"), {"severity": "fatal"}], "TestStep.expect_diagnostics")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestStep.expect_diagnostics[1].severity: expected "error" or "warning", got "fatal"
    """
    items: list[ExpectDiagnostic] = []
    for i, item in enumerate(_container(value, where)):
        at = f"{where}[{i}]"
        if isinstance(item, ExpectDiagnostic):
            items.append(item)
        elif isinstance(item, Mapping):
            items.append(_from_mapping(item, at, {}))
        else:
            raise TestDefinitionError(at, f"expected an ExpectDiagnostic or a dict of its arguments, got {_type_name(item)}")
    return tuple(items)


def allowances(value: object, where: str) -> tuple[ExpectDiagnostic, ...]:
    """``TestStep.allow_warnings`` as warning expectations: each item an :class:`ExpectDiagnostic` of a
    warning, a dict of its arguments (severity defaults to warning), or a summary: a ``str`` (exact)
    or an ``re.Pattern`` (searched).

    >>> allowances(["Attribute deprecated", re.compile("^Weak")], "TestStep.allow_warnings")
    (ExpectDiagnostic('warning', summary='Attribute deprecated'), ExpectDiagnostic('warning', summary=re.compile('^Weak')))
    >>> allowances([ExpectDiagnostic("error", "Invalid size")], "TestStep.allow_warnings")
    Traceback (most recent call last):
    ...
    plancheck.acceptance.TestDefinitionError: TestStep.allow_warnings[0].severity: allow_warnings takes warnings, got "error" (expect errors with expect_diagnostics)
    """
    items: list[ExpectDiagnostic] = []
    for i, item in enumerate(_container(value, where)):
        at = f"{where}[{i}]"
        if isinstance(item, (str, re.Pattern)):
            checked = _checked(at, {"severity": "warning", "summary": item})
            items.append(ExpectDiagnostic("warning", checked["summary"]))
            continue
        if isinstance(item, Mapping):
            item = _from_mapping(item, at, {"severity": "warning"})
        if not isinstance(item, ExpectDiagnostic):
            raise TestDefinitionError(
                at, f"expected an ExpectDiagnostic, a dict of its arguments or a summary (str or re.Pattern), got {_type_name(item)}"
            )
        if item.severity != "warning":
            raise TestDefinitionError(
                f"{at}.severity", f"allow_warnings takes warnings, got {_quoted(item.severity)} (expect errors with expect_diagnostics)"
            )
        items.append(item)
    return tuple(items)


def check_attribute_sources(steps: Sequence[Any], case_providers: Any) -> None:
    """Refuse ``attribute=`` on a step none of whose providers is served in this process: nothing could report the path.

    A step uses its own providers, else the case's, else those of the last step that gave some
    (as the runner does).
    """
    current = case_providers
    for i, step in enumerate(steps):
        if step.providers is not None:
            current = step.providers
        for field in ("expect_diagnostics", "allow_warnings"):
            for j, expected in enumerate(getattr(step, field)):
                if expected.attribute is None:
                    continue
                if current is not None and any(entry.kind == "factory" for entry in current):
                    continue
                raise TestDefinitionError(
                    f"TestCase.steps[{i}].{field}[{j}].attribute",
                    "Terraform's JSON diagnostics carry no attribute path: only a provider served in this process "
                    "(providers={address: factory}) reports one, and this step has none (external and reattached "
                    "providers and Terraform's own diagnostics cannot be matched by attribute; match address, summary or detail)",
                )


_TYPE: Final = re.compile(
    r'(?:module\.[A-Za-z_][A-Za-z0-9_-]*(?:\[(?:[0-9]+|"(?:[^"\\]|\\.)*")\])?\.)*(?:data\.)?([A-Za-z_][A-Za-z0-9_-]*)\.'
)


def _resource_type(address: str | None) -> str | None:
    if address is None:
        return None
    found = _TYPE.match(address)
    return found.group(1) if found else None


def join_attributes(found: Iterable[Diagnostic], recorded: Iterable[ProviderDiagnostic]) -> list[Diagnostic]:
    """``found`` with each attribute path taken from what providers served in this process reported.

    A diagnostic is joined to the recorded ones with its severity, summary and detail (and, when
    both are known, the resource type of its address); one path among them is its attribute.

    >>> from tfjsonpath import New
    >>> seen = [ProviderDiagnostic("error", "Invalid size", "got -1", "widget_thing", New("size"))]
    >>> [(d.attribute_status, d.attribute) for d in join_attributes(
    ...     [Diagnostic("error", "Invalid size", "got -1", "widget_thing.t"), Diagnostic("error", "Other", "")], seen)]
    [('path', Path(MapStep('size'))), ('unknown', None)]
    """
    records = list(recorded)
    joined: list[Diagnostic] = []
    for diagnostic in found:
        kind = _resource_type(diagnostic.address)
        paths: list[Path | None] = []
        for record in records:
            if (record.severity, record.summary, record.detail) != (diagnostic.severity, diagnostic.summary, diagnostic.detail):
                continue
            if kind is not None and record.type_name and record.type_name != kind:
                continue
            if record.attribute not in paths:
                paths.append(record.attribute)
        if not paths:
            joined.append(replace(diagnostic, attribute=None, attribute_status="unknown", candidates=()))
        elif len(paths) == 1:
            path = paths[0]
            status: AttributeStatus = "none" if path is None else "path"
            joined.append(replace(diagnostic, attribute=path, attribute_status=status, candidates=()))
        else:
            options = tuple(sorted((p for p in paths if p is not None), key=Path.sort_key))
            joined.append(replace(diagnostic, attribute=None, attribute_status="ambiguous", candidates=options))
    return joined


def attribute_text(diagnostic: Diagnostic) -> str:
    """What is known of the diagnostic's attribute path, in words.

    >>> attribute_text(Diagnostic("error", "Boom", "", attribute_status="none"))
    'none (the provider reported no attribute path)'
    """
    if diagnostic.attribute_status == "path" and diagnostic.attribute is not None:
        return diagnostic.attribute.to_text()
    if diagnostic.attribute_status == "none":
        return "none (the provider reported no attribute path)"
    if diagnostic.attribute_status == "ambiguous":
        where = ", ".join(p.to_text() for p in diagnostic.candidates)
        without = " and without one" if len(diagnostic.candidates) < 2 else ""
        return f"ambiguous (the provider reported this diagnostic at {where}{without})"
    return "unknown (not reported by a provider served in this process)"


def _field(name: str, text: str) -> list[str]:
    lines = text.splitlines() or [""]
    return [f"  {name}: {lines[0]}", *("    " + line if line else line for line in lines[1:])]


def describe(diagnostic: Diagnostic) -> str:
    """The diagnostic on a few lines: severity and summary, then detail, address and attribute."""
    lines = [f"{diagnostic.severity}: {diagnostic.summary}"]
    lines.extend(_field("detail", diagnostic.detail if diagnostic.detail else "(none)"))
    lines.extend(_field("address", diagnostic.address or "(none)"))
    lines.extend(_field("attribute", attribute_text(diagnostic)))
    return "\n".join(lines)


def listing(diagnostics: Iterable[Diagnostic]) -> list[str]:
    """Each diagnostic described, in the deterministic order failures use; identical ones once."""
    unique: dict[tuple[Any, ...], Diagnostic] = {}
    for diagnostic in diagnostics:
        unique.setdefault(diagnostic.key(), diagnostic)
    return [describe(d) for d in sorted(unique.values(), key=Diagnostic.sort_key)]


_WITHHELD: Final = "(withheld: {what} could not be read, so its secrets are unknown)"


class _Unreadable(Exception):
    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")


@frozen
class Reading(FrozenValue):
    """What a ``-json`` command printed: its diagnostics, its text (stdout, stderr) and what could not be read."""

    diagnostics: tuple[Diagnostic, ...]
    stdout: str
    stderr: str
    problems: tuple[str, ...] = ()


def _get(obj: Mapping[str, Any], key: str, where: str, kind: type, *, required: bool = False) -> Any:
    value = obj.get(key)
    if value is None:
        if required:
            raise _Unreadable(f"{where}.{key}", "missing")
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = {str: "a string", int: "an integer", dict: "an object", list: "an array"}[kind]
        raise _Unreadable(f"{where}.{key}", f"expected {expected}, found {json_kind(value)}")
    return value


def read_diagnostic(obj: object, where: str) -> Diagnostic:
    """One diagnostic object as Terraform's JSON writes it; raises ``_Unreadable`` naming the JSON location.

    >>> read_diagnostic({"severity": "warning", "summary": "Deprecated", "detail": "use b",
    ...                  "range": {"filename": "main.tf", "start": {"line": 3, "column": 5}}}, "$").line
    3
    """
    if not isinstance(obj, dict):
        raise _Unreadable(where, f"expected an object, found {json_kind(obj)}")
    severity = _get(obj, "severity", where, str, required=True)
    if severity not in SEVERITIES:
        raise _Unreadable(f"{where}.severity", f'expected "error" or "warning", found {severity!r}')
    summary = _get(obj, "summary", where, str, required=True)
    detail = _get(obj, "detail", where, str) or ""
    address = _get(obj, "address", where, str)
    filename = line = column = None
    source = _get(obj, "range", where, dict)
    if source is not None:
        filename = _get(source, "filename", f"{where}.range", str)
        start = _get(source, "start", f"{where}.range", dict)
        if start is not None:
            line = _get(start, "line", f"{where}.range.start", int)
            column = _get(start, "column", f"{where}.range.start", int)
    context = code = code_line = None
    values: list[tuple[str, str]] = []
    snippet = _get(obj, "snippet", where, dict)
    if snippet is not None:
        at = f"{where}.snippet"
        context = _get(snippet, "context", at, str)
        code = _get(snippet, "code", at, str)
        code_line = _get(snippet, "start_line", at, int)
        for i, value in enumerate(_get(snippet, "values", at, list) or []):
            if not isinstance(value, dict):
                raise _Unreadable(f"{at}.values[{i}]", f"expected an object, found {json_kind(value)}")
            traversal = _get(value, "traversal", f"{at}.values[{i}]", str) or ""
            statement = _get(value, "statement", f"{at}.values[{i}]", str) or ""
            values.append((traversal, statement))
    return Diagnostic(
        severity,
        summary,
        detail,
        address=address,
        filename=filename,
        line=line,
        column=column,
        context=context,
        code=code,
        code_line=code_line,
        values=tuple(values),
    )


def render(diagnostic: Diagnostic) -> str:
    """The diagnostic as Terraform's text output (``-no-color``) shows it, detail unwrapped.

    >>> print(render(Diagnostic("error", "Invalid size", "size must be >= 0", address="widget_thing.t",
    ...     filename="main.tf", line=3, context='resource "widget_thing" "t"', code="  size = -1", code_line=3)))
    Error: Invalid size
    <BLANKLINE>
      with widget_thing.t,
      on main.tf line 3, in resource "widget_thing" "t":
       3:   size = -1
    <BLANKLINE>
    size must be >= 0
    """
    lines = [f"{'Error' if diagnostic.severity == 'error' else 'Warning'}: {diagnostic.summary}"]
    source: list[str] = []
    if diagnostic.address:
        source.append(f"  with {diagnostic.address},")
    if diagnostic.filename is not None and diagnostic.line is not None:
        context = f", in {diagnostic.context}" if diagnostic.context else ""
        source.append(f"  on {diagnostic.filename} line {diagnostic.line}{context}:")
        if diagnostic.code is not None and diagnostic.code_line is not None:
            source.extend(f"{diagnostic.code_line + i:4d}: {text}" for i, text in enumerate(diagnostic.code.split("\n")))
        if diagnostic.values:
            source.append("    ├────────────────")
            source.extend(f"    │ {traversal} {statement}" for traversal, statement in diagnostic.values)
    if source:
        lines.extend(["", *source])
    if diagnostic.detail:
        lines.extend(["", diagnostic.detail])
    return "\n".join(lines)


def _joined(parts: list[str]) -> str:
    return "".join(part + "\n" for part in parts)


def read_ui(stdout: str) -> Reading:
    """The lines of ``terraform plan|apply|refresh -json``.

    >>> r = read_ui('{"type":"version","@message":"Terraform 1.11.4"}\\n'
    ...             '{"type":"change_summary","@message":"Plan: 1 to add, 0 to change, 0 to destroy."}\\n'
    ...             '{"type":"diagnostic","@message":"Error: Boom","diagnostic":{"severity":"error","summary":"Boom","detail":""}}\\n'
    ...             'not json\\n')
    >>> r.stdout, r.stderr, r.problems
    ('Plan: 1 to add, 0 to change, 0 to destroy.\\n(withheld: line 4 could not be read, so its secrets are unknown)\\n', '\\nError: Boom\\n', ('line 4: not JSON',))
    >>> [d.summary for d in r.diagnostics]
    ['Boom']
    """
    diagnostics: list[Diagnostic] = []
    out: list[str] = []
    err: list[str] = []
    problems: list[str] = []
    for number, line in enumerate(stdout.splitlines(), 1):
        if not line.strip():
            continue
        try:
            try:
                message = loads_exact(line)
            except DocumentFormatError:
                raise _Unreadable(f"line {number}", "not JSON") from None
            if not isinstance(message, dict):
                raise _Unreadable(f"line {number}", f"expected a JSON object, found {json_kind(message)}")
            kind = _get(message, "type", f"line {number}: $", str)
            text = _get(message, "@message", f"line {number}: $", str) or ""
            if kind == "diagnostic":
                diagnostic = read_diagnostic(message.get("diagnostic"), f"line {number}: $.diagnostic")
                diagnostics.append(diagnostic)
                (err if diagnostic.severity == "error" else out).extend(["", render(diagnostic)])
            elif kind != "version":
                out.append(text)
        except _Unreadable as exc:
            problems.append(str(exc))
            out.append(_WITHHELD.format(what=f"line {number}"))
    return Reading(tuple(diagnostics), _joined(out), _joined(err), tuple(problems))


def read_validate(stdout: str) -> Reading:
    """The document of ``terraform validate -json``.

    >>> r = read_validate('{"valid": true, "error_count": 0, "warning_count": 1, "diagnostics": ['
    ...                   '{"severity": "warning", "summary": "Deprecated", "detail": "use b"}]}')
    >>> print(r.stdout)
    <BLANKLINE>
    Warning: Deprecated
    <BLANKLINE>
    use b
    Success! The configuration is valid, but there were some validation warnings as shown above.
    <BLANKLINE>
    >>> read_validate("[]").problems
    ('$: expected a JSON object, found an array',)
    """
    try:
        try:
            document = loads_exact(stdout)
        except DocumentFormatError as exc:
            raise _Unreadable(exc.location, f"expected {exc.expected}, found {exc.found}") from None
        if not isinstance(document, dict):
            raise _Unreadable("$", f"expected a JSON object, found {json_kind(document)}")
        items = _get(document, "diagnostics", "$", list) or []
        diagnostics = tuple(read_diagnostic(item, f"$.diagnostics[{i}]") for i, item in enumerate(items))
    except _Unreadable as exc:
        return Reading((), _WITHHELD.format(what="the output") + "\n", "", (str(exc),))
    out: list[str] = []
    err: list[str] = []
    for diagnostic in diagnostics:
        (err if diagnostic.severity == "error" else out).extend(["", render(diagnostic)])
    if document.get("valid") is True:
        warned = ", but there were some validation warnings as shown above" if out else ""
        out.append(f"Success! The configuration is valid{warned}.")
    return Reading(diagnostics, _joined(out), _joined(err))


#: The subcommands that run with ``-json`` in a step that checks diagnostics.
JSON_COMMANDS: Final = ("plan", "apply", "refresh", "validate")


class DiagnosticsFailure(_StepFailure):
    """A step's diagnostics broke what it asserts (a warning not allowed, an expectation unmet): the test's
    own assertion, so the case's ``error_check`` does not see it (as an unmatched ``expect_error``)."""


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


class StepDiagnostics:
    """What one step's ``-json`` commands reported, and what the step expects of it (internal to the runner)."""

    def __init__(self, step: Any, fail_on_warnings: bool, binary: str) -> None:
        self.expected: tuple[ExpectDiagnostic, ...] = tuple(step.expect_diagnostics)
        self.allowed: tuple[ExpectDiagnostic, ...] = tuple(step.allow_warnings)
        self.fail_on_warnings = fail_on_warnings
        self.binary = os.path.basename(binary)
        self.arrived: list[Diagnostic] = []
        self.commands: list[str] = []
        # The results of commands that failed reporting errors: the failures an expected error may excuse.
        self.error_results: list[CommandResult] = []

    @classmethod
    def of(cls, case: Any, step: Any, binary: str) -> StepDiagnostics | None:
        """The step's diagnostics, or None when the step runs its commands as text (the usual case)."""
        if step.import_state or step.query:
            return None
        if not (step.expect_diagnostics or step.allow_warnings or case.fail_on_warnings):
            return None
        return cls(step, case.fail_on_warnings, binary)

    @property
    def expects_error(self) -> bool:
        """Whether an expected error may excuse the step's failure."""
        return any(e.severity == "error" for e in self.expected)

    def arguments(self, args: tuple[str, ...]) -> tuple[str, ...]:
        """``args`` with ``-json`` after the subcommand."""
        return (args[0], "-json", *args[1:])

    def read(self, command: str, result: CommandResult) -> tuple[CommandResult, Reading]:
        """The command's result shown as text, and what it reported (kept for the step's verdicts)."""
        reading = read_validate(result.stdout) if command == "validate" else read_ui(result.stdout)
        self.arrived.extend(reading.diagnostics)
        self.commands.append(command)
        shown = replace(result, stdout=reading.stdout, stderr=reading.stderr + result.stderr)
        if result.returncode not in (0, None) and any(d.severity == "error" for d in reading.diagnostics):
            self.error_results.append(shown)
        return shown, reading

    # -- verdicts -----------------------------------------------------------------------------

    def unallowed(self, reading: Reading, recorded: Iterable[ProviderDiagnostic]) -> list[Diagnostic]:
        """The warnings of one command that ``fail_on_warnings`` refuses."""
        if not self.fail_on_warnings:
            return []
        accepted = self.allowed + tuple(e for e in self.expected if e.severity == "warning")
        warnings = join_attributes((d for d in reading.diagnostics if d.severity == "warning"), recorded)
        return [d for d in warnings if not any(a._matches(d) for a in accepted)]

    def unallowed_message(self, command: str, refused: list[Diagnostic]) -> str:
        count = len({d.key() for d in refused})
        noun = _plural(count, "a warning that is", f"{count} warnings that are")
        lines = [
            f"{self.binary} {command} reported {noun} not allowed "
            "(TestCase(fail_on_warnings=True); allow it with TestStep(allow_warnings=[...]) or expect it):"
        ]
        lines.extend(_indented(listing(refused), "  "))
        return "\n".join(lines)

    def unmet(self, recorded: Iterable[ProviderDiagnostic]) -> tuple[list[ExpectDiagnostic], list[Diagnostic]]:
        """The expectations no diagnostic met, and every diagnostic that arrived (attributes joined)."""
        arrived = join_attributes(self.arrived, recorded)
        return [e for e in self.expected if not any(e._matches(d) for d in arrived)], arrived

    def vouch(self, failed: CommandResult, validate: CommandResult) -> None:
        """Let the errors ``validate`` reported explain ``failed`` too (an ``init`` that printed no JSON)."""
        if self.excuses(validate):
            self.error_results.append(failed)

    def excuses(self, result: CommandResult | None) -> bool:
        """Whether the step failed at a command that reported errors (what an expected error may excuse)."""
        return result is not None and any(result is r for r in self.error_results)

    def checked(self) -> str:
        """The commands whose diagnostics were read, in order: ``terraform validate, plan, apply``."""
        return f"{self.binary} {', '.join(self.commands)}" if self.commands else "no command ran"

    def unmet_message(
        self, unmet: list[ExpectDiagnostic], arrived: list[Diagnostic], failed: str | None = None
    ) -> str:
        """Which expectations are missing, and every diagnostic that arrived; ``failed``: how the step failed."""
        lines = [f"{len(unmet)} of {len(self.expected)} expected diagnostics did not arrive ({self.checked()}):"]
        if failed is not None:
            lines.append(f"  the step failed: {failed}")
        lines.append("  missing:")
        for expected in unmet:
            lines.append(f"    {expected!r}")
            near = sorted((d for d in arrived if expected._matches(d, ignore_attribute=True)), key=Diagnostic.sort_key)
            if expected.attribute is not None and near:
                lines.append(f"      (a diagnostic that arrived matches every other field; its attribute is {attribute_text(near[0])})")
        described = listing(arrived)
        lines.append(f"  arrived ({len(described)}):" if described else "  arrived: none")
        lines.extend(_indented(described, "    "))
        return "\n".join(lines)


def _indented(items: list[str], prefix: str) -> list[str]:
    return [prefix + line if line else line for item in items for line in item.splitlines()]


# -- the conditions a diagnostic locates (test coverage) ---------------------------------------------

#: Terraform's summary of a failed condition, and the condition's kind (the same words on 1.0 to 1.11).
CONDITION_SUMMARIES: Final = {
    "Invalid value for variable": "validation",
    "Resource precondition failed": "precondition",
    "Resource postcondition failed": "postcondition",
    "Module output value precondition failed": "precondition",
    "Check block assertion failed": "assert",
}
#: The end of a validation's detail: Terraform's own pointer to the rule. The diagnostic's range is the variable's
#: value (a tfvars file) or its block, never the rule, so this is the only place the rule is named.
_RULE: Final = re.compile(r"^This was checked by the validation rule at (\S+):(\d+),\d+-(?:\d+,)?\d+\.[ \t]*$", re.MULTILINE)
_TEXT_START: Final = re.compile(r"^(Error|Warning): (.+?)\s*\Z")
_TEXT_SOURCE: Final = re.compile(r"^\s*on (\S.*?) line (\d+)(?:, in .*)?:\Z")
_TEXT_BOX: Final = re.compile(r"^[ \t]*[│╷╵][ \t]?")


def failed_conditions(diagnostics: Iterable[Diagnostic]) -> list[tuple[str, str, int]]:
    """Where each failed condition among ``diagnostics`` is written: (condition kind, file, line); nothing else
    (a condition's message can quote a secret: it is never kept). A diagnostic that names no place is left out.

    >>> failed_conditions([
    ...     Diagnostic("error", "Resource precondition failed", "too short", filename="main.tf", line=8),
    ...     Diagnostic("error", "Invalid value for variable", "Bad.\\n\\nThis was checked by the validation rule at "
    ...                "main.tf:3,3-13.", filename="terraform.tfvars.json", line=1),
    ...     Diagnostic("error", "Invalid value for variable", "no pointer", filename="main.tf", line=1),
    ...     Diagnostic("error", "Unsupported argument", "", filename="main.tf", line=2),
    ... ])
    [('precondition', 'main.tf', 8), ('validation', 'main.tf', 3)]
    """
    found: list[tuple[str, str, int]] = []
    for diagnostic in diagnostics:
        kind = CONDITION_SUMMARIES.get(diagnostic.summary)
        if kind == "validation":
            rules = _RULE.findall(diagnostic.detail)
            if rules:  # Terraform's pointer is the detail's last line; a line of the message above is not it
                found.append((kind, rules[-1][0], int(rules[-1][1])))
        elif kind is not None and diagnostic.filename is not None and diagnostic.line is not None:
            found.append((kind, diagnostic.filename, diagnostic.line))
    return found


def text_diagnostics(text: str) -> list[Diagnostic]:
    """The diagnostics of Terraform's text output (``Error: summary``, ``on file line N``, the detail), boxes or not:
    what a step run without ``-json`` reported, for :func:`failed_conditions` only (the detail is every line up to the
    box's end or the next diagnostic, the code line and the values shown included).

    >>> [(d.severity, d.summary, d.filename, d.line) for d in text_diagnostics('''
    ... ╷
    ... │ Error: Resource precondition failed
    ... │
    ... │   on main.tf line 8, in resource "terraform_data" "a":
    ... │    8:       condition     = length(var.name) > 2
    ... │
    ... │ too short
    ... ╵
    ... ''')]
    [('error', 'Resource precondition failed', 'main.tf', 8)]
    """
    found: list[Diagnostic] = []
    current: list[Any] | None = None  # [severity, summary, filename, line, detail lines]

    def close() -> None:
        if current is not None:
            found.append(Diagnostic(current[0], current[1], "\n".join(current[4]), filename=current[2],
                                    line=current[3]))

    for raw in text.splitlines():
        if raw.strip().startswith("╵"):  # the box's end: what follows is no longer the diagnostic's
            close()
            current = None
            continue
        line = _TEXT_BOX.sub("", raw)
        start = _TEXT_START.match(line)
        if start is not None:
            close()
            current = ["error" if start.group(1) == "Error" else "warning", start.group(2), None, None, []]
            continue
        if current is None:
            continue
        source = _TEXT_SOURCE.match(line)
        if source is not None and current[2] is None:
            current[2], current[3] = source.group(1), int(source.group(2))
        elif line.strip():
            current[4].append(line.strip())
    close()
    return found


def tell_failed_conditions(
    source: os.PathLike[str] | None, step: Any, diagnostics: StepDiagnostics | None, failure: _StepFailure | None
) -> None:
    """Test coverage: tell its watchers which conditions a step's expected diagnostics located.

    From Terraform's ``-json`` diagnostics when the step read them, else from the text output of ``failure``
    (what the step failed with, as expected; None: the step passed, with an expected warning, a check block's
    assertion). By file and line only: a condition's message can quote a secret. Only for a configuration
    copied from a directory (``source``: the module's files), never for import or query steps.

    >>> tell_failed_conditions(None, None, None, None)  # no directory: nothing to tell
    """
    from .._documents.met import WATCHERS, failed_in

    if not WATCHERS or source is None or step.import_state or step.query:
        return
    if failure is None and (diagnostics is None or not diagnostics.expected):
        return  # a step that passed expecting nothing located nothing
    if diagnostics is not None and diagnostics.arrived:
        found = failed_conditions(diagnostics.arrived)
    elif failure is not None:
        found = failed_conditions(text_diagnostics(failure.raw_text()))
    else:
        return
    failed_in(source, found)
