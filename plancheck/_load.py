"""Reading plan documents from files, streams, bytes or dicts.

Placeholder loader: full JSON Schema validation and the fast path arrive with the
loader work; this module keeps the public entry points stable.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from decimal import Decimal
from typing import IO, Any

from ._errors import PlanFormatError
from ._plan import Plan

__all__ = ["PlanSource", "load_plan", "parse_plan_json", "plan_from_document"]

PlanSource = str | os.PathLike[str] | bytes | bytearray | IO[str] | IO[bytes] | Mapping[str, Any]


def _parse(text: str | bytes, source: str | None) -> Any:
    try:
        return json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError) as exc:
        raise PlanFormatError("$", "valid JSON", found=f"a syntax error ({exc})", source=source) from None


def plan_from_document(document: Any, *, source: str | None = None) -> Plan:
    """Validate a parsed plan document and wrap it in a Plan."""
    from ._validate import validate_plan

    validate_plan(document, source=source)
    return Plan(document, source=source)


def parse_plan_json(text: str | bytes, *, source: str | None = None) -> Plan:
    """Parse JSON text and validate it as a plan."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"Plan.from_json expects str or bytes, got {type(text).__name__}")
    return plan_from_document(_parse(text, source), source=source)


def load_plan(source: PlanSource) -> Plan:
    """Load a plan from a path (str or PathLike; ``"-"`` is stdin), a file object, JSON bytes or a parsed dict.

    A ``str`` is always a path; use :meth:`Plan.from_json` for JSON text.

    >>> load_plan(b'{"format_version": "1.2", "resource_changes": []}').format_version
    '1.2'
    """
    if isinstance(source, Mapping):
        return plan_from_document(source)
    if isinstance(source, (bytes, bytearray)):
        return parse_plan_json(bytes(source))
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if name == "-":
            return parse_plan_json(sys.stdin.buffer.read(), source="<stdin>")
        try:
            with open(name, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise PlanFormatError("$", "a readable plan file", found=f"{exc.strerror or exc}", source=name) from None
        return parse_plan_json(data, source=name)
    read = getattr(source, "read", None)
    if callable(read):
        data = read()
        stream_name = getattr(source, "name", None)
        return parse_plan_json(data, source=stream_name if isinstance(stream_name, str) else None)
    raise TypeError(f"load_plan expects a path, file object, bytes or dict, got {type(source).__name__}")
