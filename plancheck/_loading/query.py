"""Reading ``terraform query -json`` output: JSON lines, each parsed exactly and validated on its own.

Terraform 1.14+ writes one JSON object per line (``internal/command/views/json/query.go``;
terraform-json's ``logging_query.go`` reads them): a ``version`` message, then for each
``list`` block a ``list_start``, one ``list_resource_found`` per result and a
``list_complete`` with the ``total``, with ``diagnostic`` and ``log`` messages among them.
Each non-blank line must be a JSON object that matches ``plancheck/schemas/query.schema.json``
(only what plancheck reads is constrained; other keys and message types pass), and a message
of a list type must hold the object of its type. An error names the line (counted from 1)
and the JSON location inside it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache, partial
from typing import Any, Final

from .._errors import ArgumentError, DocumentFormatError
from .._frozen import public
from .jsontext import decode_text, loads_exact, read_leniently
from .load import refuse_cycle
from .source import read_bytes
from .validate import VALIDATION_MODES, SchemaValidator, load_schema, mode_error, render_violation, to_builtin

__all__ = [
    "LIST_TYPES",
    "ErroredQueryError",
    "QueryFormatError",
    "QueryLine",
    "first_error",
    "query_validator",
    "read_query",
    "validate_messages",
]

#: The message types that carry a list block's data, each under the key of its own name.
LIST_TYPES: Final = ("list_start", "list_resource_found", "list_complete")

#: One validated message and the line it was on (None: given as parsed, one message per position).
QueryLine = tuple[int | None, Mapping[str, Any]]

_AT_LINE_ONE = re.compile(r" at line 1 column (\d+) \(character \d+\)")


@public("plancheck.querycheck")
class QueryFormatError(DocumentFormatError):
    """``terraform query -json`` output is malformed: a line is not JSON, not an object, or not of a query message's structure.

    ``line`` is the line of the output (from 1) the problem is on; ``location`` the JSON location
    inside that line's message.

    >>> str(QueryFormatError("$.list_complete.total", "an integer", found="a string", line=4, source="q.jsonl"))
    'q.jsonl: line 4: $.list_complete.total: expected an integer, found a string'
    """

    kind = "query output"

    def __init__(
        self,
        location: str,
        expected: str,
        *,
        found: str | None = None,
        source: str | None = None,
        line: int | None = None,
    ) -> None:
        self.line = line
        super().__init__(location, expected, found=found, source=source)

    def _render(self) -> str:
        text = f"{self.location}: expected {self.expected}"
        if self.found is not None:
            text += f", found {self.found}"
        if self.line is not None:
            text = f"line {self.line}: {text}"
        if self.source:
            text = f"{self.source}: {text}"
        return text

    def with_source(self, source: str | None) -> QueryFormatError:
        """A copy of this error that names ``source`` (the file it came from).

        >>> QueryFormatError("$", "an object", line=2).with_source("q.jsonl").source
        'q.jsonl'
        """
        return QueryFormatError(self.location, self.expected, found=self.found, source=source, line=self.line)

    def at_line(self, line: int | None) -> QueryFormatError:
        """A copy of this error on ``line``.

        >>> str(QueryFormatError("$", "an object").at_line(3))
        'line 3: $: expected an object'
        """
        return QueryFormatError(self.location, self.expected, found=self.found, source=self.source, line=line)


@public("plancheck.querycheck")
class ErroredQueryError(QueryFormatError):
    """``terraform query -json`` reported an error diagnostic: its results are partial, so the output is refused.

    Terraform writes what its list blocks found before the error and a ``diagnostic`` message at
    ``"@level": "error"``; a query check could pass on the results that were found only because what
    failed found nothing. Every loader refuses such output, naming the first error's summary and its
    line, unless the caller opts in with ``allow_errored=True``, as for a plan whose planning failed
    (:class:`~plancheck.ErroredPlanError`). A QueryFormatError, so it is handled wherever malformed
    output is. ``summary`` is shown quoted as JSON, control characters escaped; the loader scrubs it first
    (a diagnostic can quote a secret).

    >>> print(ErroredQueryError("Invalid list block", line=3, source="q.jsonl"))
    q.jsonl: line 3: $.diagnostic: expected a query that succeeded, found an error: "Invalid list block": the query failed, so its results are partial (to check them anyway: allow_errored=True)
    >>> isinstance(ErroredQueryError("x"), ValueError), ErroredQueryError("x").with_source("q.jsonl").summary
    (True, 'x')
    """

    def __init__(self, summary: str, *, source: str | None = None, line: int | None = None) -> None:
        self.summary = summary
        super().__init__(
            "$.diagnostic",
            "a query that succeeded",
            found=f"an error: {json.dumps(summary, ensure_ascii=False)}: the query failed, so its results are partial "
            "(to check them anyway: allow_errored=True)",
            source=source,
            line=line,
        )

    def with_source(self, source: str | None) -> ErroredQueryError:
        """A copy of this error that names ``source``.

        >>> str(ErroredQueryError("x", line=2).with_source("q.jsonl")).startswith("q.jsonl: line 2: $.diagnostic:")
        True
        """
        return ErroredQueryError(self.summary, source=source, line=self.line)

    def at_line(self, line: int | None) -> ErroredQueryError:
        """A copy of this error on ``line``.

        >>> ErroredQueryError("x").at_line(4).line
        4
        """
        return ErroredQueryError(self.summary, source=self.source, line=line)


def first_error(lines: Iterable[QueryLine]) -> QueryLine | None:
    """The first error diagnostic of validated ``lines`` with its line, or None.

    A diagnostic is an error when its ``"@level"`` or its ``severity`` says so: Terraform's JSON view
    writes every diagnostic that is no warning at the error level (``JSONView.Diagnostics``).

    >>> first_error([(1, {"type": "diagnostic", "@level": "warning", "diagnostic": {"severity": "warning"}}),
    ...              (2, {"type": "diagnostic", "@level": "error", "diagnostic": {"summary": "Bad"}})])
    (2, {'type': 'diagnostic', '@level': 'error', 'diagnostic': {'summary': 'Bad'}})
    """
    for line, message in lines:
        if message.get("type") != "diagnostic":
            continue
        diagnostic = message.get("diagnostic")
        severity = diagnostic.get("severity") if isinstance(diagnostic, Mapping) else None
        if message.get("@level") == "error" or severity == "error":
            return line, message
    return None


@cache
def query_validator() -> SchemaValidator:
    """The query message schema, compiled once.

    >>> query_validator().first_violation({"type": "list_complete", "list_complete": {"address": "list.a.b"}}).location
    '$.list_complete.total'
    """
    return SchemaValidator(load_schema("query"))


def _relocated(error: DocumentFormatError, line: int | None, source: str | None) -> QueryFormatError:
    found = error.found
    if found is not None and line is not None:
        # The parser counts from the start of the line's text: keep its column, drop its "line 1".
        found = _AT_LINE_ONE.sub(r" at column \1", found)
    return QueryFormatError(error.location, error.expected, found=found, source=source, line=line)


def _validate_one(message: Any, line: int | None, source: str | None, validation: str) -> Mapping[str, Any]:
    refuse_cycle(message, partial(QueryFormatError, line=line), source)  # messages given as Python values can hold one
    validator = query_validator()
    if validation == "fast":
        violation = validator.first_violation(message)
    else:
        violation = validator.first_full_violation(to_builtin(message))
    if violation is not None:
        error = render_violation(violation, message, validator.schema, QueryFormatError, source)
        raise _relocated(error, line, source)
    assert isinstance(message, Mapping)  # the schema's root is an object
    kind = message["type"]
    if kind in LIST_TYPES and kind not in message:
        raise QueryFormatError(
            f"$.{kind}", f"a {kind} object (the message's type is {kind})", found=f'no "{kind}" key',
            source=source, line=line,
        )  # fmt: skip
    return message


def validate_messages(
    messages: Iterable[tuple[int | None, Any]], *, source: str | None = None, validation: str = "fast"
) -> list[QueryLine]:
    """Validate parsed messages (each with its line), in order; raise QueryFormatError at the first bad one.

    >>> validate_messages([(1, {"type": "version", "terraform": "1.14.0", "ui": "1.2"})])
    [(1, {'type': 'version', 'terraform': '1.14.0', 'ui': '1.2'})]
    >>> validate_messages([(7, {"type": "list_resource_found"})])
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryFormatError: line 7: $.list_resource_found: expected a list_resource_found object (the message's type is list_resource_found), found no "list_resource_found" key
    """
    if validation not in VALIDATION_MODES:
        raise mode_error(validation)
    return [(line, _validate_one(message, line, source, validation)) for line, message in messages]


def _lines(text: str) -> Iterable[tuple[int, str]]:
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            yield number, line


def _read_leniently(text: str) -> list[Any]:
    """Every line's message read leniently (:func:`~plancheck._loading.jsontext.read_leniently`): the output whose
    secrets the location of a line broken inside a value hides. A line not even that reads holds none that can be told.
    """
    messages = []
    for _, line in _lines(text):
        try:
            messages.append(read_leniently(line))
        except (ValueError, RecursionError):
            continue
    return messages


def read_query(
    source: Any, *, validation: str = "fast", parser: str = "auto", max_bytes: int | None = None
) -> tuple[list[QueryLine], str | None]:
    """Read, parse and validate ``terraform query -json`` output; return its messages with their lines, and its name.

    ``source`` is a path (``"-"``: stdin), a file object or bytes, as for ``load_plan``; blank
    lines are skipped. Numbers are exact (``Decimal`` for non-integers).

    >>> read_query(b'{"type": "list_complete", "list_complete": {"address": "list.a.b", "total": 2}}\\n')[0]
    [(1, {'type': 'list_complete', 'list_complete': {'address': 'list.a.b', 'total': 2}})]
    >>> read_query(b'{"type": "version"}\\n{"type": 3}\\n')
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryFormatError: line 2: $.type: expected a message type string, found a number
    >>> read_query(b'{"type": "version"}\\n{"type": log}\\n')
    Traceback (most recent call last):
    ...
    plancheck.querycheck.QueryFormatError: line 2: $: expected valid JSON, found invalid JSON: Expecting value at column 10
    """
    if validation not in VALIDATION_MODES:
        raise mode_error(validation)
    if isinstance(source, Mapping):
        raise ArgumentError("load_query expects a path, file object or bytes (use QueryOutput.from_messages for parsed messages)")
    data, name = read_bytes(source, QueryFormatError, "query output", "load_query", max_bytes)
    text = data if isinstance(data, str) else decode_text(data, error=QueryFormatError, source=name)
    text = text.removeprefix("\ufeff")
    parsed: list[tuple[int | None, Any]] = []
    whole = partial(_read_leniently, text)  # a line's secrets are the output's (a list block's sensitive input)
    for number, line in _lines(text):
        try:
            parsed.append((number, loads_exact(line, error=QueryFormatError, source=name, parser=parser, whole=whole)))
        except DocumentFormatError as exc:
            raise _relocated(exc, number, name) from None
    return validate_messages(parsed, source=name, validation=validation), name
