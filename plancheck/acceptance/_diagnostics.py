"""Expected diagnostics: :class:`ExpectDiagnostic`, the diagnostics Terraform reported, and matching the two.

A step's ``expect_diagnostics`` and ``allow_warnings`` (and the case's ``fail_on_warnings``) are
matched against :class:`Diagnostic` records read from Terraform's machine-readable output
(``_diagjson``); this module holds the definitions, the matching and the wording of failures.

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
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, replace
from typing import Any, Final, Literal

from tfjsonpath import Path

from .._frozen import FrozenValue, frozen, public
from .._terraform.providers import ProviderDiagnostic
from ._errors import TestDefinitionError

__all__ = [
    "SEVERITIES",
    "Diagnostic",
    "ExpectDiagnostic",
    "ProviderDiagnostic",
    "allowances",
    "attribute_text",
    "check_attribute_sources",
    "describe",
    "expectations",
    "join_attributes",
    "listing",
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
    return expected.search(actual) is not None


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
