"""Terraform's machine-readable diagnostics: read them, and show them as Terraform's text output would.

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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tfjsonpath._jsontypes import json_kind

from .._errors import DocumentFormatError
from .._frozen import FrozenValue, frozen
from .._loading.jsontext import loads_exact
from ._diagnostics import SEVERITIES, Diagnostic

__all__ = ["Reading", "read_ui", "read_validate", "render"]

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
